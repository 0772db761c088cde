// TargetCapabilityPass: every target can express the tier each module ends with.
//
// 1. For each target the spec names, ask its TargetInfo (registered by the emitter) whether it
//    can express tier T on a module of type Y.
// 2. With an inventory, check every module; report the first module of each (tier, type) pair
//    that fails, with a note at the rule that decided its tier. Never substitute a tier.
// 3. Without one, check the tiers the spec's rules ask for on unknown types ("" type).
#include "passes/Pass.h"

#include "ir/TargetInfo.h"

#include <set>

namespace qspec::passes {
namespace {

class TargetCapabilityPass : public Pass {
public:
  const char *name() const override { return "target-capabilities"; }

  bool run(PassContext &ctx) override {
    ir::Spec &spec = ctx.spec;
    bool ok = true;
    // Each (tier, type) pair needs checking once, at its first module: find those in one pass
    // (neighbouring modules usually repeat the last pair).
    const auto &mods = spec.inventory.modules;
    std::vector<size_t> firstOfPair;
    if (spec.resolution.done) {
      std::set<std::pair<ir::Tier, std::string_view>> seen;
      std::pair<ir::Tier, std::string_view> last;
      for (size_t m = 0; m < mods.size(); ++m) {
        std::pair<ir::Tier, std::string_view> key{spec.resolution.modules[m].tier.value,
                                                  mods[m].type};
        bool repeat = m > 0 && key == last;
        last = key;
        if (!repeat && seen.insert(key).second)
          firstOfPair.push_back(m);
      }
    }
    for (const ir::Target &t : spec.targets) {
      const ir::TargetInfo *info = ir::findTarget(t.kind);
      if (!info || !info->canExpress)
        continue;
      std::string label = t.kind + (t.variant.empty() ? "" : " " + t.variant);
      if (spec.resolution.done) {
        for (size_t m : firstOfPair) {
          const ir::ResolvedModule &rm = spec.resolution.modules[m];
          std::string why;
          if (info->canExpress(t, rm.tier.value, mods[m].type, why))
            continue;
          Diagnostic &d = ctx.diags.report(
              DiagID::err_tier_not_expressible,
              rm.tier.from.range().valid() ? rm.tier.from.range() : t.range,
              {label + (why.empty() ? "" : " (" + why + ")"), ir::tierName(rm.tier.value),
               mods[m].name, mods[m].type.empty() ? "unknown" : mods[m].type});
          if (rm.tier.from.range().valid())
            ctx.diags.note(d, DiagID::note_tier_decided_by, rm.tier.from.range(),
                           {mods[m].name, ir::tierName(rm.tier.value)});
          ok = false;
        }
        continue;
      }
      // No inventory: the tiers the rules ask for.
      auto check = [&](ir::Tier tier, SourceRange at, const std::string &what) {
        std::string why;
        if (info->canExpress(t, tier, "", why))
          return;
        ctx.diags.report(DiagID::err_tier_not_expressible_pattern, at,
                         {label + (why.empty() ? "" : " (" + why + ")"), ir::tierName(tier), what});
        ok = false;
      };
      // The default tier comes from `defaults { tier }` or the ladder; point at whichever.
      check(spec.defaultTier(),
            spec.defaults.tierRange.valid() ? spec.defaults.tierRange
            : spec.ladderRange.valid()      ? spec.ladderRange
                                            : t.range,
            "the default tier");
      for (const ir::Override &o : spec.overrides)
        if (o.settings.tier)
          check(*o.settings.tier, o.settings.tierRange,
                o.selectors.empty() ? "" : o.selectors.front().text);
      for (const ir::TuningRaise &r : spec.tune.raises)
        check(r.tier, r.range, r.selectors.empty() ? "" : r.selectors.front().text);
    }
    return ok;
  }
};

} // namespace

std::unique_ptr<Pass> createTargetCapabilityPass() {
  return std::make_unique<TargetCapabilityPass>();
}

} // namespace qspec::passes
