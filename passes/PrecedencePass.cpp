// PrecedencePass: each module's tier and quantization settings, and the rule behind each.
//
// 1. Start every module at the defaults (tier: `defaults { tier }`, else the ladder's lowest;
//    recipe fields as written in `defaults`), and record each module's group (Resolution::groups).
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

#include <array>
#include <optional>
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

class PrecedencePass : public Pass {
public:
  const char *name() const override { return "precedence"; }

  // For one list of same-level overrides selecting a module (`moduleName`, the first such module):
  // per field, the highest priority among the overrides that set it wins; two of them at that
  // priority with different values conflict (reported once per pair). Deciding on the maximum
  // first keeps the result independent of source order. Target option blocks ride along with the
  // highest-priority override that has any (the first in source order among equals).
  static void decide(PassContext &ctx, const std::vector<int32_t> &hits,
                     const std::vector<std::array<std::string, kNumFields>> &text,
                     ir::Override::Level level, const std::string &moduleName,
                     std::set<std::pair<int32_t, int32_t>> &reported, bool &ok,
                     std::array<int32_t, kNumFields> &bestOf, int32_t &withOptions) {
    const auto &ovs = ctx.spec.overrides;
    for (size_t f = 0; f < kNumFields; ++f) {
      int32_t best = -1;
      for (int32_t o : hits)
        if (!text[o][f].empty() && (best < 0 || ovs[o].priority > ovs[best].priority))
          best = o;
      for (int32_t o : hits) {
        if (best < 0 || o == best)
          continue;
        if (ovs[o].priority == ovs[best].priority && !text[o][f].empty() &&
            text[o][f] != text[best][f] &&
            reported.insert({std::min(best, o), std::max(best, o)}).second) {
          Diagnostic &d = ctx.diags.report(
              DiagID::err_override_conflict, ovs[o].subjectRange,
              {level == ir::Override::Type ? "type" : "name", moduleName,
               std::string(kFields[f].name) + " '" + text[o][f] + "'", "'" + text[best][f] + "'"});
          ctx.diags.note(d, DiagID::note_conflicting_override, ovs[best].subjectRange);
          ok = false;
        }
      }
      bestOf[f] = best;
    }
    withOptions = -1;
    for (int32_t o : hits)
      if (!ovs[o].settings.targetOptions.empty() &&
          (withOptions < 0 || ovs[o].priority > ovs[withOptions].priority))
        withOptions = o;
  }

