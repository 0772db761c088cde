// amct-conv3d-asymmetric: a PTQ override sets asymmetric activations on a Conv3d layer or type.
// Conv3d is symmetric-only (reference amct.md §4.1): `Layer type <type> can only set asymmetric be
// False ` or `Layer <name> can only set asymmetric be False ` (§4.4, trailing space verbatim). In
// common_config AMCT silently forces symmetric instead (§4.6), so only overrides are checked; a
// name override needs the layer's type (an inventory).
#include "lint/rules/amct/AmctUtil.h"

namespace qspec::lint {

void checkAmctConv3dAsymmetric(AmctInput &ctx) {
  amctlint::reportFindings(ctx, RuleID::AmctConv3dAsymmetric, amct::Check::Conv3dAsymmetric);
}

} // namespace qspec::lint
