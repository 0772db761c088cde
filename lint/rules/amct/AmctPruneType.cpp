// amct-prune-type: a QAT override prunes a layer type its pruner cannot prune (filter: Conv2d,
// Linear; 4:2: Conv2d, Linear, ConvTranspose2d). AMCT's filter pruner works on Conv2d and Linear,
// its 4:2 selective pruner on Conv2d, Linear and ConvTranspose2d (reference amct.md §4.1); an
// override of another type is refused: `some override_types not supported for filter prune`, `some
// override_types not supported for selective prune`, and for a layer `some override_layer not in
// valid_layers for filter prune` (§4.5; qlint adds the type in parentheses). A PyTorch (or ONNX)
// type name is always judged; other names, such as the lowercase `"conv"` of AMCT's own test file
// `net_001_prune_unsupport_type.cfg`, only with
// `--amct-framework=pytorch` or `onnx`, since TensorFlow and Caffe name their types differently. A
// layer override is judged when the layer's type is known (qcc's inventory).
#include "lint/rules/amct/AmctUtil.h"

namespace qspec::lint {

void checkAmctPruneType(AmctInput &ctx) {
  amctlint::reportFindings(ctx, RuleID::AmctPruneType, amct::Check::PruneType);
}

} // namespace qspec::lint
