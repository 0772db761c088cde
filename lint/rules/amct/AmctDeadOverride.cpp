// amct-dead-override: a PTQ override that can never apply, because the file also skips what it
// selects: a type override of a type in skip_layer_types, a name override of a layer in
// skip_layers, or (with --inventory, which gives each layer's type) a name override of a layer
// whose type skip_layer_types skips. In PTQ the skip wins (reference amct.md 4.2, "Skip vs
// override"), so the override's recipe is silently never used. In QAT the override wins instead:
// amct-qat-skip-ineffective. The check is the vendor model's (amct::checkDocument,
// amct-dead-override).
#include "lint/rules/amct/AmctUtil.h"

namespace qspec::lint {

void checkAmctDeadOverride(AmctInput &ctx) {
  amctlint::reportFindings(ctx, RuleID::AmctDeadOverride, amct::Check::DeadOverride);
}

} // namespace qspec::lint
