#include "ir/IR.h"

#include <functional>
#include <ostream>
#include <stdexcept>

namespace qspec::ir {

static const char *const kTierNames[kNumTiers] = {"int4",       "int8", "int16",
                                                  "dual-int16", "fp16", "float"};

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

const std::string kUnsetWord;

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
  case Decision::BuiltIn:
    return "built-in default";
  case Decision::Default:
    return "defaults";
  case Decision::TypeOverride:
    return "type override";
  case Decision::NameOverride:
    return "name override";
  case Decision::Protect:
    return "protect";
  case Decision::TuningExclude:
    return "tuning exclude";
  case Decision::TuningRaise:
    return "tuning raise";
  case Decision::Group:
    return "group";
  case Decision::TargetScope:
    return "target scope";
  case Decision::TargetOption:
    return "target option";
  case Decision::VendorSkip:
    return "vendor skip";
  case Decision::VendorMethod:
    return "vendor method";
  }
  return "?";
}

const char *mappingHowName(NodeMapping::How h) {
  switch (h) {
  case NodeMapping::None:
    return "unmapped";
  case NodeMapping::MapFile:
    return "mapping file";
  case NodeMapping::Weight:
    return "weight initializer";
  case NodeMapping::Scope:
    return "scope";
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

void ModuleIndex::clear() {
  slots_.clear();
  shift_ = 64;
  size_ = 0;
}

void ModuleIndex::reserve(size_t n) {
  size_t want = 16;
  while (want < 2 * n)
    want *= 2;
  if (want > slots_.size())
    rehash(want);
}

void ModuleIndex::rehash(size_t slots) {
  std::vector<Slot> old = std::move(slots_);
  slots_.assign(slots, Slot{});
  shift_ = 64;
  for (size_t s = slots; s > 1; s /= 2)
    --shift_;
  size_ = 0;
  for (const Slot &o : old)
    if (o.pos != kEmpty)
      insert(o.pos, std::hash<std::string_view>()((*modules_)[o.pos].name));
}

std::pair<uint32_t, bool> ModuleIndex::insert(uint32_t pos, size_t hash) {
  if (2 * (size_ + 1) > slots_.size())
    rehash(slots_.empty() ? 16 : 2 * slots_.size());
  const std::string &name = (*modules_)[pos].name;
  const uint32_t tag = static_cast<uint32_t>(hash);
  const size_t mask = slots_.size() - 1;
  for (size_t s = homeSlot(hash);; s = (s + 1) & mask) {
    Slot &slot = slots_[s];
    if (slot.pos == kEmpty) {
      slot = {pos, tag};
      ++size_;
      return {pos, true};
    }
    if (slot.tag == tag && (*modules_)[slot.pos].name == name)
      return {slot.pos, false};
  }
}

ModuleIndex::Hit ModuleIndex::find(std::string_view name) const {
  if (slots_.empty())
    return {};
  const size_t hash = std::hash<std::string_view>()(name);
  const uint32_t tag = static_cast<uint32_t>(hash);
  const size_t mask = slots_.size() - 1;
  for (size_t s = homeSlot(hash);; s = (s + 1) & mask) {
    const Slot &slot = slots_[s];
    if (slot.pos == kEmpty)
      return {};
    if (slot.tag == tag && (*modules_)[slot.pos].name == name)
      return {slot.pos, true};
  }
}

uint32_t ModuleIndex::at(std::string_view name) const {
  Hit h = find(name);
  if (!h.found)
    throw std::out_of_range("no module named '" + std::string(name) + "'");
  return h.second;
}

void Inventory::rebuildIndex() {
  index.attach(&modules);
  index.clear();
  index.reserve(modules.size());
  for (uint32_t i = 0; i < modules.size(); ++i)
    index.insert(i, std::hash<std::string_view>()(modules[i].name));
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

ResolvedModule TargetReading::expected(const ResolvedModule &general, size_t m) const {
  ResolvedModule out = general;
  if (const TargetChange *c = changeOf(m)) {
    if (c->tier)
      out.tier = *c->tier;
    if (c->weightDtype)
      out.weight.dtype = *c->weightDtype;
    if (c->weightScope)
      out.weight.scope = *c->weightScope;
    if (c->weightMethod)
      out.weight.method = *c->weightMethod;
    if (c->actMethod)
      out.act.method = *c->actMethod;
  }
  return out;
}

const TargetReading *Spec::readingOf(const Target &t) const {
  if (targets.empty() || &t < targets.data() || &t >= targets.data() + targets.size())
    return nullptr;
  size_t i = static_cast<size_t>(&t - targets.data());
  return i < resolution.targets.size() ? &resolution.targets[i] : nullptr;
}

const Settings *Spec::decidingSettings(const Decision &d) const {
  if (d.source == Decision::Default)
    return &defaults;
  if ((d.source == Decision::TypeOverride || d.source == Decision::NameOverride) && d.index >= 0 &&
      static_cast<size_t>(d.index) < overrides.size())
    return &overrides[d.index].settings;
  return nullptr;
}

ResolvedModule Spec::expectedModule(const Target &t, size_t m) const {
  const TargetReading *r = readingOf(t);
  return r ? r->expected(resolution.modules[m], m) : resolution.modules[m];
}

} // namespace qspec::ir
