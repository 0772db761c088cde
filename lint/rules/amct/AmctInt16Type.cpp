// amct-int16-type: INT16 activations (dst_type: INT16) on a layer type AMCT cannot run in INT16.
// AMCT runs INT16 activations on Conv2d, Linear and ConvTranspose2d (9.1.0: + Conv1d,
// ConvTranspose1d; 9.2: + GRU, LSTM), never on Conv3d or AvgPool2d: `int16_quantizable not support
// for <type> type`, `int16_quantizable not support for <name> layer` (reference amct.md §2.5,
// §4.4). The check is `amct::checkInt16Type`; qcc's reader also refuses INT16 on a Linear without
// bias.
#include "lint/rules/amct/AmctUtil.h"

namespace qspec::lint {

void checkAmctInt16Type(AmctInput &ctx) {
  amctlint::reportFindings(ctx, RuleID::AmctInt16Type, amct::Check::Int16Type);
}

} // namespace qspec::lint
