// amct-qat-dtype-pair: the QAT activation/weight dst_type pair of the global recipe or an
// override is not supported (A8W8, A16W8, and A8W4 from 9.2; no INT4 activations). AMCT:
// `Activation and weights data_type are not supported for now. ...` or `Int4 quantization aware
// training is not supported.` (amct::checkQatPair).
#include "lint/rules/amct/AmctUtil.h"

namespace qspec::lint {

void checkAmctQatDtypePair(AmctInput &ctx) {
  amctlint::reportFindings(ctx, RuleID::AmctQatDtypePair, amct::Check::QatPair);
}

} // namespace qspec::lint
