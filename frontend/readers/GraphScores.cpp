// scoresOnModules (Readers.h): HMCT's node sensitivity, keyed by ONNX node names, restated in the
// module names every rule and the tuner use, through the two-graph mapping.
#include "frontend/readers/Readers.h"

#include <string>
#include <unordered_map>
#include <vector>

namespace qspec::readers {

namespace {

// Node -> the modules that carry it, in inventory order.
std::vector<std::vector<uint32_t>> carriers(const ir::OnnxGraph &g) {
  std::vector<std::vector<uint32_t>> out(g.nodes.size());
  for (uint32_t m = 0; m < g.modules.size(); ++m)
    for (uint32_t id : g.modules[m].nodes)
      out[id].push_back(m);
  return out;
}

std::string moduleList(const ir::Inventory &inv, const std::vector<uint32_t> &ms) {
  std::string out;
  for (size_t i = 0; i < ms.size() && i < 5; ++i)
    out += (i ? ", " : "") + inv.modules[ms[i]].name;
  return out + (ms.size() > 5 ? ", ..." : "");
}

} // namespace

void scoresOnModules(const ir::Inventory &inv, const ir::OnnxGraph &graph, ir::Scores &scores,
                     DiagnosticEngine &diags, SourceRange at) {
  if (!graph.present() || (scores.format != "hmct-json" && scores.format != "hmct-log"))
    return;
  std::unordered_map<std::string_view, uint32_t> nodeIds;
  for (uint32_t id = 0; id < graph.nodes.size(); ++id)
    if (!graph.nodes[id].unnamed)
      nodeIds.emplace(graph.nodes[id].name, id);
  std::vector<std::vector<uint32_t>> carried = carriers(graph);
  std::vector<ir::ScoreEntry> out;
  std::unordered_map<uint32_t, size_t> moduleEntry; // module -> its entry in `out`
  for (ir::ScoreEntry &e : scores.entries) {
    auto it = nodeIds.find(e.name);
    if (it == nodeIds.end()) {
      out.push_back(std::move(e));
      continue;
    }
    const std::vector<uint32_t> &ms = carried[it->second];
    if (ms.size() != 1) {
      diags.report(DiagID::warn_scores_node_unmapped, at,
                   {e.name, std::to_string(e.line), scores.path,
                    ms.empty() ? "no module carries"
                               : "several modules (" + moduleList(inv, ms) + ") carry"});
      continue;
    }
    auto [slot, fresh] = moduleEntry.emplace(ms[0], out.size());
    if (fresh) {
      out.push_back({inv.modules[ms[0]].name, e.score, e.line});
      continue;
    }
    ir::ScoreEntry &kept = out[slot->second]; // several nodes of one module: the most sensitive
    if (scores.higherIsMoreSensitive ? e.score > kept.score : e.score < kept.score)
      kept.score = e.score;
  }
  scores.entries = std::move(out);
}

} // namespace qspec::readers
