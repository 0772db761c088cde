// hmct-node-missing: with --onnx or --inventory (the model's graph), a node_config key that names
// no node of the graph, or an op_config key that is the type of none. HMCT applies node_config by
// node name and op_config by op type (reference horizon.md 1.1) and says nothing about a key that
// matches nothing: the node simply keeps the coarser setting. HMCT names nodes after its own
// optimisation (`*_optimized_float_model.onnx`: ops are split and fused, 1.1), so check against
// that model; a name of the exported ONNX may be gone there. Hence a warning.
#include "ir/EditDistance.h"
#include "lint/rules/hmct/QuantConfigUtil.h"

#include <unordered_set>

namespace qspec::lint {

void checkHmctNodeMissing(QuantConfigInput &ctx) {
  if (!ctx.tree || !ctx.tree->isMap() || !ctx.inventory)
    return;
  const ir::Inventory &inv = *ctx.inventory;
  std::unordered_set<std::string> types;
  for (const ir::Module &m : inv.modules)
    types.insert(m.type);
  if (const LNode *nodes = ctx.tree->get("node_config"); nodes && nodes->isMap())
    for (const auto &[name, entry] : nodes->map) {
      if (inv.index.find(name.value).found)
        continue;
      std::string hint;
      for (const ir::Module &m : inv.modules)
        if (editDistanceAtMost(name.value, m.name, 2) <= 2) {
          hint = " (did you mean '" + m.name + "'?)";
          break;
        }
      ctx.report(RuleID::HmctNodeMissing, name.range,
                 "node_config key '" + name.value + "' is no node of the graph" + hint);
    }
  if (const LNode *ops = ctx.tree->get("op_config"); ops && ops->isMap())
    for (const auto &[type, entry] : ops->map)
      if (!types.count(type.value))
        ctx.report(RuleID::HmctNodeMissing, type.range,
                   "op_config key '" + type.value + "' is the op type of no node of the graph");
}

} // namespace qspec::lint
