// hmct-unknown-key: a key HMCT does not accept at its level. horizon_nn raises ValueError:
// `Unsupported first-level title in quant_config: <k>` at the top level, and
// `Unsupported config key in model_config|op_config|node_config: <k>` below. Known keys are the
// emitter's (hmct::kTopLevelKeys, kModelConfigKeys, kActivationKeys, kEntryKeys,
// kLegacyEntryKeys); legacy entry keys are accepted here and flagged by hmct-legacy-key-mix.
#include "lint/rules/hmct/QuantConfigUtil.h"

namespace qspec::lint {

void checkHmctUnknownKey(QuantConfigInput &ctx) {
  if (!ctx.tree || !ctx.tree->isMap())
    return;
  using quantconfig::contains;
  for (const auto &[k, v] : ctx.tree->map)
    if (!contains(hmct::kTopLevelKeys, k.value))
      ctx.report(RuleID::HmctUnknownKey, k.range,
                 "Unsupported first-level title in quant_config: " + k.value);
  if (const LNode *mc = ctx.tree->get("model_config"); mc && mc->isMap()) {
    for (const auto &[k, v] : mc->map)
      if (!contains(hmct::kModelConfigKeys, k.value))
        ctx.report(RuleID::HmctUnknownKey, k.range,
                   "Unsupported config key in model_config: " + k.value);
    if (const LNode *act = mc->get("activation"); act && act->isMap())
      for (const auto &[k, v] : act->map)
        if (!contains(hmct::kActivationKeys, k.value))
          ctx.report(RuleID::HmctUnknownKey, k.range,
                     "Unsupported config key in model_config.activation: " + k.value);
  }
  quantconfig::forEachEntry(*ctx.tree, [&](const std::string &section, const LNode &name,
                                           const LNode &entry) {
    if (!entry.isMap()) {
      ctx.report(RuleID::HmctUnknownKey, entry.range,
                 section + " entry '" + name.value + "' must be an object");
      return;
    }
    if (section == "subgraph_config")
      return; // its shape is not confirmed: accept what HMCT 2.x documents
    for (const auto &[k, v] : entry.map) {
      bool ok = contains(hmct::kEntryKeys, k.value) || contains(hmct::kLegacyEntryKeys, k.value);
      // input0/input1 are per-operand (node) keys.
      if (ok && section == "op_config" && (k.value == "input0" || k.value == "input1"))
        ok = false;
      if (!ok)
        ctx.report(RuleID::HmctUnknownKey, k.range,
                   "Unsupported config key in " + section + ": " + k.value);
    }
  });
}

} // namespace qspec::lint
