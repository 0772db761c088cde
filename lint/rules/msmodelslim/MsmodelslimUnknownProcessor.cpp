// msmodelslim-unknown-processor: an entry of spec.process (or spec.prior[].process, or a
// `group`'s configs) has no `type` or an unknown one. msModelSlim: `spec.process.0.type / Input
// tag 'X' found using 'type' does not match any of the expected tags` (with the closest tag as a
// did-you-mean) or `Unable to extract tag using discriminator 'type'`. modelslim_v0 practices
// have no processors and are skipped. The check is the vendor model's (checkPractice,
// `processor`).
#include "lint/rules/msmodelslim/PracticeUtil.h"

namespace qspec::lint {

void checkMsmodelslimUnknownProcessor(PracticeInput &ctx) {
  practice::reportVendorIssues(ctx, RuleID::MsmodelslimUnknownProcessor,
                               {msmodelslim::Check::Processor});
}

} // namespace qspec::lint
