// spec-override-shadowed: an override none of whose settings survives on any module it selects,
// because for each (module, setting) pair a more specific override (a name override over a type
// override, or a higher priority at the same level) decided the value.
//
// 1. Needs the resolution (an inventory). Overrides selecting nothing are
//    spec-pattern-matches-nothing's business.
// 2. For every module the override selects and every field it sets, look up the Decision of
//    the resolved value. If one comes from this override, it is not shadowed. If one comes from
//    protect or the tuning state, say nothing (other rules cover those).
// 3. Otherwise report it, with notes at the overrides that won (at most three).
#include "lint/rules/spec/SpecUtil.h"

#include <map>

namespace qspec::lint {

namespace {

struct FieldRef {
  bool set;
  const ir::Decision *from;
};

std::vector<FieldRef> fields(const ir::Settings &s, const ir::ResolvedModule &m) {
  return {{s.tier.has_value(), &m.tier.from},
          {s.weight.dtype.has_value(), &m.weight.dtype.from},
          {s.weight.scope.has_value(), &m.weight.scope.from},
          {s.weight.symmetric.has_value(), &m.weight.symmetric.from},
          {s.weight.method.has_value(), &m.weight.method.from},
          {s.act.dtype.has_value(), &m.act.dtype.from},
          {s.act.scope.has_value(), &m.act.scope.from},
          {s.act.symmetric.has_value(), &m.act.symmetric.from},
          {s.act.method.has_value(), &m.act.method.from}};
}

} // namespace

void checkSpecOverrideShadowed(SpecInput &ctx) {
  if (!ctx.specResolved)
    return;
  const ir::Spec &spec = *ctx.spec;
  for (size_t o = 0; o < spec.overrides.size(); ++o) {
    const ir::Override &ov = spec.overrides[o];
    std::vector<uint32_t> mods = spec::selectedBy(spec, ov.selectors);
    if (mods.empty())
      continue;
    bool anySet = false, alive = false, other = false;
    std::map<int32_t, unsigned> winners;
    for (uint32_t m : mods) {
      for (const FieldRef &f : fields(ov.settings, spec.resolution.modules[m])) {
        if (!f.set)
          continue;
        anySet = true;
        ir::Decision::Source src = f.from->source;
        bool isOverride = src == ir::Decision::TypeOverride || src == ir::Decision::NameOverride;
        if (isOverride && f.from->index == static_cast<int32_t>(o))
          alive = true;
        else if (isOverride)
          ++winners[f.from->index];
        else
          other = true;
      }
      if (alive || other)
        break;
    }
    if (!anySet || alive || other || winners.empty())
      continue;
    Diagnostic &d = ctx.report(
        RuleID::SpecOverrideShadowed, ov.subjectRange,
        "override is fully shadowed: on each of the " + std::to_string(mods.size()) +
            (mods.size() == 1 ? " module" : " modules") +
            " it selects, every setting it gives is decided by a more specific override");
    unsigned shown = 0;
    for (const auto &[idx, n] : winners) {
      if (shown++ == 3)
        break;
      ctx.note(d, spec.overrides[static_cast<size_t>(idx)].subjectRange,
               "shadowed by this override");
    }
  }
}

} // namespace qspec::lint
