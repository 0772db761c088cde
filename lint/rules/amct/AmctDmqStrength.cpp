// amct-dmq-strength: a dmq_balancer migration_strength outside [0.2, 0.8].
// DMQ's `migration_strength` says how much quantization difficulty moves from activations to
// weights; AMCT refuses values outside [0.2, 0.8]: `The dmq_balancer_param must be in range [0.2,
// 0.8] in layer <name>` (reference amct.md §2.2, §4.4). The vendor check ID is `amct-dmq`
// (`amct::checkDmqStrength`); DMQ on a layer type without it is `amct-dmq-type`.
#include "lint/rules/amct/AmctUtil.h"

namespace qspec::lint {

void checkAmctDmqStrength(AmctInput &ctx) {
  amctlint::reportFindings(ctx, RuleID::AmctDmqStrength, amct::Check::Dmq);
}

} // namespace qspec::lint
