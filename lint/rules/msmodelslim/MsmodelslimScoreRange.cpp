// msmodelslim-score-range: metadata.score is not a number greater than or equal to 0.
// metadata.score is a float >= 0 (`"95"`, ints and `true` coerce): msModelSlim's validator says
// `Value error, Code: 203, Message: score must be greater than or equal to 0, got -1.0`
// (reference 1.2, 6).
// The check is the vendor model's (vendors/msmodelslim checkPractice, `score`).
#include "lint/rules/msmodelslim/PracticeUtil.h"

namespace qspec::lint {

void checkMsmodelslimScoreRange(PracticeInput &ctx) {
  practice::reportVendorIssues(ctx, RuleID::MsmodelslimScoreRange, {msmodelslim::Check::Score});
}

} // namespace qspec::lint
