// msmodelslim-part-file-size: a saver's part_file_size is not an integer greater than or equal to
// 0. A saver's `part_file_size` is an int (GB) >= 0 (reference 2, 6: `part_file_size must be
// greater than or equal to 0, got -1`).
// The check is the vendor model's (vendors/msmodelslim checkPractice, `part-file-size`).
#include "lint/rules/msmodelslim/PracticeUtil.h"

namespace qspec::lint {

void checkMsmodelslimPartFileSize(PracticeInput &ctx) {
  practice::reportVendorIssues(ctx, RuleID::MsmodelslimPartFileSize,
                               {msmodelslim::Check::PartFileSize});
}

} // namespace qspec::lint
