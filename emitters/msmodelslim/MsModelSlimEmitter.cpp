// The msmodelslim-yaml emitter: a practice YAML for `msmodelslim quant`, in four steps.
//
// 1. Options: the target settings (apiversion, metadata, save, runner, anti_outlier, include,
//    attention_quant, multimodal_sd_config...) are parsed once into PracticeOptions, checked by
//    msModelSlim's rules (MsModelSlimOptions.h); the file name is `<config_id>.yaml`.
// 2. Plan, from the resolution. With an inventory: group the quantized Linears (tier int4/int8)
//    by their resolved qconfig (so one weight width per processor); one `linear_quant` per group.
//    Each group's `include` and the shared `exclude` (every float Linear: protected ∪ tuning) are
//    compressed into patterns (subtree `prefix.*`, numeric brace ranges, `*` over a large group)
//    and verified with ir::Pattern, which has msModelSlim's matching: an include may select only
//    its own modules, float modules (the exclude wins) or modules msModelSlim does not quantize
//    (non-Linear); an exclude only float or non-Linear modules. A failed verification falls back
//    to the verified exact names. Without an inventory: the lowering of the target's symbolic
//    reading (every written name read as an nn.Linear; passes/TargetReadingPass.cpp). The Linear
//    entry becomes a `linear_quant` with include ["*"] (or the target's include); each name a
//    rule at name level or the tuning state quantizes its own entry before it; the later entries
//    exclude the earlier entries' patterns so no module is in two entries; float names go into
//    every exclude.
// 3. Lower to the vendor document: every list to what wcmatch accepts (entries split to 1,000
//    brace expansions, entries over 200 characters shortened or refused), a tied output head
//    excluded; every qconfig checked against the registered-quantizer table, every written
//    string against the character whitelist; then yaml-cpp writes the document (strings
//    double-quoted).
// 4. Verify: emit::emitTargets reads the bytes back through vendors/msmodelslim and compares
//    msModelSlim's reading with the IR (translation validation; an SD block: validateSdPractice).
#include "emitters/msmodelslim/MsModelSlimEmitter.h"

#include "emitters/msmodelslim/MsModelSlimOptions.h"
#include "emitters/msmodelslim/PracticeYaml.h"
#include "emitters/RecipeCarry.h"
#include "vendors/msmodelslim/MsModelSlimRules.h"
#include "ir/Select.h"
#include "ir/Suggest.h"
#include "vendors/Reading.h"
#include "vendors/ViewIndex.h"
#include "vendors/msmodelslim/MsModelSlimBraces.h"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <array>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <optional>
#include <set>
#include <string_view>
#include <tuple>
#include <unordered_set>

namespace qspec::emit {

namespace {

using msmodelslim::QConfig;
using msmodelslim::Want;

} // namespace

namespace {

// ---- Emission -----------------------------------------------------------------------------------

struct Entry {
  QConfig weight;
  std::optional<QConfig> act;
  // Each role's key=value settings, typed (a number is written as a number, sign included).
  std::map<std::string, ir::Value> weightExt, actExt;
  ir::Tier tier = ir::Tier::Int8;
  std::vector<uint32_t> members;         // with an inventory
  std::vector<std::string> include;      // patterns
  std::vector<std::string> extraExclude; // without inventory: earlier entries' includes
  std::vector<Want> want;                // with an inventory: what `include` must select
  std::string key() const {
    std::string k = weight.dtype + "/" + weight.scope + "/" + (weight.symmetric ? "s" : "a") + "/" +
                    weight.method;
    if (act)
      k += "|" + act->dtype + "/" + act->scope + "/" + (act->symmetric ? "s" : "a") + "/" +
           act->method;
    for (const auto *ext : {&weightExt, &actExt}) {
      k += ext == &weightExt ? "|w" : "|a";
      for (const auto &[a, b] : *ext)
        k += "|" + a + "=" + std::to_string(b.kind) + b.text;
    }
    return k;
  }
};

class Builder {
public:
  Builder(const ir::Spec &spec, const ir::Target &target, const EmitIndexes *indexes,
          DiagnosticEngine &diags)
      : spec_(spec), target_(target), indexes_(indexes), diags_(diags) {}

  bool run(OutputContext &out);

private:
  const ir::Spec &spec_;
  const ir::Target &target_;
  const EmitIndexes *indexes_;
  DiagnosticEngine &diags_;
  bool ok_ = true;

  PracticeOptions options_;
  std::vector<Entry> entries_;
  std::vector<std::string> exclude_;
  std::vector<Want> excludeWant_; // with an inventory: what `exclude` must select
  // With an inventory: the caller's (EmitIndexes), else ownCompressor_.
  const msmodelslim::SelectionCompressor *compressor_ = nullptr;
  std::unique_ptr<msmodelslim::SelectionCompressor> ownCompressor_;

  void whitelist(const std::string &what, const std::string &text, SourceRange where) {
    ok_ = checkWhitelisted(diags_, what, text, where) && ok_;
  }

