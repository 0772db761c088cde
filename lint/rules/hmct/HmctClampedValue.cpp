// hmct-clamped-value: an activation value HMCT silently raises (horizon.md 1.3): num_bin below
// 129 (to 129, with a warning), max_num_bin below 258 (to max(258, num_bin)), max_percentile
// below 0.5 (to 0.5). The file loads, but calibrates with another value than it says. The vendor
// model's check (hmct::checkQuantConfig, clamped-value).
#include "lint/rules/hmct/QuantConfigUtil.h"

namespace qspec::lint {

void checkHmctClampedValue(QuantConfigInput &ctx) {
  quantconfig::reportIssues(ctx, RuleID::HmctClampedValue, hmct::Check::ClampedValue);
}

} // namespace qspec::lint
