// PrecedencePass: each module's tier and quantization settings, and the rule behind each.
//
// 1. Start every module at the defaults (tier: `defaults { tier }`, else the ladder's lowest;
//    recipe fields and vendor blocks as written in `defaults`), and record each module's group
//    (Resolution::groups).
// 2. Apply type overrides, then name overrides (name > type > default), field by field: a field
//    an override does not set is inherited from the level below. Within one level the override
//    with the higher `priority` wins; two overrides of equal priority that set one field of one
//    module to different values are an error showing both locations (reported once per pair).
// 3. Protected modules are fixed at float. A name override that names a protected module exactly
//    and sets a tier below float is an error; a glob that merely covers one, type overrides and
//    defaults do not apply to it.
// 4. Tuning state: `exclude` raises to float; `raise ... to T` raises to T. Protected modules stay
//    float (a raise below float that selects one is an error); a raise that is not above the
//    module's tier is an error.
// 5. The excluded set (tier float) is therefore protected ∪ tuning, by construction.
// Without an inventory the same steps run over what the rules name (resolveSymbolic,
// passes/SymbolicResolution.h), so conflicts are reported the same way; the entries are stored
// once (Resolution::symbolic) and the emitters lower them instead of combining the rules again.
#include "passes/Pass.h"
#include "passes/SymbolicResolution.h"

#include <array>
#include <map>
#include <optional>
#include <set>
#include <string_view>
#include <unordered_map>

namespace qspec::passes {
namespace {

using ir::Decision;

// One field of the resolved module, and how to read/write it from a Settings.
struct Field {
  const char *name;
  // Reads the field's value from settings as text, or "" when unset.
  std::string (*get)(const ir::Settings &);
};

std::string tierOf(const ir::Settings &s) { return s.tier ? ir::tierName(*s.tier) : ""; }
#define RECIPE_FIELD(ROLE, F)                                                                      \
  [](const ir::Settings &s) -> std::string { return s.ROLE.F ? *s.ROLE.F : ""; }
#define RECIPE_BOOL(ROLE)                                                                          \
  [](const ir::Settings &s) -> std::string {                                                       \
    return s.ROLE.symmetric ? (*s.ROLE.symmetric ? "symmetric" : "asymmetric") : "";               \
  }

const Field kFields[] = {
    {"tier", tierOf},
    {"weight dtype", RECIPE_FIELD(weight, dtype)},
    {"weight scope", RECIPE_FIELD(weight, scope)},
    {"weight symmetry", RECIPE_BOOL(weight)},
    {"weight method", RECIPE_FIELD(weight, method)},
    {"act dtype", RECIPE_FIELD(act, dtype)},
    {"act scope", RECIPE_FIELD(act, scope)},
    {"act symmetry", RECIPE_BOOL(act)},
    {"act method", RECIPE_FIELD(act, method)},
};
#undef RECIPE_FIELD
#undef RECIPE_BOOL
constexpr size_t kNumFields = sizeof(kFields) / sizeof(kFields[0]);

void assign(ir::ResolvedModule &m, size_t field, const ir::Settings &s, Decision d) {
  switch (field) {
  case 0:
    m.tier = {*s.tier, d};
    break;
  case 1:
    m.weight.dtype = {ir::Word(*s.weight.dtype), d};
    break;
  case 2:
    m.weight.scope = {ir::Word(*s.weight.scope), d};
    break;
  case 3:
    m.weight.symmetric = {*s.weight.symmetric, d};
    break;
  case 4:
    m.weight.method = {ir::Word(*s.weight.method), d};
    break;
  case 5:
    m.act.dtype = {ir::Word(*s.act.dtype), d};
    break;
  case 6:
    m.act.scope = {ir::Word(*s.act.scope), d};
    break;
  case 7:
    m.act.symmetric = {*s.act.symmetric, d};
    break;
  case 8:
    m.act.method = {ir::Word(*s.act.method), d};
    break;
  }
}

// The modules the rules are applied to, and which of them each selector selects.
struct Universe {
  std::vector<std::string_view> names;
  std::unordered_map<const ir::Selector *, std::vector<uint32_t>> *selected;
  const std::vector<uint32_t> &of(const ir::Selector &s) const { return (*selected)[&s]; }
  size_t size() const { return names.size(); }
};

// One level's outcome for a list of overrides: per field, the winning override (-1 none), and
// the override whose target option blocks ride along (-1 none).
struct Outcome {
  std::array<int32_t, kNumFields> best;
  int32_t withOptions = -1;
};

class PrecedencePass : public Pass {
public:
  const char *name() const override { return "precedence"; }

