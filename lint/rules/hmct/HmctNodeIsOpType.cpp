// hmct-node-is-op-type: a node_config key that is a standard ONNX op type (`Cos`). HMCT matches
// node_config by node name, and exporters name nodes after their scope (`/t_embedder/Cos`), so
// such a key is an op_config entry written in the wrong section: it sets nothing. The vendor
// model's check (hmct::checkQuantConfig, node-is-op-type); with the model's graph (--onnx or
// --inventory) a node that really has that name is fine, and hmct-node-missing reports the others.
#include "lint/rules/hmct/QuantConfigUtil.h"

namespace qspec::lint {

void checkHmctNodeIsOpType(QuantConfigInput &ctx) {
  if (!ctx.hmctIssues || !ctx.tree)
    return;
  const LNode *nodes = ctx.tree->get("node_config");
  for (const hmct::Issue &i : *ctx.hmctIssues) {
    if (i.check != hmct::Check::NodeIsOpType)
      continue;
    if (ctx.inventory && nodes && nodes->isMap()) {
      // The key the issue is about: the node_config key on its line and column.
      bool inGraph = false;
      for (const auto &[name, entry] : nodes->map)
        if (name.range.begin.line == i.line && ctx.inventory->find(name.value))
          inGraph = true;
      if (inGraph)
        continue;
    }
    ctx.report(RuleID::HmctNodeIsOpType, ctx.at(i.line, i.column ? i.column : 1), i.message);
  }
}

} // namespace qspec::lint
