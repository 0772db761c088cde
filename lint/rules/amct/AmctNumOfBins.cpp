// amct-num-of-bins: an HFMG num_of_bins other than 1024, 2048, 4096 or 8192.
// HFMG's histogram has 1024, 2048, 4096 or 8192 bins: `num_of_bins <n> must be in [1024, 2048,
// 4096, 8192] in layer <name>` (reference amct.md §2.2, §4.4). The check is `amct::checkNumOfBins`.
#include "lint/rules/amct/AmctUtil.h"

namespace qspec::lint {

void checkAmctNumOfBins(AmctInput &ctx) {
  amctlint::reportFindings(ctx, RuleID::AmctNumOfBins, amct::Check::NumOfBins);
}

} // namespace qspec::lint
