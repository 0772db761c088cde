// msmodelslim-unknown-saver: a spec.save entry's `type` is not a saver of the practice's
// apiversion (modelslim_v1: ascendv1_saver, mindie_format_saver, compressed_tensors; VLM/SD also
// ascendv1_saver_distributed, and processors before the last item), or a saver sits in
// spec.process. msModelSlim: `spec.save.N.type / Input tag 'X' found using 'type' does not match
// any of the expected tags: ...`. The check is the vendor model's (checkPractice, `saver`).
#include "lint/rules/msmodelslim/PracticeUtil.h"

namespace qspec::lint {

void checkMsmodelslimUnknownSaver(PracticeInput &ctx) {
  practice::reportVendorIssues(ctx, RuleID::MsmodelslimUnknownSaver, {msmodelslim::Check::Saver});
}

} // namespace qspec::lint
