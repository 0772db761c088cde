// amct-percentile: an IFMR max_percentile outside (0.5, 1].
// PTQ IFMR `max_percentile` must be in (0.5, 1.0]: `The max_percentile must be greater than 0.5
// and less than or equal to 1.0 in layer <name>` (reference amct.md §4.4; min_percentile's rule
// is marked unconfirmed there and is not checked). The check is amct::checkMaxPercentile.
#include "lint/rules/amct/AmctUtil.h"

namespace qspec::lint {

void checkAmctPercentile(AmctInput &ctx) {
  amctlint::reportFindings(ctx, RuleID::AmctPercentile, amct::Check::Percentile);
}

} // namespace qspec::lint
