// amct-clip-pair: a QAT `clip_max_min` block must give both bounds, with clip_max > 0 and
// clip_min < 0. AMCT: `clip_max and clip_min are both required.`, `clip max should be larger
// than 0 for layer <name>`, `clip min should be less than 0 for layer <name>` (the wording comes
// from amct::checkClip). A missing bound fails the strict parse (both are `required` in
// ClipMaxMin); that error is reported here with AMCT's wording, at the clip_max_min block.
#include "lint/rules/amct/AmctUtil.h"

namespace qspec::lint {

void checkAmctClipPair(AmctInput &ctx) {
  if (!ctx.amctParsed) {
    for (const auto &e : ctx.amctErrors)
      if (amctlint::isClipPairError(e.message)) {
        ctx.report(RuleID::AmctClipPair, amctlint::errorRange(ctx, e),
                   "clip_max and clip_min are both required.");
        break;
      }
    return;
  }
  amctlint::reportFindings(ctx, RuleID::AmctClipPair, amct::Check::Clip);
}

} // namespace qspec::lint
