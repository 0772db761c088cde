// readAmct (AmctReader.h): the written bytes parsed strictly, refused where AMCT refuses them,
// applied to the inventory (applyDocument) and named in the IR's words.
//
// Data types: AMCT carries the pair (activation type, weight bits), not a tier. Where the pair
// equals what the module's resolution asks AMCT for (amct::intendedType: the tier, or an explicit
// dtype written at least as specifically), the reading takes the IR's tier and says nothing more
// about data types; otherwise it gives the tier the pair stands for (A16 int16, W4 int4, else
// int8) and both data types, so every difference shows. Methods: the IR's word for the
// algorithm AMCT applies (amct::methodWord: histogram = hfmg, ...); the expected reading says
// which one the spec asks for (amct::methodChoice, the QAT/PTQ mapping).
// Weight scope is said only on channel-wise types (Linear and AvgPool2d have no choice).
#include "vendors/amct/AmctReader.h"
#include "vendors/amct/AmctIntent.h"
#include "ir/GraphNames.h"
#include "ir/Suggest.h"

namespace qspec::vendors {

namespace {

using namespace qspec::amct;

const char *dtypeWord(DataType t) {
  return t == DataType::Int4 ? "int4" : t == DataType::Int16 ? "int16" : "int8";
}

std::string weightWord(uint32_t bits) { return bits == 0 ? "float" : "int" + std::to_string(bits); }

struct Namer {
  // The last algorithm named per role and its word: neighbouring modules mostly apply the same,
  // and naming it costs an interned word.
  struct Last {
    std::string applied;
    ReadingWord word;
  };
  mutable std::optional<Last> last[2];

  Namer(const ir::Target &, ConfigKind) {}

  // The IR's word for the algorithm AMCT applies; which algorithm the spec asks for is the
  // expected reading's (ir::TargetInfo::methodOf, amct::methodChoice), so a wrongly written
  // algorithm shows as a different method.
  ReadingWord method(const ir::ResolvedModule &, bool weight, std::string_view applied) const {
    std::optional<Last> &l = last[weight];
    if (!l || l->applied != applied)
      l = Last{std::string(applied), ReadingWord(methodWord(applied))};
    return l->word;
  }

  void dtypes(const ir::ResolvedModule &rm, const Applied &a, ModuleReading &out) const {
    std::optional<DataType> weight = a.weightBits == 4   ? std::optional<DataType>(DataType::Int4)
                                     : a.weightBits == 8 ? std::optional<DataType>(DataType::Int8)
                                                         : std::nullopt;
    if (rm.tier.value != ir::Tier::Float && weight && intendedType(rm, true) == weight &&
        intendedType(rm, false) == a.act) {
      out.tier = rm.tier.value;
      return;
    }
    out.tier = a.act == DataType::Int16   ? ir::Tier::Int16
               : weight == DataType::Int4 ? ir::Tier::Int4
                                          : ir::Tier::Int8;
    out.weight.dtype = weightWord(a.weightBits);
    out.act.dtype = dtypeWord(a.act);
  }

