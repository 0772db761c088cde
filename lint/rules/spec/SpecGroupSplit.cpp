// spec-group-split: a tier assignment splits a same-score or declared group. GroupIntegrityPass
// reports it (err_group_split, with notes); qlint adds a safe fix when the odd tier comes from a
// name override: extend that override to the group members it misses, as the compiler's
// note_extend_to_group suggests.
#include "lint/rules/spec/SpecUtil.h"

#include <set>

namespace qspec::lint {

void checkSpecGroupSplit(SpecInput &ctx) {
  size_t before = ctx.findings.size();
  if (!takeCompilerDiags(ctx, RuleID::SpecGroupSplit, {"err_group_split"}) || !ctx.specResolved)
    return;
  const ir::Spec &spec = *ctx.spec;
  const auto &res = spec.resolution;
  for (size_t i = before; i < ctx.findings.size(); ++i) {
    Diagnostic &d = ctx.findings[i];
    // The finding points at the deciding rule's tier (a name override's `tier` statement).
    const ir::Override *ov = nullptr;
    for (const ir::Override &o : spec.overrides)
      if (o.level == ir::Override::Name && o.settings.tierRange.valid() &&
          o.settings.tierRange.file == d.range.file &&
          o.settings.tierRange.begin.offset == d.range.begin.offset)
        ov = &o;
    if (!ov || ov->selectors.empty())
      continue;
    std::vector<uint32_t> sel = spec::selectedBy(spec, ov->selectors);
    std::set<uint32_t> selSet(sel.begin(), sel.end());
    std::set<uint32_t> missing;
    for (const ir::Group &g : res.groups) {
      bool touches = false;
      for (uint32_t m : g.members)
        touches = touches || selSet.count(m);
      if (!touches)
        continue;
      for (uint32_t m : g.members)
        if (!selSet.count(m) && !res.modules[m].isProtected)
          missing.insert(m);
    }
    if (missing.empty() || missing.size() > 64)
      continue;
    std::string text;
    for (uint32_t m : missing)
      text += ", " + spec::qspecString(escapeGlob(spec.inventory.modules[m].name));
    const SourceRange &last = ov->selectors.back().range;
    FixIt f;
    f.range = ctx.sm.range(last.file, last.end.offset, last.end.offset);
    f.text = text;
    d.fixits.push_back(std::move(f));
  }
}

} // namespace qspec::lint
