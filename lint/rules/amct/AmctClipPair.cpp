// amct-clip-pair: a QAT `clip_max_min` block must give both bounds, with clip_max > 0 and
// clip_min < 0. AMCT: `clip_max and clip_min are both required.`, `clip max should be larger
// than 0 for layer <name>`, `clip min should be less than 0 for layer <name>` (the wording comes
// from amct::checkClip).
#include "lint/rules/amct/AmctUtil.h"

namespace qspec::lint {

void checkAmctClipPair(LintContext &ctx) { amctlint::reportFindings(ctx, RuleID::AmctClipPair, {"amct-clip"}); }

} // namespace qspec::lint
