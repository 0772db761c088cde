// amct-prune-ratio: a filter prune_ratio outside (0, 1).
// `balanced_l2_norm_filter_prune.prune_ratio` is the fraction of filters removed; AMCT refuses
// values outside (0, 1) with `prune ration should be greater than 0 and less than 1 for layer
// <name>` (AMCT's typo; reference amct.md §4.5). For the global `prune_config` the message names
// the layers it stands for. A missing `prune_ratio` fails the strict parse (`required`), which is
// `amct-parse-error`. The check is `amct::checkPruneRatio`.
#include "lint/rules/amct/AmctUtil.h"

namespace qspec::lint {

void checkAmctPruneRatio(AmctInput &ctx) {
  amctlint::reportFindings(ctx, RuleID::AmctPruneRatio, amct::Check::PruneRatio);
}

} // namespace qspec::lint
