#include "ir/IR.h"

#include <ostream>

namespace qspec::ir {

static const char *const kTierNames[kNumTiers] = {"int4", "int8", "int16", "dual-int16", "fp16", "float"};

const char *tierName(Tier t) { return kTierNames[static_cast<int>(t)]; }

std::optional<Tier> parseTier(std::string_view name) {
  for (int i = 0; i < kNumTiers; ++i)
    if (name == kTierNames[i])
      return static_cast<Tier>(i);
  if (name == "float16")
    return Tier::FP16;
  if (name == "float32" || name == "fp32")
    return Tier::Float;
  return std::nullopt;
}

std::string knownTierList() {
  std::string s;
  for (int i = 0; i < kNumTiers; ++i) {
    if (i)
      s += ", ";
    s += kTierNames[i];
  }
  return s;
}

const SourceRange &Decision::range() const {
  static const SourceRange none;
  return at ? *at : none;
}

const std::string &Word::str() const {
  static const std::string none;
  return text_ ? *text_ : none;
}

std::ostream &operator<<(std::ostream &os, const Word &w) { return os << w.str(); }

std::optional<std::string> literalName(const Selector &s) {
  if (s.kind != Selector::Name)
    return std::nullopt;
  if (s.pattern && s.pattern->isLiteral())
    return s.pattern->literal();
  if (!s.pattern && !hasGlobSyntax(s.text))
    return s.text;
  return std::nullopt;
}

const char *decisionSourceName(Decision::Source s) {
  switch (s) {
  case Decision::BuiltIn: return "built-in default";
  case Decision::Default: return "defaults";
  case Decision::TypeOverride: return "type override";
  case Decision::NameOverride: return "name override";
  case Decision::Protect: return "protect";
  case Decision::TuningExclude: return "tuning exclude";
  case Decision::TuningRaise: return "tuning raise";
  case Decision::Group: return "group";
  }
  return "?";
}

const char *mappingHowName(NodeMapping::How h) {
  switch (h) {
  case NodeMapping::None: return "unmapped";
  case NodeMapping::MapFile: return "mapping file";
  case NodeMapping::Weight: return "weight initializer";
  case NodeMapping::Scope: return "scope";
  }
  return "?";
}

const Option *Option::child(std::string_view k) const {
  for (const Option &o : children)
    if (o.key == k)
      return &o;
  return nullptr;
}

const Option *Target::option(std::string_view key) const {
  for (const Option &o : options)
    if (o.key == key)
      return &o;
  return nullptr;
}

void Inventory::rebuildIndex() {
  index.clear();
  index.reserve(modules.size());
  for (uint32_t i = 0; i < modules.size(); ++i)
    index.emplace(modules[i].name, i);
}

const Module *Inventory::find(std::string_view name) const {
  auto it = index.find(name);
  return it == index.end() ? nullptr : &modules[it->second];
}

Tier Spec::defaultTier() const {
  if (defaults.tier)
    return *defaults.tier;
  // Without a written `tiers` line the frontend fills the ladder with every tier; the default
  // is then int8 (what every backend expresses), not the ladder's int4.
  return ladder.empty() || !ladderRange.valid() ? Tier::Int8 : ladder.front();
}

bool Spec::inLadder(Tier t) const {
  for (Tier x : ladder)
    if (x == t)
      return true;
  return false;
}

const Target *Spec::target(std::string_view kind) const {
  for (const Target &t : targets)
    if (t.kind == kind)
      return &t;
  return nullptr;
}

} // namespace qspec::ir
