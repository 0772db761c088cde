#include "ir/GraphNames.h"

#include "ir/Suggest.h"
#include "ir/TargetInfo.h"

#include <unordered_set>

namespace qspec::ir {

namespace {

bool isWeightedOp(std::string_view op) {
  return op == "MatMul" || op == "Gemm" || op == "Conv" || op == "ConvTranspose";
}

// Ops that only move or retype a weight: their consumer, not they, is the module's node.
bool isDataMovementOp(std::string_view op) {
  static const std::unordered_set<std::string_view> ops = {
      "Transpose", "Reshape", "Cast",   "Identity",        "Unsqueeze",
      "Squeeze",   "Flatten", "Expand", "DequantizeLinear"};
  return ops.count(op) != 0;
}

} // namespace

GraphIndex indexGraph(const OnnxGraph &g, std::string_view only) {
  GraphIndex ix;
  std::string weight = only.empty() ? "" : std::string(only) + ".weight";
  for (uint32_t i = 0; i < g.nodes.size(); ++i) {
    const GraphNode &n = g.nodes[i];
    if (only.empty())
      ix.byName.emplace(n.name, i);
    if (!isDataMovementOp(n.opType))
      for (const std::string &in : n.inputs)
        if (!in.empty() && (only.empty() || in == weight)) {
          std::vector<uint32_t> &v = ix.consumers[in];
          if (v.empty() || v.back() != i)
            v.push_back(i);
        }
    if (n.scope.empty() || (!only.empty() && n.scope != only))
      continue;
    ix.allByScope[n.scope].push_back(i);
    if (isWeightedOp(n.opType))
      ix.byScope[n.scope].push_back(i);
  }
  return ix;
}

NodeMapping mapByGraph(const GraphIndex &ix, const std::string &name) {
  NodeMapping nm;
  if (auto it = ix.consumers.find(name + ".weight"); it != ix.consumers.end()) {
    nm.how = NodeMapping::Weight;
    nm.nodes = it->second;
  } else if (auto sc = ix.byScope.find(name); sc != ix.byScope.end()) {
    if (sc->second.size() == 1) {
      nm.how = NodeMapping::Scope;
      nm.nodes = sc->second;
    } else {
      nm.candidates = sc->second;
    }
  } else if (auto all = ix.allByScope.find(name); all != ix.allByScope.end()) {
    nm.how = NodeMapping::Scope;
    nm.nodes = all->second;
  }
  return nm;
}

std::optional<GraphHead> graphHead(const Spec &spec) {
  if (!spec.onnx.present() || !spec.inventory.present())
    return std::nullopt;
  std::optional<OutputHead> h = outputHead(spec.inventory, spec.modelConfig);
  if (!h || !h->tied())
    return std::nullopt;
  GraphHead out{h->name, h->embedding, {}};
  out.mapping = mapByGraph(indexGraph(spec.onnx, h->name), h->name);
  return out;
}

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

std::optional<NodeClash> claimHeadNodes(const Spec &spec, const GraphHead &head,
                                        const std::unordered_map<uint32_t, uint32_t> &owner) {
  for (uint32_t id : head.mapping.nodes) {
    auto it = owner.find(id);
    if (spec.onnx.nodes[id].unnamed || it == owner.end())
      continue;
    const ResolvedModule &other = spec.resolution.modules[it->second];
    if (other.tier.value != Tier::Float)
      return NodeClash{id, it->second,
                       decidedByRule(other) ? other.tier.from.range() : spec.onnx.range};
  }
  return std::nullopt;
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

std::vector<GraphLayer> graphLayers(const Spec &spec, const std::optional<GraphHead> &head) {
  const OnnxGraph &g = spec.onnx;
  constexpr uint32_t none = UINT32_MAX - 1;
  std::vector<uint32_t> first(g.nodes.size(), none);
  auto reach = [&](const NodeMapping &nm, uint32_t who) {
    if (!unmappedReason(g, nm, "").empty())
      return;
    for (uint32_t id : nm.nodes)
      if (!g.nodes[id].unnamed && first[id] == none)
        first[id] = who;
  };
  for (uint32_t m = 0; m < g.modules.size(); ++m)
    reach(g.modules[m], m);
  if (head)
    reach(head->mapping, kTiedHead);
  std::vector<GraphLayer> out;
  for (uint32_t id = 0; id < first.size(); ++id)
    if (first[id] != none)
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
