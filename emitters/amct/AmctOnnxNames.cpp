// lowerToOnnxNames (AmctOnnxNames.h): the module -> node mapping of the two graphs, checked the
// way the HMCT emitter checks it (the helpers of ir/GraphNames.h), then the spec restated over
// the ONNX graph's layers.
#include "emitters/amct/AmctOnnxNames.h"
#include "ir/GraphNames.h"

#include <algorithm>
#include <optional>
#include <unordered_map>

namespace qspec::emit {

namespace {

// The tied output head (ir::graphHead), checked after every module: without a usable node it is
// warned; a node a module of another tier owns is a clash. False after an error.
bool checkHead(const ir::Spec &spec, const std::optional<ir::GraphHead> &head,
               const std::unordered_map<uint32_t, uint32_t> &owner, DiagnosticEngine &diags) {
  if (!head)
    return true;
  const ir::OnnxGraph &g = spec.onnx;
  std::string why = ir::unmappedReason(g, head->mapping, "AMCT");
  if (!why.empty()) {
    std::string scope = head->name;
    std::replace(scope.begin(), scope.end(), '.', '/');
    diags.report(DiagID::warn_amct_tied_head_unmapped, g.range,
                 {head->name, head->embedding ? head->embedding->name : "", why, scope});
    return true;
  }
  std::optional<ir::NodeClash> c = ir::claimHeadNodes(spec, *head, owner);
  if (!c)
    return true;
  diags.report(DiagID::err_amct_node_shared, c->at,
               {g.nodes[c->node].name, spec.inventory.modules[c->first].name,
                ir::tierName(spec.resolution.modules[c->first].tier.value), head->name,
                ir::tierName(ir::Tier::Float)});
  return false;
}

// Every module's mapping and the tied head's checked; false after an error.
bool checkMapping(const ir::Spec &spec, const std::optional<ir::GraphHead> &head,
                  DiagnosticEngine &diags) {
  const ir::OnnxGraph &g = spec.onnx;
  bool ok = true;
  std::unordered_map<uint32_t, uint32_t> owner;
  for (uint32_t m = 0; m < g.modules.size(); ++m) {
    const ir::ResolvedModule &rm = spec.resolution.modules[m];
    const std::string &name = spec.inventory.modules[m].name;
    if (auto c = ir::claimNodes(spec, m, owner)) {
      diags.report(DiagID::err_amct_node_shared, c->at,
                   {g.nodes[c->node].name, spec.inventory.modules[c->first].name,
                    ir::tierName(spec.resolution.modules[c->first].tier.value), name,
                    ir::tierName(rm.tier.value)});
      ok = false;
      continue;
    }
    std::string why = ir::unmappedReason(g, g.modules[m], "AMCT");
    if (why.empty())
      continue;
    if (rm.isProtected) {
      diags.report(DiagID::err_amct_protected_unmapped, rm.tier.from.range(), {name, why});
      ok = false;
    } else if (ir::decidedByRule(rm)) {
      diags.report(DiagID::warn_amct_module_unmapped, rm.tier.from.range(), {name, why});
    }
  }
  return checkHead(spec, head, owner, diags) && ok;
}

} // namespace

bool lowerToOnnxNames(const ir::Spec &spec, DiagnosticEngine &diags, ir::Spec &out) {
  std::optional<ir::GraphHead> head = ir::graphHead(spec);
  if (!checkMapping(spec, head, diags))
    return false;
  out = spec;
  std::vector<ir::GraphLayer> layers = ir::graphLayers(spec, head);
  // The tied head's nodes stay float (skip_layers), as AMCT for PyTorch skips the head.
  ir::ResolvedModule floatHead;
  floatHead.tier.value = ir::Tier::Float;
  out.inventory.path = spec.onnx.path;
  out.inventory.format = "onnx";
  out.inventory.modules.clear();
  out.resolution.modules.clear();
  out.inventory.modules.reserve(layers.size());
  out.resolution.modules.reserve(layers.size());
  for (const ir::GraphLayer &l : layers) {
    out.inventory.modules.push_back(ir::nodeAsModule(spec.onnx.nodes[l.node]));
    out.resolution.modules.push_back(l.module == ir::kTiedHead ? floatHead
                                                               : spec.resolution.modules[l.module]);
    out.resolution.modules.back().group = -1;
  }
  out.inventory.rebuildIndex();
  // Indexes over the module inventory mean nothing here; the AMCT writer reads neither.
  out.resolution.groups.clear();
  out.resolution.selected.clear();
  out.resolution.targets.clear(); // by inventory module; the layers here are nodes
  out.resolution.selector.reset();
  out.onnx = ir::OnnxGraph{};
  return true;
}

} // namespace qspec::emit