  bool run(PassContext &ctx) override {
    ir::Spec &spec = ctx.spec;
    if (!spec.inventory.present()) // stored once, for the emitters and the readings
      return resolveSymbolic(spec, &ctx.diags, spec.resolution.symbolic);
    Universe u;
    u.selected = &spec.resolution.selected;
    u.names.reserve(spec.inventory.modules.size());
    for (const ir::Module &m : spec.inventory.modules)
      u.names.emplace_back(m.name);
    bool ok = resolve(spec, &ctx.diags, u, spec.resolution.modules);
    spec.resolution.done = true;
    return ok;
  }

private:
  struct State {
    const ir::Spec &spec;
    DiagnosticEngine *diags; // null: decide without reporting
    const Universe &u;
    std::vector<ir::ResolvedModule> &out;
    std::vector<int32_t> protectedBy;
    std::vector<std::array<std::string, kNumFields>> text; // per override, "" = unset
    bool ok = true;
  };

public:
  // Steps 1-4 over the modules of `u`, into `out`.
  static bool resolve(const ir::Spec &spec, DiagnosticEngine *diags, const Universe &u,
                      std::vector<ir::ResolvedModule> &out) {
    State st{spec, diags, u, out, {}, {}, true};
    applyDefaults(st);
    findProtected(st);
    overrideTexts(st);
    for (ir::Override::Level level : {ir::Override::Type, ir::Override::Name})
      applyLevel(st, level);
    applyProtect(st);
    applyTuningExcludes(st);
    applyTuningRaises(st);
    return st.ok;
  }

private:
  // 1. Defaults: built once, copied to every module, then each module's group.
  static void applyDefaults(State &st) {
    const ir::Spec &spec = st.spec;
    Decision builtIn;
    Decision dflt{Decision::Default, -1, &spec.defaultsRange};
    ir::ResolvedModule base;
    base.tier = {spec.defaultTier(), spec.defaults.tier
                                         ? Decision{Decision::Default, -1, &spec.defaults.tierRange}
                                         : builtIn};
    for (size_t f = 1; f < kNumFields; ++f)
      if (!kFields[f].get(spec.defaults).empty()) {
        // Point at the recipe line (`weight ...` / `act ...`) that set the field.
        Decision at = dflt;
        const ir::Recipe &r = f < 5 ? spec.defaults.weight : spec.defaults.act;
        if (r.range.valid())
          at.at = &r.range;
        assign(base, f, spec.defaults, at);
      }
    // The defaults' vendor blocks (`defaults { amct { channel_wise false } }`) hold for every
    // module until an override with a block of its own decides it.
    for (const ir::Option &o : spec.defaults.targetOptions)
      base.targetOptions.push_back(&o);
    // One write of every module (the groups pass leaves the modules alone), then its group.
    st.out.assign(st.u.size(), base);
    const auto &groups = spec.resolution.groups;
    if (&st.out != &spec.resolution.modules)
      return; // groups are made of inventory modules
    for (size_t g = 0; g < groups.size(); ++g)
      for (uint32_t m : groups[g].members)
        st.out[m].group = static_cast<int32_t>(g);
  }

  // Per module, the first protect that selects it (-1 none).
  static void findProtected(State &st) {
    const auto &protects = st.spec.protects;
    st.protectedBy.assign(st.u.size(), -1);
    for (size_t p = 0; p < protects.size(); ++p)
      for (uint32_t m : st.u.of(protects[p].selector))
        if (st.protectedBy[m] < 0)
          st.protectedBy[m] = static_cast<int32_t>(p);
  }