  // The qconfig of module m (inventory) from its resolved recipe.
  bool qconfigOf(const ir::ResolvedModule &rm, const std::string &name, Entry &e);
  bool tierDtypeConflict(const ir::ResolvedModule &rm, const std::string &name);
  int64_t entryFor(const ir::ResolvedModule &rm, const std::string &name,
                   std::map<std::string, size_t> &byKey, std::set<std::string> &reported);
  bool checkEntry(const Entry &e, const std::string &name, SourceRange wr, SourceRange ar);
  void resolveWithInventory();
  std::vector<bool> targetScope();
  // What a module is to the lists (ListRole below), from groupEntries and the entries' members.
  void groupEntries(const std::vector<bool> &inScope, std::vector<int32_t> &role);
  void orderEntries();
  void compressLists(std::vector<int32_t> role);
  void checkWrittenNames();
  // A pattern the user wrote, written as is: whitelisted, and no qspec variable (`{i}`), which
  // msModelSlim would read as literal text.
  void writtenPattern(const std::string &what, const std::string &text, SourceRange where);
  // Lowers a list to what msModelSlim's matcher accepts: entries split to at most 1,000 brace
  // expansions, entries over 200 characters shortened (with `want`, verified) or refused.
  void fitPatterns(std::vector<std::string> &pats, const std::vector<Want> *want,
                   const msmodelslim::SelectionCompressor *compressor);
  // Without an inventory: the lowering of the target's symbolic reading.
  void lowerSymbolic();
  const std::vector<ir::SymbolicEntry> &symbolicEntries() const;
  bool symbolicQConfig(const ir::ResolvedModule &rm, const std::string &name, Entry &e);
  void pushAfter(Entry e, std::vector<std::string> &earlier);
  // Step 3: every list lowered to what msModelSlim's matcher accepts.
  void lower();
  void writeYaml(OutputContext &out);
};

// The key=value settings of one role (`weight` or not) of the rule behind decision `d`.
const std::map<std::string, ir::Value> *extOf(const ir::Spec &spec, const ir::Decision &d,
                                              bool weight) {
  const ir::Settings *s = decidingSettings(spec, d);
  return s ? &(weight ? s->weight : s->act).ext : nullptr;
}

// A role's key=value settings: those of the rule that decided its scope, else its dtype.
std::map<std::string, ir::Value> roleExt(const ir::Spec &spec, const ir::ResolvedRecipe &r,
                                         bool weight) {
  for (const ir::Decision *d : {&r.scope.from, &r.dtype.from})
    if (const auto *ext = extOf(spec, *d, weight); ext && !ext->empty())
      return *ext;
  return {};
}

// The integer width of a quantized tier, where no rule names a weight dtype.
std::string weightDtypeFor(ir::Tier tier, const std::string &dtype) {
  if (!dtype.empty())
    return dtype;
  return tier == ir::Tier::Int4 ? "int4" : "int8";
}

bool Builder::checkEntry(const Entry &e, const std::string &name, SourceRange wr, SourceRange ar) {
  bool good = true;
  std::string why;
  if (e.act && !checkLinearRole(options_, msmodelslim::Role::Act, *e.act, e.actExt, why)) {
    Diagnostic &d = diags_.report(DiagID::err_msmodelslim_illegal_qconfig,
                                  ar.valid() ? ar : target_.range, {"act", name, why});
    (void)d;
    good = false;
  }
  if (!checkLinearRole(options_, msmodelslim::Role::Weight, e.weight, e.weightExt, why)) {
    diags_.report(DiagID::err_msmodelslim_illegal_qconfig, wr.valid() ? wr : target_.range,
                  {"weight", name, why});
    good = false;
  }
  for (const auto &[k, v] : e.weightExt) {
    whitelist("weight ext key", k, wr.valid() ? wr : target_.range);
    whitelist("weight ext value", v.text, wr.valid() ? wr : target_.range);
  }
  for (const auto &[k, v] : e.actExt) {
    whitelist("act ext key", k, ar.valid() ? ar : target_.range);
    whitelist("act ext value", v.text, ar.valid() ? ar : target_.range);
  }
  ok_ = ok_ && good;
  return good;
}

// The same rule says `tier int8` and `weight int4`: reported (for each such module), true.
bool Builder::tierDtypeConflict(const ir::ResolvedModule &rm, const std::string &name) {
  const std::string &wd = rm.weight.dtype.value;
  if ((wd == "int4" || wd == "int8") && wd != ir::tierName(rm.tier.value) &&
      rm.weight.dtype.from.source != ir::Decision::BuiltIn &&
      rm.weight.dtype.from.source >= rm.tier.from.source &&
      rm.tier.from.source != ir::Decision::BuiltIn &&
      rm.weight.dtype.from.index == rm.tier.from.index &&
      rm.weight.dtype.from.source == rm.tier.from.source) {
    // The same rule says `tier int8` and `weight int4`.
    diags_.report(DiagID::err_msmodelslim_tier_dtype,
                  rm.weight.dtype.from.range().valid() ? rm.weight.dtype.from.range()
                                                       : target_.range,
                  {name, ir::tierName(rm.tier.value), wd});
    ok_ = false;
    return true;
  }
  return false;
}

bool Builder::qconfigOf(const ir::ResolvedModule &rm, const std::string &name, Entry &e) {
  e.tier = rm.tier.value;
  if (tierDtypeConflict(rm, name))
    return false;
  std::string_view effective = vendors::effectiveWeightDtype(rm);
  e.weight.dtype = effective.empty() ? weightDtypeFor(rm.tier.value, "") : std::string(effective);
  e.weight.scope = rm.weight.scope.value.empty() ? "per_channel" : rm.weight.scope.value.str();
  e.weight.symmetric =
      rm.weight.symmetric.from.source == ir::Decision::BuiltIn ? true : rm.weight.symmetric.value;
  e.weight.method = rm.weight.method.value.empty() ? "minmax" : rm.weight.method.value.str();
  e.weightExt = roleExt(spec_, rm.weight, true);
  const std::string &ad = rm.act.dtype.value;
  if (!ad.empty() && ad != "float" && ad != "fp16" && ad != "bf16") {
    QConfig a;
    a.dtype = ad;
    a.scope = rm.act.scope.value.empty() ? "per_tensor" : rm.act.scope.value.str();
    a.symmetric =
        rm.act.symmetric.from.source == ir::Decision::BuiltIn ? true : rm.act.symmetric.value;
    a.method = rm.act.method.value.empty() ? "minmax" : rm.act.method.value.str();
    e.act = a;
    e.actExt = roleExt(spec_, rm.act, false);
  }
  return true;
}

bool quantizedByMsModelSlim(const ir::Module &m) { return m.type.empty() || m.type == "Linear"; }

// A module's role in the lists: the index of its entry, or one of these.
enum ListRole : int32_t {
  kNotTested = -3, // not an nn.Linear: linear_quant never tests it
  kFloat = -2,     // a float Linear: in the exclude list
  kNoEntry = -1,   // a quantized Linear in no entry (outside the target's include, or refused)
};

void Builder::resolveWithInventory() {
  std::vector<int32_t> role(spec_.inventory.modules.size(), kNoEntry);
  groupEntries(targetScope(), role);
  orderEntries();
  compressLists(std::move(role));
  checkWrittenNames();
}

// The target's own include narrows the scope: modules it does not select stay unquantized, as the
// target's expected reading says (passes/TargetReadingPass.cpp decides it; a pattern that does
// not compile is reported here, with the option).
std::vector<bool> Builder::targetScope() {
  const ir::Inventory &inv = spec_.inventory;
  std::vector<bool> inScope(inv.modules.size(), true);
  if (const ir::Option *inc = options_.include)
    for (const ir::Value &v : inc->values) {
      std::string err;
      if (!Pattern::compile(v.text, err)) {
        diags_.report(DiagID::err_msmodelslim_bad_option, v.range, {"include", err});
        ok_ = false;
      }
    }
  if (const ir::TargetReading *reading = spec_.readingOf(target_))
    for (size_t m = 0; m < inv.modules.size(); ++m)
      if (const ir::TargetChange *c = reading->changeOf(m))
        inScope[m] = !(c->tier && c->tier->from.source == ir::Decision::TargetScope);
  return inScope;
}

// One entry per distinct qconfig of the quantized Linears in scope (so one weight width per
// processor). Reports at most one illegal qconfig per distinct recipe.
namespace {
// What a module's qconfig (Builder::qconfigOf) is made of: the resolved values (words by the
// rule text they point at) and the rules behind them. Modules with equal signatures have equal
// qconfigs, so the entry is looked up once per signature, not built and keyed once per module.
struct RecipeSignature {
  std::array<const void *, 6> words;
  std::array<int32_t, 4> index;
  std::array<uint8_t, 8> small;
  bool operator==(const RecipeSignature &o) const {
    return words == o.words && index == o.index && small == o.small;
  }
};
struct RecipeSignatureHash {
  size_t operator()(const RecipeSignature &s) const {
    size_t h = 0;
    auto mix = [&](size_t v) { h = (h ^ v) * 0x100000001b3ULL + (h >> 29); };
    for (const void *w : s.words)
      mix(std::hash<const void *>()(w));
    for (int32_t i : s.index)
      mix(static_cast<uint32_t>(i));
    for (uint8_t b : s.small)
      mix(b);
    // Spread into the low bits, which pick the slot of vendors::FlatIndex.
    h = (h ^ (h >> 32)) * 0x9E3779B97F4A7C15ULL;
    return h >> 20;
  }
};
RecipeSignature signatureOf(const ir::ResolvedModule &rm) {
  auto word = [](const ir::Decided<ir::Word> &d) -> const void * { return &d.value.str(); };
  const ir::ResolvedRecipe &w = rm.weight, &a = rm.act;
  return {
      {word(w.dtype), word(w.scope), word(w.method), word(a.dtype), word(a.scope), word(a.method)},
      {w.dtype.from.index, w.scope.from.index, rm.tier.from.index, 0},
      {static_cast<uint8_t>(rm.tier.value), rm.tier.from.source, w.dtype.from.source,
       w.scope.from.source,
       static_cast<uint8_t>(w.symmetric.from.source == ir::Decision::BuiltIn ? 2
                                                                             : w.symmetric.value),
       static_cast<uint8_t>(a.symmetric.from.source == ir::Decision::BuiltIn ? 2
                                                                             : a.symmetric.value),
       0, 0}};
}
} // namespace

// One entry per distinct qconfig of the quantized Linears in scope (so one weight width per
// processor). Reports at most one illegal qconfig per distinct recipe.
void Builder::groupEntries(const std::vector<bool> &inScope, std::vector<int32_t> &role) {
  const ir::Inventory &inv = spec_.inventory;
  const auto &res = spec_.resolution;
  std::map<std::string, size_t> byKey;
  std::set<std::string> reported;
  // Signature -> entry index, kRefused when that qconfig's entry was refused (reported once), or
  // kConflict when its rule says two widths (tierDtypeConflict: everything it reads is in the
  // signature; reported for every such module, as before).
  constexpr int64_t kRefused = -1, kConflict = -2;
  // Signature -> entry, the signatures inline: a spec has few distinct recipes, so a module costs
  // one hash and one probe.
  vendors::FlatIndex<RecipeSignature, int64_t, RecipeSignatureHash> known;
  // Neighbouring modules mostly share a recipe: the previous module's signature is tried first.
  std::optional<RecipeSignature> last;
  int64_t lastEntry = kRefused;
  for (uint32_t m = 0; m < inv.modules.size(); ++m) {
    const ir::ResolvedModule &rm = res.modules[m];
    role[m] = !quantizedByMsModelSlim(inv.modules[m]) ? kNotTested
              : rm.tier.value == ir::Tier::Float      ? kFloat
                                                      : kNoEntry;
    if (role[m] != kNoEntry || !inScope[m])
      continue;
    RecipeSignature sig = signatureOf(rm);
    if (!last || !(*last == sig)) {
      auto [at, fresh] = known.tryEmplace(sig, kRefused);
      if (fresh)
        *at = tierDtypeConflict(rm, inv.modules[m].name)
                  ? kConflict
                  : entryFor(rm, inv.modules[m].name, byKey, reported);
      else if (*at == kConflict)
        tierDtypeConflict(rm, inv.modules[m].name);
      last = sig;
      lastEntry = *at;
    } else if (lastEntry == kConflict) {
      tierDtypeConflict(rm, inv.modules[m].name);
    }
    if (lastEntry >= 0)
      entries_[static_cast<size_t>(lastEntry)].members.push_back(m);
  }
}

// The index of the entry of `rm`'s qconfig, created (and checked) on first sight, or -1 if that
// qconfig is refused.
int64_t Builder::entryFor(const ir::ResolvedModule &rm, const std::string &name,
                          std::map<std::string, size_t> &byKey, std::set<std::string> &reported) {
  Entry e;
  if (!qconfigOf(rm, name, e))
    return -1;
  std::string k = e.key();
  if (auto it = byKey.find(k); it != byKey.end())
    return static_cast<int64_t>(it->second);
  if (!reported.insert(k).second)
    return -1;
  SourceRange wr = rm.weight.scope.from.range().valid() ? rm.weight.scope.from.range()
                                                        : rm.weight.dtype.from.range();
  SourceRange ar = rm.act.dtype.from.range();
  if (!checkEntry(e, name, wr.valid() ? wr : rm.tier.from.range(), ar))
    return -1;
  byKey[k] = entries_.size();
  entries_.push_back(e);
  return static_cast<int64_t>(entries_.size() - 1);
}

// Entry order: the default tier's largest entry first, then by tier and qconfig (stable).
void Builder::orderEntries() {
  std::sort(entries_.begin(), entries_.end(), [&](const Entry &a, const Entry &b) {
    bool da = a.tier == spec_.defaultTier(), db = b.tier == spec_.defaultTier();
    if (da != db)
      return da;
    if (a.tier != b.tier)
      return a.tier < b.tier;
    if (a.members.size() != b.members.size())
      return a.members.size() > b.members.size();
    return a.key() < b.key();
  });
}

// Each entry's include and the shared exclude, compressed and verified on the inventory.
void Builder::compressLists(std::vector<int32_t> role) {
  const ir::Inventory &inv = spec_.inventory;
  for (size_t i = 0; i < entries_.size(); ++i)
    for (uint32_t m : entries_[i].members)
      role[m] = static_cast<int32_t>(i);
  // The caller's compressor when it passed one in (qtune: one per search), else our own, which
  // verifies through the passes' selector when there is one.
  compressor_ = indexes_ ? indexes_->msmodelslimCompressor : nullptr;
  if (!compressor_) {
    ownCompressor_ =
        std::make_unique<msmodelslim::SelectionCompressor>(inv, ir::sharedSelector(spec_));
    compressor_ = ownCompressor_.get();
  }
  const msmodelslim::SelectionCompressor &compressor = *compressor_;
  // Includes.
  for (size_t i = 0; i < entries_.size(); ++i) {
    std::vector<Want> want(inv.modules.size(), Want::DontCare);
    for (size_t m = 0; m < inv.modules.size(); ++m)
      want[m] = role[m] == static_cast<int32_t>(i) ? Want::Must
                : role[m] <= kFloat                ? Want::DontCare
                                                   : Want::Forbid; // another entry's, or no entry
    bool verified = false;
    entries_[i].include = compressor.compress(want, verified);
    entries_[i].want = std::move(want);
    if (!verified) {
      diags_.report(DiagID::err_internal, target_.range,
                    {"msmodelslim include patterns failed verification"});
      ok_ = false;
    }
  }
  // Exclude: protected ∪ tuning (every float module).
  std::vector<Want> want(inv.modules.size(), Want::DontCare);
  for (size_t m = 0; m < inv.modules.size(); ++m)
    want[m] = role[m] == kNotTested ? Want::DontCare // never tested by linear_quant
              : role[m] == kFloat   ? Want::Must
                                    : Want::Forbid;
  bool verified = false;
  exclude_ = compressor.compress(want, verified);
  excludeWant_ = std::move(want);
  if (!verified) {
    diags_.report(DiagID::err_internal, target_.range,
                  {"msmodelslim exclude patterns failed verification"});
    ok_ = false;
  }
}

// Whitelists every written pattern, naming a module it stands for.
void Builder::checkWrittenNames() {
  const ir::Inventory &inv = spec_.inventory;
  const auto &res = spec_.resolution;
  auto checkList = [&](const std::vector<std::string> &pats) {
    for (const auto &p : pats) {
      size_t bad = msmodelslim::firstNonWhitelisted(p);
      if (bad == std::string::npos)
        continue;
      std::string who = p;
      SourceRange where = target_.range;
      std::string err;
      if (auto cp = Pattern::compile(p, err))
        for (size_t m = 0; m < inv.modules.size(); ++m) {
          const ir::Module &mod = inv.modules[m];
          if ((mod.name == p || cp->matches(mod.name)) &&
              msmodelslim::firstNonWhitelisted(mod.name) != std::string::npos) {
            who = mod.name;
            // Point at the rule that decided the module's tier (why it is written here).
            if (res.modules[m].tier.from.range().valid())
              where = res.modules[m].tier.from.range();
            break;
          }
        }
      diags_.report(
          DiagID::err_msmodelslim_not_whitelisted, where,
          {"module name", who, msmodelslim::describeByte(static_cast<unsigned char>(p[bad]))});
      ok_ = false;
    }
  };
  for (const Entry &e : entries_)
    checkList(e.include);
  checkList(exclude_);
}

// Without an inventory: the lowering of the target's symbolic reading (ir::TargetReading::symbolic:
// every written name read as an nn.Linear, the type overrides on Linear under the name's rules),
// else of the general one.
const std::vector<ir::SymbolicEntry> &Builder::symbolicEntries() const {
  const ir::TargetReading *r = spec_.readingOf(target_);
  return r && !r->symbolic.empty() ? r->symbolic : spec_.resolution.symbolic;
}

// A processor's qconfig from a resolved entry, checked as with an inventory (entryFor).
bool Builder::symbolicQConfig(const ir::ResolvedModule &rm, const std::string &name, Entry &e) {
  if (!qconfigOf(rm, name, e))
    return false;
  SourceRange wr = rm.weight.scope.from.range().valid() ? rm.weight.scope.from.range()
                                                        : rm.weight.dtype.from.range();
  return checkEntry(e, name, wr.valid() ? wr : rm.tier.from.range(), rm.act.dtype.from.range());
}

namespace {
// Where a name entry goes among the processors: what decided it (the tuning state first, as it
// beats overrides), then its rule's priority (highest first), then its rule, then written order.
struct SymbolicRank {
  int stage = 0;     // 0 protect or tuning exclude, 1 tuning raise, 2 override
  int priority = 0;  // of the override, negated
  int32_t rule = -1; // the raise or override the entry lowers
  size_t entry = 0;  // first-written order
  bool operator<(const SymbolicRank &o) const {
    return std::tie(stage, priority, rule, entry) < std::tie(o.stage, o.priority, o.rule, o.entry);
  }
};

bool decidedByName(const ir::ResolvedModule &rm) {
  for (ir::Decision::Source s :
       {rm.tier.from.source, rm.weight.dtype.from.source, rm.weight.scope.from.source,
        rm.weight.symmetric.from.source, rm.weight.method.from.source, rm.act.dtype.from.source,
        rm.act.scope.from.source, rm.act.symmetric.from.source, rm.act.method.from.source})
    if (s == ir::Decision::NameOverride)
      return true;
  return false;
}
} // namespace

// 1. The Linear entry stands for every module no name rule decides: the default processor, with
//    include ["*"] (or the target's include), last. Protecting or excluding the whole type needs
//    the module names.
// 2. A float name entry goes into the shared exclude; a quantized one a rule at name level or the
//    tuning state decides is a processor of its own, before the default (tuning raises first,
//    then by the override's priority). Consecutive entries of one rule with one qconfig share a
//    processor, and each processor excludes the earlier ones' includes, so no module is in two.
void Builder::lowerSymbolic() {
  const std::vector<ir::SymbolicEntry> &entries = symbolicEntries();
  std::map<const ir::Selector *, int32_t> overrideOf;
  for (size_t o = 0; o < spec_.overrides.size(); ++o)
    for (const ir::Selector &s : spec_.overrides[o].selectors)
      overrideOf.emplace(&s, static_cast<int32_t>(o));
  const ir::SymbolicEntry *linear = nullptr;
  std::vector<std::pair<SymbolicRank, const ir::SymbolicEntry *>> names;
  for (size_t i = 0; i < entries.size(); ++i) {
    const ir::SymbolicEntry &e = entries[i];
    if (e.isType) {
      if (e.text == "Linear")
        linear = &e;
      continue; // msModelSlim quantizes only nn.Linear: other types are never tested
    }
    const ir::ResolvedModule &rm = e.module;
    SymbolicRank r;
    r.entry = i;
    ir::Decision::Source src = rm.tier.from.source;
    if (src == ir::Decision::Protect || src == ir::Decision::TuningExclude) {
      r.stage = 0;
    } else if (src == ir::Decision::TuningRaise) {
      r.stage = 1;
      r.rule = rm.tier.from.index;
    } else {
      r.stage = 2;
      for (const ir::Selector *s : e.selectors)
        if (auto it = overrideOf.find(s); it != overrideOf.end()) {
          r.rule = it->second;
          r.priority = -spec_.overrides[static_cast<size_t>(it->second)].priority;
          break;
        }
    }
    names.emplace_back(r, &e);
  }
  std::sort(names.begin(), names.end(),
            [](const auto &a, const auto &b) { return a.first < b.first; });
  std::vector<std::string> earlier; // includes of earlier (higher-precedence) processors
  std::optional<std::pair<SymbolicRank, std::string>> open; // the last processor's rule and key
  for (const auto &[rank, e] : names) {
    const ir::ResolvedModule &rm = e->module;
    bool isFloat = rm.tier.value == ir::Tier::Float;
    if (!isFloat && rank.stage == 2 && !decidedByName(rm))
      continue; // no rule at name level: the default processor holds
    writtenPattern("pattern", e->text, e->selectors.front()->range);
    if (isFloat) {
      exclude_.push_back(e->text);
      continue;
    }
    Entry p;
    if (!symbolicQConfig(rm, e->text, p))
      continue;
    std::string key = p.key();
    if (open && open->first.stage == rank.stage && open->first.rule == rank.rule &&
        open->second == key && !entries_.empty()) {
      entries_.back().include.push_back(e->text);
      earlier.push_back(e->text);
      continue;
    }
    open.emplace(rank, key);
    p.include = {e->text};
    pushAfter(std::move(p), earlier);
  }
  if (!linear)
    return; // the pass gives the type an entry: the reading is missing
  const ir::ResolvedModule &rm = linear->module;
  if (rm.isProtected || (rm.tuned && rm.tier.value == ir::Tier::Float)) {
    diags_.report(DiagID::err_emit_needs_inventory, rm.tier.from.range(),
                  {"msmodelslim", "type Linear"});
    ok_ = false;
    return;
  }
  Entry d;
  if (rm.tier.value == ir::Tier::Float || !symbolicQConfig(rm, "the default", d))
    return;
  if (const ir::Option *inc = options_.include) {
    for (const ir::Value &v : inc->values) {
      writtenPattern("pattern", v.text, v.range);
      d.include.push_back(v.text);
    }
  } else {
    d.include = {"*"};
  }
  pushAfter(std::move(d), earlier);
}

// An entry after the earlier ones: it excludes their includes, so no module is in two entries.
void Builder::pushAfter(Entry e, std::vector<std::string> &earlier) {
  e.extraExclude = earlier;
  earlier.insert(earlier.end(), e.include.begin(), e.include.end());
  entries_.push_back(std::move(e));
}

void Builder::lower() {
  const ir::Inventory &inv = spec_.inventory;
  const msmodelslim::SelectionCompressor *c = compressor_;
  for (Entry &e : entries_) {
    fitPatterns(e.include, e.want.empty() ? nullptr : &e.want, c);
    fitPatterns(e.extraExclude, nullptr, nullptr);
  }
  fitPatterns(exclude_, excludeWant_.empty() ? nullptr : &excludeWant_, c);
  // A tied output head is a Linear at run time that the index does not list: it reuses the
  // embedding's weight, so it is never quantized.
  std::optional<std::string> head = ir::tiedHeadName(inv, spec_.modelConfig);
  if (head && std::find(exclude_.begin(), exclude_.end(), *head) == exclude_.end())
    exclude_.push_back(*head);
}

void Builder::writtenPattern(const std::string &what, const std::string &text, SourceRange where) {
  whitelist(what, text, where);
  std::string var = msmodelslim::literalBraceVariable(text);
  if (!var.empty()) {
    diags_.report(DiagID::err_msmodelslim_literal_variable, where, {text, var});
    ok_ = false;
  }
}

// An entry of more than 200 characters as `head*tail` (at most 200), kept only when the list
// still selects what `want` asks; "" when there is none.
std::string shortened(const std::string &p) {
  if (p.find_first_of("{[") != std::string::npos)
    return "";
  size_t keep = (msmodelslim::kMaxPatternChars - 1) / 2;
  std::string head = p.substr(0, keep), tail = p.substr(p.size() - keep);
  if (!head.empty() && head.back() == '\\')
    head.pop_back(); // never cut an escape in two
  if (p.size() > keep && p[p.size() - keep - 1] == '\\')
    tail.erase(0, 1);
  return head + "*" + tail;
}

void Builder::fitPatterns(std::vector<std::string> &pats, const std::vector<Want> *want,
                          const msmodelslim::SelectionCompressor *compressor) {
  std::vector<std::string> out;
  for (const std::string &p : pats) {
    uint64_t n = msmodelslim::braceExpansions(p);
    if (n > msmodelslim::kPatternLimit * 64) {
      diags_.report(DiagID::err_msmodelslim_pattern_limit, target_.range,
                    {p, n == UINT64_MAX ? std::string("more than 2^64") : std::to_string(n)});
      ok_ = false;
      continue;
    }
    for (std::string &piece : msmodelslim::splitBraces(p)) {
      if (piece.size() <= msmodelslim::kMaxPatternChars) {
        out.push_back(std::move(piece));
        continue;
      }
      for (std::string &part : msmodelslim::splitToLength(piece, msmodelslim::kMaxPatternChars))
        out.push_back(std::move(part));
    }
  }
  for (std::string &p : out) {
    if (p.size() <= msmodelslim::kMaxPatternChars)
      continue;
    std::string shorter = shortened(p), original = p;
    if (want && compressor && !shorter.empty()) {
      p = shorter;
      if (compressor->verify(out, *want))
        continue;
      p = original;
    }
    diags_.report(DiagID::err_msmodelslim_name_too_long, target_.range,
                  {p, std::to_string(p.size())});
    ok_ = false;
  }
  pats = std::move(out);
}

bool Builder::run(OutputContext &out) {
  // 1. Options.
  if (!parsePracticeOptions(spec_, target_, options_, diags_))
    return false;
  // 2. Plan.
  if (spec_.resolution.done && spec_.inventory.present())
    resolveWithInventory();
  else
    lowerSymbolic();
  // autoround_quant needs a strategy (msModelSlim: strategies must not be empty); float_sparse
  // keeps what it sparsifies in float, so no Linear may be quantized beside it.
  auto refuse = [&](const ir::Option *o, const char *why) {
    diags_.report(DiagID::err_msmodelslim_bad_option, o->keyRange, {o->key, why});
    ok_ = false;
  };
  if (ok_ && options_.autoround && entries_.empty())
    refuse(options_.autoround, "autoround_quant needs a quantized Linear (its strategies are the "
                               "Linears' qconfigs; msModelSlim refuses an empty list)");
  if (ok_ && options_.floatSparse && !entries_.empty())
    refuse(options_.floatSparse, "float_sparse keeps the Linears it sparsifies in float "
                                 "(W16A16s): write it in a spec that quantizes no Linear");
  // 3. Lower (step 4, verification, is emitTargets' translation validation).
  if (ok_)
    lower();
  if (!ok_)
    return false;
  writeYaml(out);
  out.fileName = options_.configId + ".yaml";
  ok_ = ok_ && (!options_.sd || validateSdPractice(target_, out.buffer(), diags_));
  return ok_;
}

// A qconfig; its `ext` values keep their kind (a number, sign included, is written as a number).
void emitQConfig(YAML::Emitter &y, const char *role, const QConfig &q,
                 const std::map<std::string, ir::Value> *ext) {
  y << YAML::Key << role << YAML::Value << YAML::BeginMap;
  y << YAML::Key << "scope" << YAML::Value << YAML::DoubleQuoted << q.scope;
  y << YAML::Key << "dtype" << YAML::Value << YAML::DoubleQuoted << q.dtype;
  y << YAML::Key << "symmetric" << YAML::Value << (q.symmetric ? "true" : "false");
  y << YAML::Key << "method" << YAML::Value << YAML::DoubleQuoted << q.method;
  if (ext && !ext->empty()) {
    y << YAML::Key << "ext" << YAML::Value << YAML::BeginMap;
    for (const auto &[k, v] : *ext) {
      y << YAML::Key << k << YAML::Value;
      writePracticeValue(y, v);
    }
    y << YAML::EndMap;
  }
  y << YAML::EndMap;
}

void emitStringList(YAML::Emitter &y, const char *key, const std::vector<std::string> &items) {
  y << YAML::Key << key << YAML::Value;
  if (items.empty())
    y << YAML::Flow;
  y << YAML::BeginSeq;
  for (const auto &s : items)
    y << YAML::DoubleQuoted << s;
  y << YAML::EndSeq;
}

int bitsOf(const std::string &dtype) {
  if (dtype == "int4" || dtype == "mxfp4")
    return 4;
  if (dtype == "int8" || dtype == "fp8_e4m3" || dtype == "mxfp8")
    return 8;
  return 16;
}

// metadata: config_id, score, label, verified_model_types, verified_tags (1.2). Unset w_bit
// and a_bit come from `main`, the entry that stands for the practice.
void writeMetadata(YAML::Emitter &y, const PracticeOptions &o, const Entry *main) {
  y << YAML::Key << "metadata" << YAML::Value << YAML::BeginMap;
  y << YAML::Key << "config_id" << YAML::Value << YAML::DoubleQuoted << o.configId;
  if (o.score)
    y << YAML::Key << "score" << YAML::Value << practiceNumber(*o.score);
  y << YAML::Key << "label" << YAML::Value << YAML::BeginMap;
  auto labelKey = [&](const char *k, const std::string &dflt) {
    y << YAML::Key << k << YAML::Value;
    if (auto it = o.label.find(k); it != o.label.end())
      writePracticeValue(y, *it->second);
    else
      y << dflt;
  };
  labelKey("w_bit", std::to_string(main ? bitsOf(main->weight.dtype) : 16));
  labelKey("a_bit", std::to_string(main && main->act ? bitsOf(main->act->dtype) : 16));
  labelKey("is_sparse", "false");
  labelKey("kv_cache", "false");
  for (const char *k : {"fa_bit", "fa_quant"})
    if (auto it = o.label.find(k); it != o.label.end()) {
      y << YAML::Key << k << YAML::Value;
      writePracticeValue(y, *it->second);
    }
  y << YAML::EndMap;
  emitStringList(y, "verified_model_types", o.verifiedModelTypes);
  if (!o.verifiedTags.empty()) {
    y << YAML::Key << "verified_tags" << YAML::Value << YAML::BeginMap;
    for (const auto &[model, lists] : o.verifiedTags) {
      y << YAML::Key << YAML::DoubleQuoted << model << YAML::Value << YAML::BeginSeq;
      for (const std::vector<std::string> &tags : lists) {
        y << YAML::Flow << YAML::BeginSeq;
        for (const std::string &t : tags)
          y << YAML::DoubleQuoted << t;
        y << YAML::EndSeq;
      }
      y << YAML::EndSeq;
    }
    y << YAML::EndMap;
  }
  y << YAML::EndMap;
}

// `qconfig: {act, weight}`, act only when quantized.
void emitQConfigPair(YAML::Emitter &y, const QConfig &weight, const std::optional<QConfig> &act,
                     const std::map<std::string, ir::Value> &weightExt,
                     const std::map<std::string, ir::Value> &actExt) {
  y << YAML::Key << "qconfig" << YAML::Value << YAML::BeginMap;
  if (act)
    emitQConfig(y, "act", *act, &actExt);
  emitQConfig(y, "weight", weight, &weightExt);
  y << YAML::EndMap;
}

// One anti-outlier processor (anti_outlier's or prior's; `c` null for a bare name): its
// settings as written; flex_awq_ssz carries its own qconfig, else `main`'s.
void writeProcessor(YAML::Emitter &y, const PracticeOptions &o, const std::string &type,
                    const ir::Option *c, const Entry *main) {
  y << YAML::BeginMap << YAML::Key << "type" << YAML::Value << YAML::DoubleQuoted << type;
  auto own = c ? o.processorQConfig.find(c) : o.processorQConfig.end();
  if (type == "flex_awq_ssz" && own != o.processorQConfig.end())
    emitQConfigPair(y, own->second.weight, own->second.act, own->second.weightExt,
                    own->second.actExt);
  else if (type == "flex_awq_ssz" && main)
    emitQConfigPair(y, main->weight, main->act, main->weightExt, main->actExt);
  for (size_t i = 0; c && i < c->children.size(); ++i) {
    const ir::Option &p = c->children[i];
    if (p.key == "qconfig")
      continue; // written above
    if (isListSetting(type, p.key)) {
      std::vector<std::string> items;
      for (const ir::Value &v : p.values)
        items.push_back(v.text);
      emitStringList(y, p.key.c_str(), items);
      continue;
    }
    y << YAML::Key << p.key << YAML::Value;
    writePracticeValue(y, p.values[0]);
  }
  y << YAML::EndMap;
}

// Suppression processors first (10.10), in the order written.
void writeAntiOutlier(YAML::Emitter &y, const PracticeOptions &o, const Entry *main) {
  if (!o.antiOutlier)
    return;
  for (const ir::Value &v : o.antiOutlier->values)
    writeProcessor(y, o, v.text, nullptr, main);
  for (const ir::Option &c : o.antiOutlier->children)
    writeProcessor(y, o, c.key, &c, main);
}

// spec.prior: the one stage of the target's `prior`, its processors and dataset.
void writePrior(YAML::Emitter &y, const PracticeOptions &o, const Entry *main) {
  if (!o.prior)
    return;
  y << YAML::Key << "prior" << YAML::Value << YAML::BeginSeq << YAML::BeginMap;
  y << YAML::Key << "process" << YAML::Value << YAML::BeginSeq;
  for (const ir::Option &c : o.prior->children)
    if (c.key != "dataset")
      writeProcessor(y, o, c.key, &c, main);
  y << YAML::EndSeq;
  if (const ir::Option *d = o.prior->child("dataset"))
    y << YAML::Key << "dataset" << YAML::Value << YAML::DoubleQuoted << d->values[0].text;
  y << YAML::EndMap << YAML::EndSeq;
}

// The attention processors (attention_quant) in the order written: `before` the linear_quant
// processors, or after them.
void writeAttention(YAML::Emitter &y, const PracticeOptions &o, bool before) {
  for (const AttentionProcessor &a : o.attention) {
    if (a.beforeLinearQuant != before)
      continue;
    y << YAML::BeginMap << YAML::Key << "type" << YAML::Value << YAML::DoubleQuoted << a.type;
    if (a.qconfig)
      emitQConfig(y, "qconfig", *a.qconfig, nullptr);
    if (!a.details.empty()) {
      y << YAML::Key << "details" << YAML::Value << YAML::BeginMap;
      for (const auto &[role, q] : a.details)
        emitQConfig(y, role.c_str(), q, nullptr);
      y << YAML::EndMap;
    }
    for (const ir::Option *list : {a.include, a.exclude})
      if (list) {
        std::vector<std::string> items;
        for (const ir::Value &v : list->values)
          items.push_back(v.text);
        emitStringList(y, list->key.c_str(), items);
      }
    if (a.blockSize)
      y << YAML::Key << "block_size" << YAML::Value << practiceNumber(*a.blockSize);
    y << YAML::EndMap;
  }
}

// A linear_quant processor, or (`strategy`) an autoround_quant strategy: {qconfig, include,
// exclude}.
void writeEntry(YAML::Emitter &y, const Entry &e, const std::vector<std::string> &exclude,
                bool strategy) {
  y << YAML::BeginMap;
  if (!strategy)
    y << YAML::Key << "type" << YAML::Value << YAML::DoubleQuoted << "linear_quant";
  emitQConfigPair(y, e.weight, e.act, e.weightExt, e.actExt);
  emitStringList(y, "include", e.include);
  // The shared exclude, then the earlier entries' includes not in it yet (a hash set: tens of
  // thousands of literal names without an inventory).
  std::vector<std::string> ex = exclude;
  if (!e.extraExclude.empty()) {
    std::unordered_set<std::string_view> seen(exclude.begin(), exclude.end());
    for (const auto &p : e.extraExclude)
      if (seen.insert(p).second)
        ex.push_back(p);
  }
  emitStringList(y, "exclude", ex);
  y << YAML::EndMap;
}

// spec.save (one saver), dataset, default_text, multimodal_sd_config.
void writeSaveAndData(YAML::Emitter &y, const PracticeOptions &o) {
  y << YAML::Key << "save" << YAML::Value << YAML::BeginSeq << YAML::BeginMap;
  y << YAML::Key << "type" << YAML::Value << YAML::DoubleQuoted << o.saver;
  y << YAML::Key << "part_file_size" << YAML::Value
    << (o.partFileSize ? practiceNumber(*o.partFileSize) : "4");
  y << YAML::EndMap << YAML::EndSeq;
  if (o.dataset)
    y << YAML::Key << "dataset" << YAML::Value << YAML::DoubleQuoted << o.dataset->text;
  if (o.defaultText)
    y << YAML::Key << "default_text" << YAML::Value << YAML::DoubleQuoted << o.defaultText->text;
  writeSdConfig(y, o.sdConfig);
}

void Builder::writeYaml(OutputContext &out) {
  const Entry *main = entries_.empty() ? nullptr : &entries_.front();
  if (!spec_.resolution.done && !entries_.empty())
    main = &entries_.back(); // as written: the default entry is last
  YAML::Emitter y;
  y.SetIndent(2);
  y << YAML::BeginMap;
  y << YAML::Key << "apiversion" << YAML::Value << YAML::DoubleQuoted << options_.apiversion;
  writeMetadata(y, options_, main);
  y << YAML::Key << "spec" << YAML::Value << YAML::BeginMap;
  if (!options_.runner.empty())
    y << YAML::Key << "runner" << YAML::Value << YAML::DoubleQuoted << options_.runner;
  writePrior(y, options_, main);
  y << YAML::Key << "process" << YAML::Value << YAML::BeginSeq;
  writeAntiOutlier(y, options_, main);
  writeFloatSparse(y, options_);
  writeAttention(y, options_, true);
  bool autoround = options_.autoround != nullptr; // the entries are its strategies
  if (autoround)
    writeAutoroundHead(y, options_);
  for (const Entry &e : entries_)
    writeEntry(y, e, exclude_, autoround);
  if (autoround)
    y << YAML::EndSeq << YAML::EndMap;
  writeAttention(y, options_, false);
  y << YAML::EndSeq;
  writeSaveAndData(y, options_);
  y << YAML::EndMap;
  y << YAML::EndMap;
  if (!finishPracticeYaml(y, target_, out, diags_))
    ok_ = false;
}

} // namespace

void writePracticeMetadata(YAML::Emitter &y, const PracticeOptions &o,
                           const std::string &weightDtype, const std::string &actDtype) {
  Entry e;
  e.weight.dtype = weightDtype;
  if (!actDtype.empty()) {
    e.act.emplace();
    e.act->dtype = actDtype;
  }
  writeMetadata(y, o, weightDtype.empty() ? nullptr : &e);
}

bool MsModelSlimEmitter::emit(const ir::Spec &spec, const ir::Target &target, OutputContext &out,
                              DiagnosticEngine &diags) {
  // apiversion modelslim_v0 has another schema (V0Emitter.cpp).
  if (const ir::Option *v = target.option("apiversion");
      v && v->values.size() == 1 && v->values[0].text == "modelslim_v0")
    return emitPracticeV0(spec, target, out, diags);
  Builder b(spec, target, out.indexes, diags);
  return b.run(out);
}

} // namespace qspec::emit
