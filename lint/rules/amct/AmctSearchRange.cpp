// amct-search-range: an IFMR search range or step AMCT refuses (start <= 0, start >= end, step <= 0
// or larger than the range). IFMR's `search_range_start`, `search_range_end` and `search_step`
// (defaults 0.7, 1.3, 0.01 for what a recipe does not write): PTQ needs 0 < start < end and 0 <
// step <= end - start
// (`search_range[0] must be less than search_range[1] in layer <name>`, `The search_step must be
// greater than zero`), KV-cache start < end and step > 0 (`Search range start must smaller than
// search range end`). Reference amct.md §4.4, §4.7; the check is amct::checkIfmrSearch.
#include "lint/rules/amct/AmctUtil.h"

namespace qspec::lint {

void checkAmctSearchRange(AmctInput &ctx) {
  amctlint::reportFindings(ctx, RuleID::AmctSearchRange, amct::Check::SearchRange);
}

} // namespace qspec::lint