  // Each override's fields as text, once ("" = unset).
  static void overrideTexts(State &st) {
    const auto &ovs = st.spec.overrides;
    st.text.assign(ovs.size(), {});
    for (size_t o = 0; o < ovs.size(); ++o)
      for (size_t f = 0; f < kNumFields; ++f)
        st.text[o][f] = kFields[f].get(ovs[o].settings);
  }

  // Per module, the overrides of `level` selecting it, ascending, as an interned list: lists[0]
  // is empty, and override o selecting a module on list L moves it to the list L+o, created once
  // per (L, o). Modules on one list resolve the same way, so each list is decided once. The pair
  // (L, o) is only looked up while override o is applied (a list created then ends in o and is
  // skipped), so L+o is kept per list L with the override it was made for (`extendedBy`), not in
  // a map of pairs.
  struct Lists {
    std::vector<std::vector<int32_t>> lists{1};
    std::vector<int32_t> extendedBy{-1};
    std::vector<uint32_t> extendedTo{0};
    std::vector<uint32_t> listOf;
  };
  static Lists overrideLists(const State &st, ir::Override::Level level) {
    const auto &ovs = st.spec.overrides;
    Lists ls;
    ls.listOf.assign(st.u.size(), 0);
    for (size_t o = 0; o < ovs.size(); ++o) {
      if (ovs[o].level != level)
        continue;
      const auto oi = static_cast<int32_t>(o);
      for (const ir::Selector &s : ovs[o].selectors)
        for (uint32_t m : st.u.of(s))
          extend(ls, ls.listOf[m], oi);
    }
    return ls;
  }
  static void extend(Lists &ls, uint32_t &l, int32_t oi) {
    if (!ls.lists[l].empty() && ls.lists[l].back() == oi)
      return; // already selected by another selector of this override
    if (ls.extendedBy[l] != oi) {
      ls.extendedBy[l] = oi;
      ls.extendedTo[l] = static_cast<uint32_t>(ls.lists.size());
      std::vector<int32_t> longer = ls.lists[l];
      longer.push_back(oi);
      ls.lists.push_back(std::move(longer));
      ls.extendedBy.push_back(-1);
      ls.extendedTo.push_back(0);
    }
    l = ls.extendedTo[l];
  }

  // 2. One level of overrides: each list decided once, at its first module (which also reports
  // its conflicts, as module by module would, since each pair is reported once).
  static void applyLevel(State &st, ir::Override::Level level) {
    Lists ls = overrideLists(st, level);
    std::vector<std::optional<Outcome>> decided(ls.lists.size());
    std::set<std::pair<int32_t, int32_t>> reported;
    for (uint32_t m = 0; m < st.u.size(); ++m) {
      uint32_t l = ls.listOf[m];
      if (l == 0)
        continue;
      if (st.protectedBy[m] >= 0 && level == ir::Override::Type)
        continue; // type overrides do not reach protected modules
      if (!decided[l])
        decided[l] = decide(st, ls.lists[l], level, m, reported);
      applyOutcome(st, *decided[l], level, m);
    }
  }

  // For one list of same-level overrides selecting module `m` (the first such module): per
  // field, the highest priority among the overrides that set it wins; two of them at that
  // priority with different values conflict (reported once per pair). Deciding on the maximum
  // first keeps the result independent of source order. Target option blocks ride along with the
  // highest-priority override that has any (the first in source order among equals).
  static Outcome decide(State &st, const std::vector<int32_t> &hits, ir::Override::Level level,
                        uint32_t m, std::set<std::pair<int32_t, int32_t>> &reported) {
    const auto &ovs = st.spec.overrides;
    Outcome out;
    for (size_t f = 0; f < kNumFields; ++f) {
      int32_t best = -1;
      for (int32_t o : hits)
        if (!st.text[o][f].empty() && (best < 0 || ovs[o].priority > ovs[best].priority))
          best = o;
      for (int32_t o : hits)
        if (best >= 0 && o != best && ovs[o].priority == ovs[best].priority &&
            !st.text[o][f].empty() && st.text[o][f] != st.text[best][f] &&
            reported.insert({std::min(best, o), std::max(best, o)}).second)
          reportConflict(st, level, m, f, o, best);
      out.best[f] = best;
    }
    for (int32_t o : hits)
      if (!ovs[o].settings.targetOptions.empty() &&
          (out.withOptions < 0 || ovs[o].priority > ovs[out.withOptions].priority))
        out.withOptions = o;
    return out;
  }

