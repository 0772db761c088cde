// Two graphs (docs/inputs.md): the ONNX name space the ONNX-side targets are lowered to (HMCT,
// and AMCT with `framework onnx`). Shared by those emitters, their vendor read-backs and
// --explain, so every one of them names the same nodes for a module.
#pragma once

#include "ir/IR.h"

#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace qspec::ir {

// The mapping rule's view of a graph (docs/inputs.md, "Mapping rules"): node names, the compute
// nodes consuming each input (nodes that only move a tensor left out), the MatMul/Gemm/Conv/
// ConvTranspose nodes of each scope, and every node of each scope. With `only`, just what the
// mapping of that one module name reads (its weight's consumers, its scope), so one name is
// mapped with one pass over the graph and no index of it.
struct GraphIndex {
  std::unordered_map<std::string, uint32_t> byName;                  // empty with `only`
  std::unordered_map<std::string, std::vector<uint32_t>> consumers;  // input -> compute nodes
  std::unordered_map<std::string, std::vector<uint32_t>> byScope;    // scope -> weighted nodes
  std::unordered_map<std::string, std::vector<uint32_t>> allByScope; // scope -> every node
};
GraphIndex indexGraph(const OnnxGraph &g, std::string_view only = {});

// Steps 2-4 of the mapping rule for the module `name` (the mapping file, step 1, is the
// reader's): every node consuming `NAME.weight`; else the one weighted node whose scope is the
// module (several: none, kept as candidates); else every node of that scope. How None: no node.
NodeMapping mapByGraph(const GraphIndex &ix, const std::string &name);

// The tied output head (tiedHeadName: the index lists the embedding and no head weight) in the
// ONNX graph of two graphs, mapped by the same rule as a module of the index
// (`/lm_head/MatMul` -> `lm_head`, `/language_model/lm_head/MatMul` -> `language_model.lm_head`).
// The ONNX-side targets keep its nodes float, as the targets matching module names keep the head
// float; a head without a usable node (unmappedReason) is reported, never left quietly.
struct GraphHead {
  std::string name;                  // the head's module name
  const Module *embedding = nullptr; // the embedding whose weight it reuses
  NodeMapping mapping;               // its nodes in the graph
};
// nullopt without two graphs or a tied head.
std::optional<GraphHead> graphHead(const Spec &spec);

// The target names ONNX nodes when the spec has two graphs: its TargetInfo::names is OnnxGraph
// (hmct always, amct with `framework onnx`).
bool namesOnnxNodes(const Spec &spec, const Target &target);

// Why a module has no usable node in the ONNX graph ("" when it has one): "has no node", "has
// several candidate nodes (a, b)", "has only unnamed nodes (...; VENDOR's names for them are not
// known)".
std::string unmappedReason(const OnnxGraph &g, const NodeMapping &nm, const char *vendor);

// A rule (not the defaults) decides the module's tier, or it is protected or tuned.
bool decidedByRule(const ResolvedModule &rm);

// One node carries one tier, so two modules mapped onto it (tied weights, or one node named
// twice in onnx_map) must agree. Claims module `m`'s nodes in `owner` (node -> first module);
// the first node already owned by a module with another tier is a clash.
struct NodeClash {
  uint32_t node;
  uint32_t first; // the module that claimed the node before
  SourceRange at; // the deciding rule (a module only the defaults decide: its partner's)
};
std::optional<NodeClash> claimNodes(const Spec &spec, uint32_t m,
                                    std::unordered_map<uint32_t, uint32_t> &owner);
// The same for the tied head (float), claimed after every module: a named node of the head that a
// module of another tier owns is a clash (at the module's deciding rule, else the `onnx` line).
std::optional<NodeClash> claimHeadNodes(const Spec &spec, const GraphHead &head,
                                        const std::unordered_map<uint32_t, uint32_t> &owner);

// One layer of the ONNX name space: a named node some module maps to, with the first module (in
// inventory order) that reaches it, or the tied head (graphHead) when no module does. Modules
// without a usable node (unmappedReason) reach none.
constexpr uint32_t kTiedHead = UINT32_MAX;
struct GraphLayer {
  uint32_t node;   // into OnnxGraph::nodes
  uint32_t module; // into Inventory::modules, or kTiedHead
};
// Every such layer, in graph order. `head` is graphHead(spec), computed by the caller.
std::vector<GraphLayer> graphLayers(const Spec &spec, const std::optional<GraphHead> &head);

// The node as an inventory entry, as an ONNX inventory reads it: its name, its op type, and
// whether it has a bias input (the third of Conv/ConvTranspose/Gemm; any other op has none).
Module nodeAsModule(const GraphNode &n);

} // namespace qspec::ir
