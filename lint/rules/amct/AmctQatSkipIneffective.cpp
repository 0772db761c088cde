// amct-qat-skip-ineffective: a QAT override (by name, or by the type of a known layer) matches a
// skipped layer, which AMCT then retrains anyway. In QAT, unlike PTQ, an override wins over a skip:
// any name override of a layer in `skip_layers` or `quant_skip_layers` (or a type override of its
// type) sets `retrain_enable` back to true (reference amct.md §4.2; checklist §6: no override may
// match a skipped layer). AMCT says nothing. The finding is at the override; a type override is
// judged only when the layer's type is known (an inventory, as qcc has). qcc reports the same
// vendor check as `warn_amct_check` when a config it writes would do this.
#include "lint/rules/amct/AmctUtil.h"

namespace qspec::lint {

void checkAmctQatSkipIneffective(AmctInput &ctx) {
  amctlint::reportFindings(ctx, RuleID::AmctQatSkipIneffective, amct::Check::QatSkipIneffective);
}

} // namespace qspec::lint
