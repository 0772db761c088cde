// amct-quant-bits: a PTQ quant_bits outside {4, 6, 7, 8}, or 6/7 bits on a layer type other than
// Conv2d. ARQ weight bits are 4, 6, 7 or 8, and 6/7 bits only on Conv2d: `weight num_bits is not in
// [4, 6, 7, 8] in layer <name>`, `quant_bits <n> not support for <type> type`, `quant_bits <n> not
// support for <name> layer` (reference amct.md §2.2, §4.4). In `common_config` AMCT silently sets 8
// bits on other types (§4.6), so the type check is on overrides. The check is
// `amct::checkQuantBits`.
#include "lint/rules/amct/AmctUtil.h"

namespace qspec::lint {

void checkAmctQuantBits(AmctInput &ctx) {
  amctlint::reportFindings(ctx, RuleID::AmctQuantBits, amct::Check::QuantBits);
}

} // namespace qspec::lint
