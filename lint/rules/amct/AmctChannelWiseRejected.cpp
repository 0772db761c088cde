// amct-channel-wise-rejected: `channel_wise: true` on a layer type that rejects it (Linear,
// AvgPool2d in PTQ; Linear, MatMul, InnerProduct, Pooling, AvgPool in QAT). Without an inventory
// only type overrides can be checked. AMCT: `channel_wise can only be False for <type> type`,
// `' <name> layer can not be channewised'` (amct::checkChannelWise).
#include "lint/rules/amct/AmctUtil.h"

namespace qspec::lint {

void checkAmctChannelWiseRejected(AmctInput &ctx) {
  amctlint::reportFindings(ctx, RuleID::AmctChannelWiseRejected, amct::Check::ChannelWise);
}

} // namespace qspec::lint
