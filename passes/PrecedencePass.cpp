// PrecedencePass: each module's tier and quantization settings, and the rule behind each.
//
// 1. Start every module at the defaults (tier: `defaults { tier }`, else the ladder's lowest;
//    recipe fields as written in `defaults`).
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
#include "passes/Pass.h"

#include <map>
#include <set>

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
  [](const ir::Settings &s) -> std::string {                                                      \
    return s.ROLE.symmetric ? (*s.ROLE.symmetric ? "symmetric" : "asymmetric") : "";              \
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
constexpr size_t kNumFields = sizeof(kFields) / sizeof(kFields[0]);

void assign(ir::ResolvedModule &m, size_t field, const ir::Settings &s, Decision d) {
  switch (field) {
  case 0: m.tier = {*s.tier, d}; break;
  case 1: m.weight.dtype = {*s.weight.dtype, d}; break;
  case 2: m.weight.scope = {*s.weight.scope, d}; break;
  case 3: m.weight.symmetric = {*s.weight.symmetric, d}; break;
  case 4: m.weight.method = {*s.weight.method, d}; break;
  case 5: m.act.dtype = {*s.act.dtype, d}; break;
  case 6: m.act.scope = {*s.act.scope, d}; break;
  case 7: m.act.symmetric = {*s.act.symmetric, d}; break;
  case 8: m.act.method = {*s.act.method, d}; break;
  }
}

class PrecedencePass : public Pass {
public:
  const char *name() const override { return "precedence"; }

  bool run(PassContext &ctx) override {
    ir::Spec &spec = ctx.spec;
    if (!spec.inventory.present())
      return true;
    const auto &mods = spec.inventory.modules;
    auto &res = spec.resolution;
    res.modules.resize(mods.size());

    // 1. Defaults.
    Decision builtIn;
    Decision dflt{Decision::Default, -1, spec.defaultsRange};
    for (auto &m : res.modules) {
      m.tier = {spec.defaultTier(), spec.defaults.tier ? Decision{Decision::Default, -1, spec.defaults.tierRange} : builtIn};
      for (size_t f = 1; f < kNumFields; ++f)
        if (!kFields[f].get(spec.defaults).empty()) {
          // Point at the recipe line (`weight ...` / `act ...`) that set the field.
          Decision at = dflt;
          const ir::Recipe &r = f < 5 ? spec.defaults.weight : spec.defaults.act;
          if (r.range.valid())
            at.range = r.range;
          assign(m, f, spec.defaults, at);
        }
    }

    // Protected set.
    std::vector<int32_t> protectedBy(mods.size(), -1);
    for (size_t p = 0; p < spec.protects.size(); ++p)
      for (uint32_t m : res.selected[&spec.protects[p].selector])
        if (protectedBy[m] < 0)
          protectedBy[m] = static_cast<int32_t>(p);

    // 2. Overrides, type level then name level.
    bool ok = true;
    for (ir::Override::Level level : {ir::Override::Type, ir::Override::Name}) {
      // Per module, the overrides of this level selecting it.
      std::vector<std::vector<int32_t>> hits(mods.size());
      for (size_t o = 0; o < spec.overrides.size(); ++o) {
        const ir::Override &ov = spec.overrides[o];
        if (ov.level != level)
          continue;
        std::set<uint32_t> seen;
        for (const ir::Selector &s : ov.selectors)
          for (uint32_t m : res.selected[&s])
            if (seen.insert(m).second)
              hits[m].push_back(static_cast<int32_t>(o));
      }
      std::set<std::pair<int32_t, int32_t>> reported;
      for (uint32_t m = 0; m < mods.size(); ++m) {
        if (hits[m].empty())
          continue;
        if (protectedBy[m] >= 0 && level == ir::Override::Type)
          continue; // type overrides do not reach protected modules
        for (size_t f = 0; f < kNumFields; ++f) {
          // The highest priority among the overrides that set this field wins; two of them at
          // that priority with different values conflict. Deciding on the maximum first keeps
          // the result independent of source order.
          int32_t best = -1;
          for (int32_t o : hits[m]) {
            const ir::Override &ov = spec.overrides[static_cast<size_t>(o)];
            if (!kFields[f].get(ov.settings).empty() &&
                (best < 0 || ov.priority > spec.overrides[static_cast<size_t>(best)].priority))
              best = o;
          }
          for (int32_t o : hits[m]) {
            if (best < 0 || o == best)
              continue;
            const ir::Override &ov = spec.overrides[static_cast<size_t>(o)];
            const ir::Override &cur = spec.overrides[static_cast<size_t>(best)];
            if (ov.priority == cur.priority && !kFields[f].get(ov.settings).empty() &&
                kFields[f].get(ov.settings) != kFields[f].get(cur.settings) &&
                reported.insert({std::min(best, o), std::max(best, o)}).second) {
              Diagnostic &d = ctx.diags.report(
                  DiagID::err_override_conflict, ov.subjectRange,
                  {level == ir::Override::Type ? "type" : "name", mods[m].name,
                   std::string(kFields[f].name) + " '" + kFields[f].get(ov.settings) + "'",
                   "'" + kFields[f].get(cur.settings) + "'"});
              ctx.diags.note(d, DiagID::note_conflicting_override, cur.subjectRange);
              ok = false;
            }
          }
          if (best < 0)
            continue;
          const ir::Override &win = spec.overrides[static_cast<size_t>(best)];
          if (f == 0 && protectedBy[m] >= 0) {
            // Naming a protected module exactly and lowering it is an error; a glob that merely
            // covers it leaves it at float (qlint's spec-protected-covered says so).
            bool named = false;
            for (const ir::Selector &s : win.selectors)
              named = named || (s.pattern && s.pattern->isLiteral() && s.pattern->literal() == mods[m].name);
            if (named && *win.settings.tier != ir::Tier::Float) {
              Diagnostic &d = ctx.diags.report(DiagID::err_protected_lowered, win.settings.tierRange,
                                               {mods[m].name, ir::tierName(*win.settings.tier)});
              ctx.diags.note(d, DiagID::note_protected_here,
                             spec.protects[static_cast<size_t>(protectedBy[m])].selector.range, {mods[m].name});
              ok = false;
            }
            continue;
          }
          Decision d{level == ir::Override::Type ? Decision::TypeOverride : Decision::NameOverride, best,
                     f == 0 ? win.settings.tierRange : win.subjectRange};
          assign(res.modules[m], f, win.settings, d);
        }
        // Target option blocks ride along with the highest-priority override of the highest
        // level that has any (the first in source order among equals).
        int32_t withOptions = -1;
        for (int32_t o : hits[m]) {
          const ir::Override &ov = spec.overrides[static_cast<size_t>(o)];
          if (!ov.settings.targetOptions.empty() &&
              (withOptions < 0 || ov.priority > spec.overrides[static_cast<size_t>(withOptions)].priority))
            withOptions = o;
        }
        if (withOptions >= 0) {
          res.modules[m].targetOptions.clear();
          for (const ir::Option &o : spec.overrides[static_cast<size_t>(withOptions)].settings.targetOptions)
            res.modules[m].targetOptions.push_back(&o);
        }
      }
    }

    // 3. Protect.
    for (uint32_t m = 0; m < mods.size(); ++m)
      if (protectedBy[m] >= 0) {
        res.modules[m].isProtected = true;
        res.modules[m].tier = {ir::Tier::Float,
                               {Decision::Protect, protectedBy[m], spec.protects[static_cast<size_t>(protectedBy[m])].selector.range}};
      }

    // 4. Tuning state.
    for (size_t e = 0; e < spec.tune.excludes.size(); ++e) {
      const ir::Selector &s = spec.tune.excludes[e];
      for (uint32_t m : res.selected[&s]) {
        if (res.modules[m].isProtected)
          continue;
        res.modules[m].tier = {ir::Tier::Float, {Decision::TuningExclude, static_cast<int32_t>(e), s.range}};
        res.modules[m].tuned = true;
      }
    }
    std::set<const ir::Selector *> reportedBelow;
    for (size_t r = 0; r < spec.tune.raises.size(); ++r) {
      const ir::TuningRaise &raise = spec.tune.raises[r];
      for (const ir::Selector &s : raise.selectors)
        for (uint32_t m : res.selected[&s]) {
          ir::ResolvedModule &rm = res.modules[m];
          if (rm.isProtected) {
            if (raise.tier != ir::Tier::Float) {
              Diagnostic &d = ctx.diags.report(DiagID::err_tuning_protected, s.range, {mods[m].name});
              ctx.diags.note(d, DiagID::note_protected_here,
                             spec.protects[static_cast<size_t>(protectedBy[m])].selector.range, {mods[m].name});
              ok = false;
            }
            continue;
          }
          if (raise.tier < rm.tier.value && !rm.tuned) {
            ok = false;
            if (!reportedBelow.insert(&s).second)
              continue; // one error per selector, not one per module it selects
            Diagnostic &d = ctx.diags.report(DiagID::err_tier_below_default, s.range,
                                             {mods[m].name, ir::tierName(raise.tier), ir::tierName(rm.tier.value)});
            ctx.diags.note(d, DiagID::note_tier_decided_by, rm.tier.from.range,
                           {mods[m].name, ir::tierName(rm.tier.value)});
            continue;
          }
          if (raise.tier > rm.tier.value) {
            rm.tier = {raise.tier, {Decision::TuningRaise, static_cast<int32_t>(r), s.range}};
            rm.tuned = true;
          }
        }
    }
    res.done = true;
    return ok;
  }
};

} // namespace

std::unique_ptr<Pass> createPrecedencePass() { return std::make_unique<PrecedencePass>(); }

} // namespace qspec::passes
