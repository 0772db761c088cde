// spec-duplicate-protect: the same selector (same pattern text, or the same `type`) is protected
// twice. The safe fix drops the repeat: the item from its list, or the whole `protect`
// statement when it was the only item.
#include "lint/rules/spec/SpecUtil.h"

#include <map>

namespace qspec::lint {

void checkSpecDuplicateProtect(SpecInput &ctx) {
  if (!ctx.specBuilt)
    return;
  const ir::Spec &spec = *ctx.spec;
  std::map<std::pair<int, std::string>, size_t> seen;
  for (size_t i = 0; i < spec.protects.size(); ++i) {
    const ir::Protect &p = spec.protects[i];
    auto [it, inserted] =
        seen.emplace(std::make_pair(static_cast<int>(p.selector.kind), p.selector.text), i);
    if (inserted)
      continue;
    const ir::Protect &orig = spec.protects[it->second];
    Diagnostic &d =
        ctx.report(RuleID::SpecDuplicateProtect, p.selector.range,
                   std::string(p.selector.kind == ir::Selector::Type ? "type '" : "pattern '") +
                       p.selector.text + "' is already protected");
    ctx.note(d, orig.selector.range, "first protected here");
    if (p.selector.range.file != ctx.file)
      continue;
    // Items of the same statement share its range.
    std::vector<size_t> same;
    for (size_t j = 0; j < spec.protects.size(); ++j)
      if (spec.protects[j].range.begin.offset == p.range.begin.offset &&
          spec.protects[j].range.file == p.range.file)
        same.push_back(j);
    FixIt f;
    if (same.size() == 1) {
      f.range = spec::statementDeletion(ctx, p.range.begin.offset, p.range.end.offset);
    } else {
      size_t pos = std::find(same.begin(), same.end(), i) - same.begin();
      if (pos > 0) // delete from the end of the previous item: `, "x"`
        f.range = ctx.sm.range(ctx.file, spec.protects[same[pos - 1]].selector.range.end.offset,
                               p.selector.range.end.offset);
      else // first item: delete `"x", `
        f.range = ctx.sm.range(ctx.file, p.selector.range.begin.offset,
                               spec.protects[same[1]].selector.range.begin.offset);
    }
    d.fixits.push_back(std::move(f));
  }
}

} // namespace qspec::lint
