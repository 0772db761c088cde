// msmodelslim-label-not-dict: `metadata.label` must be a mapping (w_bit, a_bit, is_sparse,
// kv_cache, ...), never a string. msModelSlim: `metadata.label / Input should be a valid
// dictionary` (Code 203).
#include "lint/Context.h"

namespace qspec::lint {

void checkMsmodelslimLabelNotDict(PracticeInput &ctx) {
  if (!ctx.tree)
    return;
  const LNode *meta = ctx.tree->get("metadata");
  const LNode *label = meta ? meta->get("label") : nullptr;
  if (!label || label->isMap())
    return;
  ctx.report(RuleID::MsmodelslimLabelNotDict, label->range,
             "metadata.label must be a mapping such as {w_bit: 8, a_bit: 8} (msModelSlim: "
             "'metadata.label: Input "
             "should be a valid dictionary')");
}

} // namespace qspec::lint