  static void reportConflict(State &st, ir::Override::Level level, uint32_t m, size_t f, int32_t o,
                             int32_t best) {
    st.ok = false;
    if (!st.diags)
      return;
    const auto &ovs = st.spec.overrides;
    Diagnostic &d = st.diags->report(
        DiagID::err_override_conflict, ovs[o].subjectRange,
        {level == ir::Override::Type ? "type" : "name", std::string(st.u.names[m]),
         std::string(kFields[f].name) + " '" + st.text[o][f] + "'", "'" + st.text[best][f] + "'"});
    st.diags->note(d, DiagID::note_conflicting_override, ovs[best].subjectRange);
  }

  // Writes a decided level into module `m`: each field its winner set, and the option blocks.
  static void applyOutcome(State &st, const Outcome &out, ir::Override::Level level, uint32_t m) {
    const auto &ovs = st.spec.overrides;
    for (size_t f = 0; f < kNumFields; ++f) {
      int32_t best = out.best[f];
      if (best < 0)
        continue;
      const ir::Override &win = ovs[static_cast<size_t>(best)];
      if (f == 0 && st.protectedBy[m] >= 0) {
        checkProtectedLowered(st, win, m);
        continue;
      }
      Decision d{level == ir::Override::Type ? Decision::TypeOverride : Decision::NameOverride,
                 best, f == 0 ? &win.settings.tierRange : &win.subjectRange};
      assign(st.out[m], f, win.settings, d);
    }
    if (out.withOptions >= 0) {
      st.out[m].targetOptions.clear();
      for (const ir::Option &o : ovs[static_cast<size_t>(out.withOptions)].settings.targetOptions)
        st.out[m].targetOptions.push_back(&o);
    }
  }

  // 3. Naming a protected module exactly and lowering it is an error; a glob that merely covers
  // it leaves it at float (qlint's spec-protected-covered says so).
  static void checkProtectedLowered(State &st, const ir::Override &win, uint32_t m) {
    std::string_view name = st.u.names[m];
    bool named = false;
    for (const ir::Selector &s : win.selectors)
      named = named || (s.pattern && s.pattern->isLiteral() && s.pattern->literal() == name);
    if (!named || *win.settings.tier == ir::Tier::Float)
      return;
    st.ok = false;
    if (!st.diags)
      return;
    Diagnostic &d = st.diags->report(DiagID::err_protected_lowered, win.settings.tierRange,
                                     {std::string(name), ir::tierName(*win.settings.tier)});
    noteProtected(st, d, m);
  }

  static void noteProtected(State &st, Diagnostic &d, uint32_t m) {
    const ir::Protect &p = st.spec.protects[static_cast<size_t>(st.protectedBy[m])];
    st.diags->note(d, DiagID::note_protected_here, p.selector.range, {std::string(st.u.names[m])});
  }

  // 3. Protected modules are float.
  static void applyProtect(State &st) {
    const auto &protects = st.spec.protects;
    for (uint32_t m = 0; m < st.u.size(); ++m)
      if (int32_t p = st.protectedBy[m]; p >= 0) {
        st.out[m].isProtected = true;
        st.out[m].tier = {ir::Tier::Float,
                          {Decision::Protect, p, &protects[static_cast<size_t>(p)].selector.range}};
      }
  }

  // 4. Tuning excludes raise to float (protected modules already are).
  static void applyTuningExcludes(State &st) {
    const auto &excludes = st.spec.tune.excludes;
    for (size_t e = 0; e < excludes.size(); ++e) {
      const ir::Selector &s = excludes[e];
      for (uint32_t m : st.u.of(s)) {
        if (st.out[m].isProtected)
          continue;
        st.out[m].tier = {ir::Tier::Float,
                          {Decision::TuningExclude, static_cast<int32_t>(e), &s.range}};
        st.out[m].tuned = true;
      }
    }
  }

