// msmodelslim-unknown-runner: spec.runner is not auto, model_wise, layer_wise or dp_layer_wise.
// spec.runner is one of `auto`, `model_wise`, `layer_wise`, `dp_layer_wise` (reference 2); the
// message is pydantic's enum error, with the closest runner.
// The check is the vendor model's (vendors/msmodelslim checkPractice, `runner`).
#include "lint/rules/msmodelslim/PracticeUtil.h"

namespace qspec::lint {

void checkMsmodelslimUnknownRunner(PracticeInput &ctx) {
  practice::reportVendorIssues(ctx, RuleID::MsmodelslimUnknownRunner, {msmodelslim::Check::Runner});
}

} // namespace qspec::lint
