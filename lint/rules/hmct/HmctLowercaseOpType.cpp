// hmct-lowercase-op-type: op_config is keyed by ONNX op types, which are case-sensitive and
// capitalised (`Softmax`, not `softmax`). A lowercase key probably matches no node. A key whose
// capitalised form is no ONNX op type either (`linear`) is hmct-op-type-unknown's.
#include "ir/OnnxNames.h"
#include "lint/rules/hmct/QuantConfigUtil.h"

namespace qspec::lint {

void checkHmctLowercaseOpType(QuantConfigInput &ctx) {
  if (!ctx.tree || !ctx.tree->isMap())
    return;
  const LNode *ops = ctx.tree->get("op_config");
  if (!ops || !ops->isMap())
    return;
  for (const auto &[k, v] : ops->map) {
    if (k.value.empty() || !islower(static_cast<unsigned char>(k.value[0])))
      continue;
    std::string cap = k.value;
    cap[0] = static_cast<char>(toupper(static_cast<unsigned char>(cap[0])));
    if (!ir::isOnnxOpType(cap))
      continue;
    ctx.report(RuleID::HmctLowercaseOpType, k.range,
               "op type '" + k.value +
                   "' is not capitalised; ONNX op types are case-sensitive (did you mean '" + cap +
                   "'?)");
  }
}

} // namespace qspec::lint
