// hmct-op-type-unknown: an op_config key that is not a standard ONNX op type (ir/OnnxOpTypes.def).
// HMCT applies op_config to every node whose ONNX op type equals the key (reference horizon.md
// 1.1) and says nothing about a key no node has, so `op_config.Linear` (a PyTorch class) or
// `op_config./head/Softmax` (a node name) sets nothing while looking like a setting. A lowercase
// key whose capitalised form is an op type is hmct-lowercase-op-type's. The vendor model's check
// (hmct::checkQuantConfig, op-type-unknown), the same predicate qcc's target-names pass applies to
// type rules.
#include "lint/rules/hmct/QuantConfigUtil.h"

namespace qspec::lint {

void checkHmctOpTypeUnknown(QuantConfigInput &ctx) {
  quantconfig::reportIssues(ctx, RuleID::HmctOpTypeUnknown, hmct::Check::OpTypeUnknown);
}

} // namespace qspec::lint
