// amct-dmq-type: a PTQ override puts dmq_balancer on a layer type without DMQ (AvgPool2d, LSTM,
// GRU). AvgPool2d, LSTM and GRU have no DMQ (reference amct.md §4.1): `dmq_balancer not support for
// <type> type` / `... for <name> layer` (§4.4). In common_config AMCT removes it with a warning
// (§4.6), so only overrides are checked.
#include "lint/rules/amct/AmctUtil.h"

namespace qspec::lint {

void checkAmctDmqType(AmctInput &ctx) {
  amctlint::reportFindings(ctx, RuleID::AmctDmqType, amct::Check::DmqType);
}

} // namespace qspec::lint
