// Two graphs: each inventory module's nodes in the exported ONNX (docs/inputs.md, "Two graphs").
// A module's nodes are, first of these that gives any:
//   1. the mapping file's entry (`onnx_map "map.json"`: {"module": "node" | ["node", ...]});
//   2. the nodes consuming the module's weight initializer `NAME.weight` (data-movement ops such
//      as Transpose or Cast left out), every such node;
//   3. the MatMul/Gemm/Conv/ConvTranspose nodes whose exporter scope is the module: one is the
//      module's node, several are ambiguous (kept as candidates, mapped to none);
//   4. a module with no such node in its scope (an activation, a weightless norm): every node
//      whose scope is the module.
// Steps 2-4 are ir::mapByGraph, which also maps a tied output head (ir::graphHead).
#include "frontend/readers/ReaderSupport.h"
#include "frontend/readers/Readers.h"
#include "ir/GraphNames.h"

#include <nlohmann/json.hpp>

namespace qspec::readers {

using namespace detail;

namespace detail {

// "/model/layers.0/mlp/down_proj/MatMul" -> "model.layers.0.mlp.down_proj". A container that is
// called (nn.Sequential) repeats itself in its child's component: "/layer1/layer1.0/conv1/Conv"
// is module "layer1.0.conv1" (a component "X.Y" after "X" replaces it).
std::string scopeFromNodeName(std::string_view name) {
  if (name.size() < 2 || name[0] != '/')
    return "";
  size_t last = name.rfind('/');
  std::vector<std::string_view> parts;
  for (size_t b = 1; b < last;) {
    size_t e = name.find('/', b);
    std::string_view part = name.substr(b, e - b);
    if (!parts.empty() && part.size() > parts.back().size() && startsWith(part, parts.back()) &&
        part[parts.back().size()] == '.')
      parts.back() = part;
    else if (!part.empty())
      parts.push_back(part);
    b = e + 1;
  }
  std::string scope;
  for (std::string_view p : parts)
    scope += (scope.empty() ? "" : ".") + std::string(p);
  return scope;
}

namespace {

// The dotted module path from a list of scope names: either cumulative ("layer1",
// "layer1.0", ...: the last) or one component each ("layer1", "0": joined with dots).
std::string joinScopes(const std::vector<std::string> &parts) {
  std::vector<std::string> named;
  for (const std::string &p : parts)
    if (!p.empty())
      named.push_back(p);
  if (named.empty())
    return "";
  bool cumulative = true;
  for (size_t i = 1; i < named.size(); ++i)
    if (!startsWith(named[i], named[i - 1] + "."))
      cumulative = false;
  if (cumulative)
    return named.back();
  std::string out;
  for (const std::string &p : named)
    out += (out.empty() ? "" : ".") + p;
  return out;
}

} // namespace

std::string scopeFromNameScopes(std::string_view repr) {
  // ['', 'model', 'model.layers.0'] (Python repr: single or double quotes, no escapes in names).
  std::vector<std::string> parts;
  for (size_t i = 0; i < repr.size(); ++i) {
    char q = repr[i];
    if (q != '\'' && q != '"')
      continue;
    size_t end = repr.find(q, i + 1);
    if (end == std::string_view::npos)
      return "";
    parts.emplace_back(repr.substr(i + 1, end - i - 1));
    i = end;
  }
  return joinScopes(parts);
}

std::string scopeFromNamespace(std::string_view ns) {
  // ": __main__.Model/model: Qwen3Model/model.layers.0: Qwen3DecoderLayer"
  std::vector<std::string> parts;
  size_t begin = 0;
  while (begin <= ns.size()) {
    size_t end = ns.find('/', begin);
    std::string_view seg =
        ns.substr(begin, end == std::string_view::npos ? std::string_view::npos : end - begin);
    parts.emplace_back(trim(seg.substr(0, seg.find(':'))));
    if (end == std::string_view::npos)
      break;
    begin = end + 1;
  }
  return joinScopes(parts);
}

} // namespace detail

namespace {

// The node names of one mapping-file value: a string or an array of strings.
bool mapValueNames(std::string_view valueText, std::vector<std::string> &out) {
  nlohmann::json v = nlohmann::json::parse(valueText.begin(), valueText.end(), nullptr, false);
  if (v.is_string()) {
    out.push_back(v.get<std::string>());
    return true;
  }
  if (!v.is_array() || v.empty())
    return false;
  for (const nlohmann::json &e : v) {
    if (!e.is_string())
      return false;
    out.push_back(e.get<std::string>());
  }
  return true;
}

bool readMapFile(const ir::Inventory &inv, ir::OnnxGraph &g, const ir::GraphIndex &ix,
                 DiagnosticEngine &diags, const ReaderLimits &limits) {
  SourceManager &sm = diags.sourceManager();
  std::string err;
  FileID f = sm.loadFile(g.mapPath, err, limits.maxFileBytes);
  if (!f) {
    diags.report(DiagID::err_cannot_open_file, g.mapRange, {g.mapPath, err});
    return false;
  }
  QuoteNothingFrom unquoted(sm, f);
  const std::string &text = sm.text(f);
  uint32_t off = 0;
  std::string why;
  if (!checkJson(text, off, why)) {
    diags.report(DiagID::err_onnx_map_malformed, sm.range(f, off, off + 1), {why});
    return false;
  }
  uint32_t root = locateJson(text, {}).value_or(0);
  if (text.compare(root, 1, "{") != 0) {
    diags.report(DiagID::err_onnx_map_malformed, sm.range(f, root, root + 1),
                 {"a mapping file is an object of module name -> node name or list of node names"});
    return false;
  }
  bool ok = true;
  for (const JsonMember &m : jsonObjectMembers(text, root)) {
    SourceRange at =
        sm.range(f, m.keyOffset, m.keyOffset + static_cast<uint32_t>(m.key.size()) + 2);
    const ir::Module *mod = inv.find(m.key);
    std::vector<std::string> names;
    if (!mod) {
      diags.report(DiagID::err_onnx_map_unknown_module, at, {m.key});
    } else if (!mapValueNames(m.valueText, names)) {
      diags.report(DiagID::err_onnx_map_malformed, at,
                   {"the value of '" + m.key + "' is not a node name or a list of node names"});
    } else {
      ir::NodeMapping &nm = g.modules[inv.index.at(m.key)];
      nm = {ir::NodeMapping::MapFile, {}, {}, at};
      for (const std::string &n : names) {
        auto it = ix.byName.find(n);
        if (it == ix.byName.end())
          diags.report(DiagID::err_onnx_map_unknown_node, at, {m.key, n});
        else
          nm.nodes.push_back(it->second);
      }
      if (nm.nodes.size() == names.size())
        continue;
    }
    ok = false;
  }
  return ok;
}

// Steps 2-4 (ir::mapByGraph) for every module the mapping file does not name.
void deriveMapping(const ir::Inventory &inv, ir::OnnxGraph &g, const ir::GraphIndex &ix) {
  for (size_t m = 0; m < inv.modules.size(); ++m)
    if (g.modules[m].how != ir::NodeMapping::MapFile)
      g.modules[m] = ir::mapByGraph(ix, inv.modules[m].name);
}

} // namespace

bool readOnnxGraph(const ir::Inventory &inv, ir::OnnxGraph &graph, DiagnosticEngine &diags,
                   const ReaderLimits &limits) {
  if (!detail::readOnnxGraph(graph.path, graph, diags, graph.range, limits))
    return false;
  graph.modules.assign(inv.modules.size(), {});
  ir::GraphIndex ix = ir::indexGraph(graph);
  if (!graph.mapPath.empty() && !readMapFile(inv, graph, ix, diags, limits))
    return false;
  deriveMapping(inv, graph, ix);
  return true;
}

} // namespace qspec::readers