  // 4. `raise ... to T`: protected modules stay float (a raise below float that selects one is an
  // error); a raise that is not above the module's tier is an error, once per selector.
  static void applyTuningRaises(State &st) {
    const auto &raises = st.spec.tune.raises;
    std::set<const ir::Selector *> reportedBelow;
    for (size_t r = 0; r < raises.size(); ++r)
      for (const ir::Selector &s : raises[r].selectors)
        for (uint32_t m : st.u.of(s))
          raiseModule(st, raises[r], static_cast<int32_t>(r), s, m, reportedBelow);
  }

  static void raiseModule(State &st, const ir::TuningRaise &raise, int32_t r, const ir::Selector &s,
                          uint32_t m, std::set<const ir::Selector *> &reportedBelow) {
    ir::ResolvedModule &rm = st.out[m];
    std::string name(st.u.names[m]);
    if (rm.isProtected) {
      if (raise.tier == ir::Tier::Float)
        return;
      st.ok = false;
      if (st.diags)
        noteProtected(st, st.diags->report(DiagID::err_tuning_protected, s.range, {name}), m);
      return;
    }
    if (raise.tier < rm.tier.value && !rm.tuned) {
      st.ok = false;
      if (!st.diags || !reportedBelow.insert(&s).second)
        return; // one error per selector, not one per module it selects
      Diagnostic &d =
          st.diags->report(DiagID::err_tier_below_default, s.range,
                           {name, ir::tierName(raise.tier), ir::tierName(rm.tier.value)});
      st.diags->note(d, DiagID::note_tier_decided_by, rm.tier.from.range(),
                     {name, ir::tierName(rm.tier.value)});
      return;
    }
    if (raise.tier > rm.tier.value) {
      rm.tier = {raise.tier, {Decision::TuningRaise, r, &s.range}};
      rm.tuned = true;
    }
  }
};

} // namespace

namespace {

// Every selector of a rule, in the order the emitters have always listed them.
template <typename F> void forEachSelector(const ir::Spec &spec, F &&f) {
  for (const ir::Protect &p : spec.protects)
    f(p.selector);
  for (const ir::Selector &s : spec.tune.excludes)
    f(s);
  for (const ir::Override &o : spec.overrides)
    for (const ir::Selector &s : o.selectors)
      f(s);
  for (const ir::TuningRaise &r : spec.tune.raises)
    for (const ir::Selector &s : r.selectors)
      f(s);
}

} // namespace

bool resolveSymbolic(const ir::Spec &spec, DiagnosticEngine *diags, std::vector<SymbolicEntry> &out,
                     const std::string &nameType) {
  out.clear();
  std::map<std::pair<bool, std::string_view>, uint32_t> ids;
  std::unordered_map<const ir::Selector *, std::vector<uint32_t>> selected;
  forEachSelector(spec, [&](const ir::Selector &s) {
    bool isType = s.kind == ir::Selector::Type;
    auto [it, fresh] = ids.try_emplace({isType, s.text}, static_cast<uint32_t>(out.size()));
    if (fresh)
      out.push_back({isType, s.text, {}, {}});
    out[it->second].selectors.push_back(&s);
    selected[&s] = {it->second};
  });
  if (!nameType.empty()) {
    // The type's own entry stands for every module no name rule decides: always there.
    if (ids.find({true, nameType}) == ids.end())
      out.push_back({true, nameType, {}, {}});
    std::vector<uint32_t> names;
    for (uint32_t i = 0; i < out.size(); ++i)
      if (!out[i].isType)
        names.push_back(i);
    for (SymbolicEntry &e : out)
      if (e.isType && e.text == nameType)
        for (const ir::Selector *s : e.selectors)
          selected[s].insert(selected[s].end(), names.begin(), names.end());
  }
  Universe u;
  u.selected = &selected;
  for (const SymbolicEntry &e : out)
    u.names.emplace_back(e.text);
  std::vector<ir::ResolvedModule> modules;
  bool ok = PrecedencePass::resolve(spec, diags, u, modules);
  for (size_t i = 0; i < out.size(); ++i)
    out[i].module = std::move(modules[i]);
  return ok;
}

std::unique_ptr<Pass> createPrecedencePass() { return std::make_unique<PrecedencePass>(); }

} // namespace qspec::passes
