// msmodelslim-processor-range: a processor's numeric parameter is outside the range msModelSlim
// accepts (alpha, beta, scale_min, block_size, max_tp_size, sparse_ratio, rank, iters,
// smooth_factor, stage). Processor parameters against the ranges of reference 4: smooth
// `alpha`/`beta`/`scale_min` in the open interval (0, 1), `sparse_ratio` in [0, 1], `rank`, `iters`
// and `smooth_factor` > 0, quarot `block_size` -1 or a power of 2 (`block_size must be -1 or a
// positive power of 2, got 48`), `max_tp_size` a power of 2, adapt_rotation `stage` 1 or 2. The
// check is the vendor model's (vendors/msmodelslim checkPractice, `processor-range`).
#include "lint/rules/msmodelslim/PracticeUtil.h"

namespace qspec::lint {

void checkMsmodelslimProcessorRange(PracticeInput &ctx) {
  practice::reportVendorIssues(ctx, RuleID::MsmodelslimProcessorRange,
                               {msmodelslim::Check::ProcessorRange});
}

} // namespace qspec::lint
