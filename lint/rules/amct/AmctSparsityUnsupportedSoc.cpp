// amct-sparsity-unsupported-soc: `n_out_of_m_pruner` (4:2 structured sparsity) is unsupported on
// Ascend 950PR/950DT "due to hardware constraints" (AMCT's QAT docs); AMCT itself does not
// check it. The chip comes from --amct-hardware or `amct-hardware:` in .qlint.yaml; without it
// the rule does nothing.
#include "lint/rules/amct/AmctUtil.h"

namespace qspec::lint {

void checkAmctSparsityUnsupportedSoc(AmctInput &ctx) {
  if (ctx.opts.amctHardware.empty())
    return;
  amctlint::reportFindings(ctx, RuleID::AmctSparsityUnsupportedSoc, amct::Check::HardwareSparsity);
}

} // namespace qspec::lint
