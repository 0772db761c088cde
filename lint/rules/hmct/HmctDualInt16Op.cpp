// hmct-dual-int16-op: `dual-int16` and `int16-ec` exist only for Conv, MatMul, Gemm and
// ConvTranspose (hmct::isDualInt16OpType). In op_config the key is the op type; in node_config
// the op type is read from the node name's last component (`/blocks.0/attn/Softmax_3` ->
// Softmax) when it is a capitalised word, and `all_node_type` may never be dual-int16.
#include "lint/rules/hmct/QuantConfigUtil.h"

namespace qspec::lint {

namespace {

std::string opFromNodeName(const std::string &name) {
  size_t slash = name.rfind('/');
  std::string last = slash == std::string::npos ? name : name.substr(slash + 1);
  size_t us = last.rfind('_');
  if (us != std::string::npos && us + 1 < last.size() &&
      last.find_first_not_of("0123456789", us + 1) == std::string::npos)
    last = last.substr(0, us);
  if (last.empty() || !isupper(static_cast<unsigned char>(last[0])))
    return "";
  for (char c : last)
    if (!isalnum(static_cast<unsigned char>(c)))
      return "";
  return last;
}

bool isDual(const LNode &v) {
  return v.isScalar() && (v.value == "dual-int16" || v.value == "int16-ec");
}

} // namespace

void checkHmctDualInt16Op(QuantConfigInput &ctx) {
  if (!ctx.tree || !ctx.tree->isMap())
    return;
  if (const LNode *mc = ctx.tree->get("model_config"); mc && mc->isMap())
    if (const LNode *v = mc->get("all_node_type"); v && isDual(*v))
      ctx.report(RuleID::HmctDualInt16Op, v->range,
                 "'" + v->value +
                     "' as all_node_type would apply to every op; it exists only for Conv, MatMul, "
                     "Gemm and ConvTranspose");
  quantconfig::forEachEntry(*ctx.tree, [&](const std::string &section, const LNode &name,
                                           const LNode &entry) {
    const LNode *q = entry.get("qtype");
    if (!q || !isDual(*q))
      return;
    std::string op = section == "op_config"     ? name.value
                     : section == "node_config" ? opFromNodeName(name.value)
                                                : "";
    if (op.empty() || hmct::isDualInt16OpType(op))
      return;
    ctx.report(RuleID::HmctDualInt16Op, q->range,
               "'" + q->value + "' on " +
                   (section == "op_config" ? "op type '" : "node '" + name.value + "' of type '") +
                   op + "'; it exists only for Conv, MatMul, Gemm and ConvTranspose");
  });
}

} // namespace qspec::lint
