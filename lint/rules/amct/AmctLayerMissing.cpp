// amct-layer-missing: with --inventory (the model's layers), a layer a config names that the
// graph does not have: PTQ skip_layers, skip_fusion_layers and override_layer_configs names
// (`Layer <name> does not exist in the graph.`), QAT skip lists and override names (`some
// skip_layers not in valid_layers`, `some override_layer not in valid_layers for quant`;
// reference amct.md 4.4, 4.5). AMCT refuses the file only after loading the model. The check is
// the vendor model's (amct::checkDocument, amct-layer-missing), which qcc runs with the spec's
// inventory.
#include "lint/rules/amct/AmctUtil.h"

namespace qspec::lint {

void checkAmctLayerMissing(AmctInput &ctx) {
  amctlint::reportFindings(ctx, RuleID::AmctLayerMissing, amct::Check::LayerMissing);
}

} // namespace qspec::lint
