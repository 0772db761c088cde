// amct-prune-only-override: a QAT override with only prune_config in a file that also quantizes:
// AMCT resets that layer's quantization to its defaults. AMCT counts an override with only
// `prune_config` as a quant override too (reference amct.md §4.2): the layer's quantization is
// replaced, never merged, so it gets AMCT's built-in recipe (INT8 ULQ activations without clip,
// INT8 ARQ weights) instead of the global `retrain_*_quant_config`, and `retrain_enable` is true
// even if the layer is skipped. AMCT says nothing. The checklist (§6) asks to flag these on
// quantized layers; a prune-only file (no quant recipe anywhere) is not flagged.
#include "lint/rules/amct/AmctUtil.h"

namespace qspec::lint {

void checkAmctPruneOnlyOverride(AmctInput &ctx) {
  amctlint::reportFindings(ctx, RuleID::AmctPruneOnlyOverride, amct::Check::PruneOnlyOverride);
}

} // namespace qspec::lint
