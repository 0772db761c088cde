// amct-layer-name: a PTQ override names a layer like one of AMCT's global parameters (batch_num,
// do_fusion, ...). AMCT's generated per-layer JSON keeps its global parameters at the same level as
// the layers, so a layer may not be called `version`, `batch_num`, `activation_offset`,
// `do_fusion`, `fakequant_precision_mode`, `skip_fusion_layers` or `joint_quant`: `<name> is a
// global parameter, can not be a layer name` (reference amct.md §4.4, §5). The check is
// `amct::checkLayerName`.
#include "lint/rules/amct/AmctUtil.h"

namespace qspec::lint {

void checkAmctLayerName(AmctInput &ctx) {
  amctlint::reportFindings(ctx, RuleID::AmctLayerName, amct::Check::LayerName);
}

} // namespace qspec::lint
