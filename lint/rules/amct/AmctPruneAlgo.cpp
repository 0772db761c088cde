// amct-prune-algo: a QAT pruner block without its algorithm (balanced_l2_norm_filter_prune,
// l1_selective_prune). `filter_pruner` and `n_out_of_m_pruner` each have exactly one algorithm, and
// AMCT requires it: `only balanced_l2_norm_filter_prune is support,  but
// balanced_l2_norm_filter_prune is not found.` and `only l1_selective_prune is support,  but
// l1_selective_prune is not found.` (two spaces, AMCT's text; reference amct.md §4.5). The check is
// part of `amct::checkDocument`.
#include "lint/rules/amct/AmctUtil.h"

namespace qspec::lint {

void checkAmctPruneAlgo(AmctInput &ctx) {
  amctlint::reportFindings(ctx, RuleID::AmctPruneAlgo, amct::Check::PruneAlgo);
}

} // namespace qspec::lint
