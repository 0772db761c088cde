// amct-skip-fusion: with --inventory (each layer's type), a PTQ skip_fusion_layers entry whose
// layer is not a Conv2d, Conv3d or Conv1d: `Skip fusion layer "X"'s type not in supported list
// ['Conv2d', 'Conv3d', 'Conv1d']` (reference amct.md 4.4). The check is the vendor model's
// (amct::checkDocument, amct-skip-fusion).
#include "lint/rules/amct/AmctUtil.h"

namespace qspec::lint {

void checkAmctSkipFusion(AmctInput &ctx) {
  amctlint::reportFindings(ctx, RuleID::AmctSkipFusion, amct::Check::SkipFusion);
}

} // namespace qspec::lint
