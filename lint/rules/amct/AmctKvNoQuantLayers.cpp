// amct-kv-no-quant-layers: a KV-cache config lists no quant_layers.
// AMCT's KV-cache calibration quantizes the layers in `kv_cache_quant_config.quant_layers` and
// refuses a config without one: `No quant enable layer in quant config file, please check the quant
// config file.` (reference amct.md §4.7). The finding is at `kv_cache_quant_config` (or at the
// first override when that block is missing).
#include "lint/rules/amct/AmctUtil.h"

namespace qspec::lint {

void checkAmctKvNoQuantLayers(AmctInput &ctx) {
  amctlint::reportFindings(ctx, RuleID::AmctKvNoQuantLayers, amct::Check::KvNoQuantLayers);
}

} // namespace qspec::lint
