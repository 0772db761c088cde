#include "ir/GraphNames.h"

#include "ir/TargetInfo.h"

namespace qspec::ir {

bool namesOnnxNodes(const Spec &spec, const Target &target) {
  return spec.onnx.present() && targetNames(target) == TargetInfo::Names::OnnxGraph;
}

std::string unmappedReason(const OnnxGraph &g, const NodeMapping &nm, const char *vendor) {
  auto list = [&](const std::vector<uint32_t> &ids) {
    std::string out;
    for (size_t i = 0; i < ids.size() && i < 5; ++i)
      out += (i ? ", " : "") + g.nodes[ids[i]].name;
    return out + (ids.size() > 5 ? ", ... (" + std::to_string(ids.size()) + " in all)" : "");
  };
  if (!nm.candidates.empty())
    return "has several candidate nodes (" + list(nm.candidates) + ")";
  if (nm.nodes.empty())
    return "has no node";
  for (uint32_t n : nm.nodes)
    if (!g.nodes[n].unnamed)
      return "";
  return "has only unnamed nodes (" + list(nm.nodes) + "; " + vendor +
         "'s names for them are not known)";
}

bool decidedByRule(const ResolvedModule &rm) {
  auto src = rm.tier.from.source;
  return rm.isProtected || rm.tuned || (src != Decision::BuiltIn && src != Decision::Default);
}

std::optional<NodeClash> claimNodes(const Spec &spec, uint32_t m,
                                    std::unordered_map<uint32_t, uint32_t> &owner) {
  const ResolvedModule &rm = spec.resolution.modules[m];
  for (uint32_t id : spec.onnx.modules[m].nodes) {
    auto [it, fresh] = owner.emplace(id, m);
    const ResolvedModule &other = spec.resolution.modules[it->second];
    if (fresh || other.tier.value == rm.tier.value)
      continue;
    SourceRange at =
        decidedByRule(rm) || !decidedByRule(other) ? rm.tier.from.range() : other.tier.from.range();
    return NodeClash{id, it->second, at};
  }
  return std::nullopt;
}

std::vector<GraphLayer> graphLayers(const Spec &spec) {
  const OnnxGraph &g = spec.onnx;
  std::vector<uint32_t> first(g.nodes.size(), UINT32_MAX);
  for (uint32_t m = 0; m < g.modules.size(); ++m) {
    if (!unmappedReason(g, g.modules[m], "").empty())
      continue;
    for (uint32_t id : g.modules[m].nodes)
      if (!g.nodes[id].unnamed && first[id] == UINT32_MAX)
        first[id] = m;
  }
  std::vector<GraphLayer> out;
  for (uint32_t id = 0; id < first.size(); ++id)
    if (first[id] != UINT32_MAX)
      out.push_back({id, first[id]});
  return out;
}

Module nodeAsModule(const GraphNode &n) {
  Module m;
  m.name = n.name;
  m.type = n.opType;
  // As an ONNX inventory reads a node (frontend/readers/Onnx.cpp): Gemm's C and Conv's or
  // ConvTranspose's third input are the bias; any other op (MatMul) has none of its own.
  m.biasKnown = true;
  m.hasBias = (n.opType == "Conv" || n.opType == "ConvTranspose" || n.opType == "Gemm") &&
              n.inputs.size() > 2 && !n.inputs[2].empty();
  return m;
}

} // namespace qspec::ir