  bool run(PassContext &ctx) override {
    ir::Spec &spec = ctx.spec;
    if (!spec.inventory.present())
      return true;
    const auto &mods = spec.inventory.modules;
    auto &res = spec.resolution;

    // 1. Defaults: built once, copied to every module.
    {
      Decision builtIn;
      Decision dflt{Decision::Default, -1, &spec.defaultsRange};
      ir::ResolvedModule base;
      base.tier = {spec.defaultTier(),
                   spec.defaults.tier ? Decision{Decision::Default, -1, &spec.defaults.tierRange}
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
      // One write of every module (the groups pass leaves res.modules alone), then its group.
      res.modules.assign(mods.size(), base);
      for (size_t g = 0; g < res.groups.size(); ++g)
        for (uint32_t m : res.groups[g].members)
          res.modules[m].group = static_cast<int32_t>(g);
    }

    // Protected set.
    std::vector<int32_t> protectedBy(mods.size(), -1);
    for (size_t p = 0; p < spec.protects.size(); ++p)
      for (uint32_t m : res.selected[&spec.protects[p].selector])
        if (protectedBy[m] < 0)
          protectedBy[m] = static_cast<int32_t>(p);

    // Each override's fields as text, once ("" = unset).
    std::vector<std::array<std::string, kNumFields>> text(spec.overrides.size());
    for (size_t o = 0; o < spec.overrides.size(); ++o)
      for (size_t f = 0; f < kNumFields; ++f)
        text[o][f] = kFields[f].get(spec.overrides[o].settings);

    // 2. Overrides, type level then name level.
    bool ok = true;
    for (ir::Override::Level level : {ir::Override::Type, ir::Override::Name}) {
      // Per module, the overrides of this level selecting it, ascending, as an interned list:
      // lists[0] is empty, and override o selecting a module on list L moves it to the list L+o,
      // created once per (L, o). Modules on one list resolve the same way, so each list is decided
      // once, at its first module (which also reports its conflicts, as module by module would,
      // since each pair is reported once). The pair (L, o) is only looked up while override o is
      // applied (a list created then ends in o and is skipped), so L+o is kept per list L with
      // the override it was made for (`extendedBy`), not in a map of pairs.
      std::vector<std::vector<int32_t>> lists(1);
      std::vector<int32_t> extendedBy(1, -1);
      std::vector<uint32_t> extendedTo(1, 0);
      std::vector<uint32_t> listOf(mods.size(), 0);
      for (size_t o = 0; o < spec.overrides.size(); ++o) {
        const ir::Override &ov = spec.overrides[o];
        if (ov.level != level)
          continue;
        const auto oi = static_cast<int32_t>(o);
        for (const ir::Selector &s : ov.selectors)
          for (uint32_t m : res.selected[&s]) {
            uint32_t &l = listOf[m];
            if (!lists[l].empty() && lists[l].back() == oi)
              continue; // already selected by another selector of this override
            if (extendedBy[l] != oi) {
              extendedBy[l] = oi;
              extendedTo[l] = static_cast<uint32_t>(lists.size());
              std::vector<int32_t> longer = lists[l];
              longer.push_back(oi);
              lists.push_back(std::move(longer));
              extendedBy.push_back(-1);
              extendedTo.push_back(0);
            }
            l = extendedTo[l];
          }
      }
      struct Outcome {
        std::array<int32_t, kNumFields> best;
        int32_t withOptions;
      };
      std::vector<std::optional<Outcome>> decided(lists.size());
      std::set<std::pair<int32_t, int32_t>> reported;
      for (uint32_t m = 0; m < mods.size(); ++m) {
        uint32_t l = listOf[m];
        if (l == 0)
          continue;
        if (protectedBy[m] >= 0 && level == ir::Override::Type)
          continue; // type overrides do not reach protected modules
        if (!decided[l]) {
          Outcome out;
          decide(ctx, lists[l], text, level, mods[m].name, reported, ok, out.best, out.withOptions);
          decided[l] = out;
        }
        const Outcome &out = *decided[l];
        for (size_t f = 0; f < kNumFields; ++f) {
          int32_t best = out.best[f];
          if (best < 0)
            continue;
          const ir::Override &win = spec.overrides[static_cast<size_t>(best)];
          if (f == 0 && protectedBy[m] >= 0) {
            // Naming a protected module exactly and lowering it is an error; a glob that merely
            // covers it leaves it at float (qlint's spec-protected-covered says so).
            bool named = false;
            for (const ir::Selector &s : win.selectors)
              named = named ||
                      (s.pattern && s.pattern->isLiteral() && s.pattern->literal() == mods[m].name);
            if (named && *win.settings.tier != ir::Tier::Float) {
              Diagnostic &d =
                  ctx.diags.report(DiagID::err_protected_lowered, win.settings.tierRange,
                                   {mods[m].name, ir::tierName(*win.settings.tier)});
              ctx.diags.note(d, DiagID::note_protected_here,
                             spec.protects[static_cast<size_t>(protectedBy[m])].selector.range,
                             {mods[m].name});
              ok = false;
            }
            continue;
          }
          Decision d{level == ir::Override::Type ? Decision::TypeOverride : Decision::NameOverride,
                     best, f == 0 ? &win.settings.tierRange : &win.subjectRange};
          assign(res.modules[m], f, win.settings, d);
        }
        if (out.withOptions >= 0) {
          res.modules[m].targetOptions.clear();
          for (const ir::Option &o :
               spec.overrides[static_cast<size_t>(out.withOptions)].settings.targetOptions)
            res.modules[m].targetOptions.push_back(&o);
        }
      }
    }

    // 3. Protect.
    for (uint32_t m = 0; m < mods.size(); ++m)
      if (protectedBy[m] >= 0) {
        res.modules[m].isProtected = true;
        res.modules[m].tier = {
            ir::Tier::Float,
            {Decision::Protect, protectedBy[m],
             &spec.protects[static_cast<size_t>(protectedBy[m])].selector.range}};
      }

    // 4. Tuning state.
    for (size_t e = 0; e < spec.tune.excludes.size(); ++e) {
      const ir::Selector &s = spec.tune.excludes[e];
      for (uint32_t m : res.selected[&s]) {
        if (res.modules[m].isProtected)
          continue;
        res.modules[m].tier = {ir::Tier::Float,
                               {Decision::TuningExclude, static_cast<int32_t>(e), &s.range}};
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
              Diagnostic &d =
                  ctx.diags.report(DiagID::err_tuning_protected, s.range, {mods[m].name});
              ctx.diags.note(d, DiagID::note_protected_here,
                             spec.protects[static_cast<size_t>(protectedBy[m])].selector.range,
                             {mods[m].name});
              ok = false;
            }
            continue;
          }
          if (raise.tier < rm.tier.value && !rm.tuned) {
            ok = false;
            if (!reportedBelow.insert(&s).second)
              continue; // one error per selector, not one per module it selects
            Diagnostic &d = ctx.diags.report(
                DiagID::err_tier_below_default, s.range,
                {mods[m].name, ir::tierName(raise.tier), ir::tierName(rm.tier.value)});
            ctx.diags.note(d, DiagID::note_tier_decided_by, rm.tier.from.range(),
                           {mods[m].name, ir::tierName(rm.tier.value)});
            continue;
          }
          if (raise.tier > rm.tier.value) {
            rm.tier = {raise.tier, {Decision::TuningRaise, static_cast<int32_t>(r), &s.range}};
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
