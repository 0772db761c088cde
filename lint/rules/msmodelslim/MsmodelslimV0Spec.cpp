// msmodelslim-v0-spec: a modelslim_v0 practice's spec, calib_cfg or anti_cfg is not a mapping, or
// holds an argument QuantConfig or AntiOutlierConfig refuses. The v0 plugin reads spec's keys with
// dict.get (`task spec must be dict` otherwise) and passes calib_cfg and anti_cfg to QuantConfig
// and AntiOutlierConfig as keyword arguments. The check is the vendor model's (vendors/msmodelslim
// checkPractice, `v0-spec`), the one qcc's read-back and `qcc import` apply.
#include "lint/rules/msmodelslim/PracticeUtil.h"

namespace qspec::lint {

void checkMsmodelslimV0Spec(PracticeInput &ctx) {
  practice::reportVendorIssues(ctx, RuleID::MsmodelslimV0Spec, {msmodelslim::Check::V0Spec});
}

} // namespace qspec::lint
