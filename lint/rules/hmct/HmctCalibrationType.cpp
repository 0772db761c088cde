// hmct-calibration-type: model_config.activation.calibration_type (a string, or a list HMCT
// searches) holds a value HMCT does not know: max, kl, load, fixed, default, mix (and the
// unconfirmed min-max, percentile). The vendor model's check (hmct::checkQuantConfig,
// calibration-type); reference horizon.md 1.3.
#include "lint/rules/hmct/QuantConfigUtil.h"

namespace qspec::lint {

void checkHmctCalibrationType(QuantConfigInput &ctx) {
  quantconfig::reportIssues(ctx, RuleID::HmctCalibrationType, hmct::Check::CalibrationType);
}

} // namespace qspec::lint
