// amct-unsupported-type: a skip_layer_types or override_layer_types entry is a type AMCT does not
// quantize (needs --amct-framework=pytorch or onnx). AMCT for PyTorch (and ONNX, whose op types map
// onto the same capacity tables) refuses a skip or override type it cannot quantize in the config's
// mode: `Layer type <type> does not support quantize.` (reference amct.md §4.1, §4.4; QAT: `some
// skip_layer_types not supported`, `some override layers types not supported for quant`, §4.5). The
// types AMCT quantizes depend on the version (§2.5; qlint assumes the newest). The type names are
// PyTorch class names or ONNX op types only when the config is for those frameworks, so the rule
// runs only with
// `--amct-framework=pytorch` or `--amct-framework=onnx`; without it qlint cannot tell a TensorFlow
// `Conv2D` from a typo. qcc always checks (its configs are for AMCT for PyTorch) and reports
// `err_amct_check`.
#include "lint/rules/amct/AmctUtil.h"

namespace qspec::lint {

void checkAmctUnsupportedType(AmctInput &ctx) {
  amctlint::reportFindings(ctx, RuleID::AmctUnsupportedType, amct::Check::UnsupportedType);
}

} // namespace qspec::lint
