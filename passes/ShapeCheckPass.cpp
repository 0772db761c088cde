// ShapeCheckPass: recipe settings against the inventory's tensor shapes.
//
// 1. For each module with a quantized tier, a per_group weight scope and known input features (a
//    2-D weight in a safetensors header, Module::inFeatures), the group_size of the rule that
//    decided the scope (Spec::decidingSettings).
// 2. A group_size that does not divide the input features is err_group_size_in_features at that
//    rule's group_size, naming the first such layer and how many of the rule's layers it fails.
//    One error per rule, so a rule over 400 layers is one error.
// 3. A module whose shape is unknown (an index, a manifest, ONNX) is not checked.
#include "passes/Pass.h"

#include <map>

namespace qspec::passes {
namespace {

class ShapeCheckPass : public Pass {
public:
  const char *name() const override { return "shapes"; }

  bool run(PassContext &ctx) override {
    ir::Spec &spec = ctx.spec;
    if (!spec.resolution.done)
      return true;
    const auto &mods = spec.inventory.modules;
    struct Failing {
      const ir::Value *groupSize;
      const ir::Decision *from;
      size_t first, count;
    };
    std::map<const ir::Settings *, Failing> byRule; // keyed by the deciding rule; ordered below
    std::vector<const ir::Settings *> order;
    for (size_t m = 0; m < mods.size(); ++m) {
      const ir::ResolvedModule &r = spec.resolution.modules[m];
      if (mods[m].inFeatures == 0 || r.tier.value == ir::Tier::Float ||
          r.weight.scope.value.str() != "per_group")
        continue;
      const ir::Settings *s = spec.decidingSettings(r.weight.scope.from);
      if (!s)
        continue;
      auto g = s->weight.ext.find("group_size");
      if (g == s->weight.ext.end() || !g->second.isInteger || g->second.number < 1)
        continue; // the emitters say a group_size is missing
      if (mods[m].inFeatures % static_cast<uint64_t>(g->second.number) == 0)
        continue;
      auto [it, fresh] = byRule.try_emplace(s, Failing{&g->second, &r.weight.scope.from, m, 0});
      if (fresh)
        order.push_back(s);
      ++it->second.count;
    }
    for (const ir::Settings *s : order) {
      const Failing &f = byRule.at(s);
      SourceRange at = f.groupSize->range.valid() ? f.groupSize->range : f.from->range();
      ctx.diags.report(DiagID::err_group_size_in_features, at,
                       {f.groupSize->text, std::to_string(mods[f.first].inFeatures),
                        mods[f.first].name, std::to_string(f.count)});
    }
    return true;
  }
};

} // namespace

std::unique_ptr<Pass> createShapeCheckPass() { return std::make_unique<ShapeCheckPass>(); }

} // namespace qspec::passes
