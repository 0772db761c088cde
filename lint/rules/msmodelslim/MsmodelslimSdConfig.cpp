// msmodelslim-sd-config: an SD practice's multimodal_sd_config is not one msModelSlim's SD service
// accepts. `spec.multimodal_sd_config` must be a dict; its `dump_config` takes enable_dump (a
// boolean), capture_mode ('args') and dump_data_dir (a string); `inference_config` is a dict, and
// the service refuses it beside the older `model_config`, which must be a dict too
// (vendors/msmodelslim/MsModelSlimSd.h; reference: msmodelslim.md 2). A missing block or
// dump_config is msmodelslim-missing-field, an unknown dump_config key msmodelslim-extra-key.
// The check is the vendor model's (vendors/msmodelslim checkPractice, `sd-config`).
#include "lint/rules/msmodelslim/PracticeUtil.h"

namespace qspec::lint {

void checkMsmodelslimSdConfig(PracticeInput &ctx) {
  practice::reportVendorIssues(ctx, RuleID::MsmodelslimSdConfig, {msmodelslim::Check::SdConfig});
}

} // namespace qspec::lint