  ModuleReading name(const ir::Module &m, const ir::ResolvedModule &rm, const Applied &a) const {
    ModuleReading r;
    r.known = a.considered;
    r.line = a.line;
    r.column = a.col;
    if (!a.considered || !a.enabled)
      return r; // tier Float: unquantized
    dtypes(rm, a, r);
    // The words every module gets, interned once.
    static const ReadingWord kPerChannel("per_channel"), kPerTensor("per_tensor");
    if (a.channelWise && isChannelWiseType(m.type))
      r.weight.scope = *a.channelWise ? kPerChannel : kPerTensor;
    if (a.wtsAlgo != "ulq")
      r.weight.symmetric = true; // ARQ and ADA quantize weights symmetrically
    r.weight.method = method(rm, true, a.wtsAlgo);
    r.act.scope = kPerTensor;
    if (a.asymmetric)
      r.act.symmetric = !*a.asymmetric;
    r.act.method = method(rm, false, a.actAlgo);
    return r;
  }
};

// Two graphs, framework onnx: the document applied to the ONNX graph's layers (node names, op
// types), and each module read as its layers: the first that disagrees with the module's
// resolution, else the first; a module without a layer is not decided by AMCT. The tied output
// head (ir::graphHead) is read the same way into `out.head`, expected float.
void readGraph(const ir::Spec &spec, const ir::Target &target, const AmctDocument &doc,
               const Namer &namer, CheckOptions &co, std::vector<Finding> &refusals,
               std::vector<ir::Module> &nodes, VendorReading &out) {
  const ir::OnnxGraph &g = spec.onnx;
  std::optional<ir::GraphHead> head = ir::graphHead(spec);
  std::vector<uint32_t> layerOf(g.nodes.size(), UINT32_MAX);
  for (const ir::GraphLayer &l : ir::graphLayers(spec, head)) {
    layerOf[l.node] = static_cast<uint32_t>(nodes.size());
    nodes.push_back(ir::nodeAsModule(g.nodes[l.node]));
  }
  for (const ir::Module &n : nodes)
    co.layerTypes.emplace_back(n.name, n.type);
  for (Finding &f : checkDocument(doc, co))
    if (f.level == Finding::Error)
      refusals.push_back(std::move(f));
  std::vector<Applied> applied = applyDocument(doc, nodes, co.version, refusals);
  // The module (or head) read as its layers, against what it should read as.
  auto read = [&](const ir::NodeMapping &nm, const ir::ResolvedModule &rm, ModuleReading &r) {
    bool first = true;
    for (uint32_t id : nm.nodes) {
      uint32_t k = layerOf[id];
      if (k == UINT32_MAX)
        continue;
      ModuleReading one = namer.name(nodes[k], rm, applied[k]);
      bool agrees = readingAgrees(rm, one, out.fields);
      if (first || !agrees)
        r = one;
      first = false;
      if (!agrees)
        break;
    }
  };
  out.modules.assign(spec.inventory.modules.size(), ModuleReading{});
  for (size_t m = 0; m < out.modules.size(); ++m)
    read(g.modules[m], spec.expectedModule(target, m), out.modules[m]);
  if (head && ir::unmappedReason(g, head->mapping, "AMCT").empty()) {
    ir::ResolvedModule floatHead;
    floatHead.tier.value = ir::Tier::Float;
    out.headName = head->name;
    read(head->mapping, floatHead, out.head);
  }
}

Version versionOf(const ir::Target &target) {
  std::string_view v = targetOption(target, "version");
  if (auto parsed = parseVersion(v))
    return *parsed;
  return Version{};
}

} // namespace

bool readAmct(const ir::Spec &spec, const ir::Target &target, std::string_view bytes,
              VendorReading &out, DiagnosticEngine &diags) {
  ConfigKind kind = target.variant == "qat"  ? ConfigKind::QAT
                    : target.variant == "kv" ? ConfigKind::KVCache
                                             : ConfigKind::PTQ;
  out.kind = "amct";
  out.fields = FieldTier | FieldWeightDtype | FieldWeightScope | FieldWeightSymmetric |
               FieldWeightMethod | FieldActDtype | FieldActScope | FieldActSymmetric |
               FieldActMethod;
  AmctDocument doc;
  std::vector<ParseError> errors;
  // The emitter's round trip already parsed these bytes when they are what it wrote.
  if (!takeParsed(bytes, kind, doc) && !parseAmctConfigAs(std::string(bytes), kind, doc, errors)) {
    const ParseError &e = errors.front();
    diags.report(
        DiagID::err_amct_parse, target.range,
        {(e.line ? std::to_string(e.line) + ":" + std::to_string(e.col) + ": " : "") + e.message});
    return false;
  }
  if (kind == ConfigKind::KVCache)
    return readAmctKv(spec, target, doc, out, diags);
  CheckOptions co;
  co.version = versionOf(target);
  co.hardware = std::string(targetOption(target, "hardware"));
  co.pytorchTypes = true;
  const auto &mods = spec.inventory.modules;
  bool withInventory = spec.resolution.done && spec.resolution.modules.size() == mods.size();
  Namer namer(target, kind);
  if (withInventory && ir::namesOnnxNodes(spec, target)) {
    std::vector<Finding> refusals;
    std::vector<ir::Module> nodes; // outlives co.layerTypes' views
    readGraph(spec, target, doc, namer, co, refusals, nodes, out);
    for (const Finding &f : refusals)
      diags.report(DiagID::err_amct_check, target.range, {checkName(f.check), f.message});
    return refusals.empty();
  }
  std::string tiedHead; // outlives co.layerTypes' views
  if (withInventory)
    amct::addInventoryLayers(spec.inventory, spec.modelConfig, co, tiedHead);
  std::vector<Finding> refusals;
  for (Finding &f : checkDocument(doc, co))
    if (f.level == Finding::Error)
      refusals.push_back(std::move(f));
  std::vector<Applied> applied;
  if (withInventory)
    applied = applyDocument(doc, mods, co.version, refusals);
  for (const Finding &f : refusals)
    diags.report(DiagID::err_amct_check, target.range, {checkName(f.check), f.message});
  if (!refusals.empty())
    return false;
  // Each module named against what the target asks of it (its expected reading).
  const ir::TargetReading *expected = spec.readingOf(target);
  out.modules.reserve(applied.size());
  for (size_t i = 0; i < applied.size(); ++i) {
    if (expected && expected->changeOf(i))
      out.modules.push_back(
          namer.name(mods[i], expected->expected(spec.resolution.modules[i], i), applied[i]));
    else
      out.modules.push_back(namer.name(mods[i], spec.resolution.modules[i], applied[i]));
  }
  return true;
}

} // namespace qspec::vendors

namespace qspec::amct {

void addInventoryLayers(const ir::Inventory &inv, const ir::ModelConfig &config, CheckOptions &co,
                        std::string &head) {
  co.layerTypes.reserve(inv.modules.size() + 1);
  // The inventory's index has one entry per distinct name (readers reject repeats).
  co.uniqueLayerNames = inv.index.size() == inv.modules.size();
  for (const ir::Module &m : inv.modules)
    co.layerTypes.emplace_back(m.name, m.type);
  if (std::optional<std::string> h = ir::tiedHeadName(inv, config)) {
    head = std::move(*h);
    co.layerTypes.emplace_back(head, "Linear");
  }
}

} // namespace qspec::amct
