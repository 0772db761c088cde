// amct-batch-num: batch_num is 0 or larger than a uint32.
// AMCT refuses a calibration or training run without batches: PTQ `The batch_num must be greater
// than zero.`, QAT `batch_num(0) should be greater than zero.`, KV-cache `batch_num(0) should be
// greater than zero` (reference amct.md §4.4, §4.5, §4.7). A negative value does not parse
// (`batch_num` is a `uint32`), which is `amct-parse-error`. The finding is at the `batch_num` line.
// The check is `amct::checkBatchNum`.
#include "lint/rules/amct/AmctUtil.h"

namespace qspec::lint {

void checkAmctBatchNum(AmctInput &ctx) {
  amctlint::reportFindings(ctx, RuleID::AmctBatchNum, amct::Check::BatchNum);
}

} // namespace qspec::lint
