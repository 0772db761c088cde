// msmodelslim-subgraph-type: a smoothing processor's enable_subgraph_type (iter_smooth,
// flex_smooth_quant, flex_awq_ssz, awq) is not a list of norm-linear, linear-linear, ov and
// up-down. msModelSlim checks it only when the smoothing runs (reference msmodelslim.md 4:
// `Elements in enable_subgraph_type must be in [...], current element: X`), after the model is
// loaded. The check is the vendor model's (checkPractice, `subgraph-type`).
#include "lint/rules/msmodelslim/PracticeUtil.h"

namespace qspec::lint {

void checkMsmodelslimSubgraphType(PracticeInput &ctx) {
  practice::reportVendorIssues(ctx, RuleID::MsmodelslimSubgraphType,
                               {msmodelslim::Check::SubgraphType});
}

} // namespace qspec::lint
