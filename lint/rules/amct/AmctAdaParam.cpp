// amct-ada-param: an ada_quantize parameter AMCT refuses (beta_range_start not above
// beta_range_end, warm_start or reg_param outside (0, 1)). PTQ `ada_quantize`: `beta_range
// beta_range_start must large than beta_range_end in layer <name>`, `warm_start must be less than 1
// and larger than 0`, `reg_param must be less than 1 and larger than 0` (reference amct.md §4.4;
// defaults 20, 2, 0.2, 0.01 for what is not written). The check is amct::checkAda.
#include "lint/rules/amct/AmctUtil.h"

namespace qspec::lint {

void checkAmctAdaParam(AmctInput &ctx) {
  amctlint::reportFindings(ctx, RuleID::AmctAdaParam, amct::Check::Ada);
}

} // namespace qspec::lint
