// amct-ada-type: a PTQ override puts ada_quantize on a layer type other than Conv2d,
// ConvTranspose2d or Linear. ADA (AdaRound) covers Conv2d, ConvTranspose2d and Linear (reference
// amct.md §4.1): `ada_quantizable not support for <type> layer` (§4.4). In common_config AMCT drops
// it silently (§4.6), so only overrides are checked.
#include "lint/rules/amct/AmctUtil.h"

namespace qspec::lint {

void checkAmctAdaType(AmctInput &ctx) {
  amctlint::reportFindings(ctx, RuleID::AmctAdaType, amct::Check::AdaType);
}

} // namespace qspec::lint
