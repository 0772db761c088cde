// amct-kv-no-quant-layers: a KV-cache config lists no quant_layers and no override entry.
// AMCT's KV-cache calibration quantizes `kv_cache_quant_config.quant_layers` merged with the
// layers of the override_layers_configs entries, and refuses a config where both are empty: `No
// quant enable layer in quant config file, please check the quant config file.` (reference
// amct.md §4.7). The finding is at `kv_cache_quant_config`.
#include "lint/rules/amct/AmctUtil.h"

namespace qspec::lint {

void checkAmctKvNoQuantLayers(AmctInput &ctx) {
  amctlint::reportFindings(ctx, RuleID::AmctKvNoQuantLayers, amct::Check::KvNoQuantLayers);
}

} // namespace qspec::lint
