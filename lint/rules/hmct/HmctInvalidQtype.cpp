// hmct-invalid-qtype: a dtype value HMCT does not know: `all_node_type`, an entry's `qtype`,
// `input0`/`input1` or legacy `InputType*`/`OutputType` must be a qtype (int8, int16, float16,
// float32, float, dual-int16, int16-ec; hmct::isQtype), `model_output_type` one of int8, int16,
// float32. `int32` is never a qtype.
#include "lint/rules/hmct/QuantConfigUtil.h"

namespace qspec::lint {

namespace {

void checkValue(LintContext &ctx, const LNode &v, const std::string &where, bool output) {
  bool ok = v.isScalar() && v.quoted &&
            (output ? hmct::isModelOutputType(v.value) : hmct::isQtype(v.value));
  if (ok)
    return;
  ctx.report(
      RuleID::HmctInvalidQtype, v.range,
      (output ? "Unsupported datatype settings for model_output_type: '" : "invalid qtype '") +
          v.value + "' in " + where);
}

} // namespace

void checkHmctInvalidQtype(QuantConfigInput &ctx) {
  if (!ctx.tree || !ctx.tree->isMap())
    return;
  if (const LNode *mc = ctx.tree->get("model_config"); mc && mc->isMap()) {
    if (const LNode *v = mc->get("all_node_type"))
      checkValue(ctx, *v, "model_config.all_node_type", false);
    if (const LNode *v = mc->get("model_output_type"))
      checkValue(ctx, *v, "model_config.model_output_type", true);
  }
  quantconfig::forEachEntry(
      *ctx.tree, [&](const std::string &section, const LNode &name, const LNode &entry) {
        for (const auto &[k, v] : entry.map)
          if (k.value == "qtype" || k.value == "input0" || k.value == "input1" ||
              k.value == "InputType" || k.value == "OutputType" || k.value == "InputType0" ||
              k.value == "InputType1")
            checkValue(ctx, v, section + " '" + name.value + "'", false);
      });
}

} // namespace qspec::lint
