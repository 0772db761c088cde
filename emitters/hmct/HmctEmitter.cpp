// The hmct-json emitter: an HMCT PTQ `quant_config` (JSON), in steps: options (march and the
// model_config settings, read once: readMarch, modelConfig), plan from the resolution (plan:
// op and node tiers), lower to the document (lower, writeNodeConfig), verify (emit: the recipes the
// file cannot carry; emitTargets then reads the bytes back through vendors/hmct).
//
// 1. Target settings -> model_config: `all_node_type` from the default tier (dual-int16 as a
//    default becomes int16 plus op-level dual-int16 on Conv/MatMul/Gemm/ConvTranspose),
//    `model_output_type`, `activation` (calibration_type always written, from the setting or the
//    default act method, unless `search default` asks for HMCT's own search), `weight`
//    bias_correction, `modelwise_search` / `layerwise_search` (read back and compared after
//    writing: searchesReadBack). Values HMCT would clamp are reported, never changed.
// 2. With an inventory (the resolved IR): op_config[type] = the tier a type override gave the
//    nodes of that type; every node whose resolved tier differs from what model/op level gives it,
//    and every protected or tuned node, gets a node_config entry (HMCT: model < op < subgraph <
//    node, so a node entry beats everything). Protected and tuned-out nodes: {"qtype": "float32"};
//    dual-int16 nodes: {"input0": "int16", "input1": "int16"}.
//    With two graphs (the model block's `onnx`), the same per module, written to the module's
//    nodes in the ONNX graph (fromGraph): no op_config from type overrides (module types are not
//    op types); a decided module without a named node is warned, a protected one refused.
// 3. Without one: type overrides -> op_config, exact names -> node_config (a glob needs the
//    inventory), protect > tuning > name override, higher priority first.
//    A tied output head (ir::graphHead), no module of the index, gets float32 on its nodes.
// 4. Strict JSON by nlohmann_json: sections in order, empty ones left out, keys sorted by code
//    point, floats with a '.', UTF-8 names escaped by the library; '/' and '*' of a `//` or `/*`
//    in a name spelt "\/" and "\u002a" so HMCT's comment stripper leaves the name intact.
#include "emitters/hmct/HmctEmitter.h"

#include "emitters/RecipeCarry.h"
#include "ir/EditDistance.h"
#include "ir/GraphNames.h"
#include "ir/OnnxNames.h"
#include "passes/SymbolicResolution.h"
#include "vendors/Parsed.h"
#include "vendors/ViewIndex.h"
#include "vendors/hmct/HmctReader.h"
#include "vendors/hmct/HmctRules.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstring>
#include <map>
#include <unordered_map>

namespace qspec::emit {

namespace {

using Json = nlohmann::ordered_json;

// node_config entries: a vector with a flat index (one lookup per node, no search through the
// JSON object), sorted by name (bytes = code points for UTF-8) once, when serialised. Names are
// views of the spec's inventory or graph, or of the rules asWritten() keeps: no copy per node.
class NodeTable {
public:
  explicit NodeTable(size_t expected = 0) : index_(expected) {}
  void set(std::string_view name, ir::Tier tier) {
    auto [at, added] = index_.tryEmplace(name, entries_.size());
    if (added)
      entries_.emplace_back(name, tier);
    else
      entries_[*at].second = tier;
  }
  bool empty() const { return entries_.empty(); }
  size_t size() const { return entries_.size(); }
  // Sorts the entries in place: the last call.
  const std::vector<std::pair<std::string_view, ir::Tier>> &sorted() {
    index_ = vendors::ViewIndex<size_t>();
    std::sort(entries_.begin(), entries_.end(),
              [](const auto &a, const auto &b) { return a.first < b.first; });
    return entries_;
  }

private:
  std::vector<std::pair<std::string_view, ir::Tier>> entries_;
  vendors::ViewIndex<size_t> index_;
};

class HmctBuilder {
public:
  HmctBuilder(const ir::Spec &spec, const ir::Target &target, DiagnosticEngine &diags)
      : spec_(spec), target_(target), diags_(diags) {}
  bool run(OutputContext &out);

private:
  const ir::Spec &spec_;
  const ir::Target &target_;
  DiagnosticEngine &diags_;
  bool ok_ = true;
  unsigned suggestions_ = 0; // did-you-mean searches so far (kMaxSuggestions)
  std::string march_;
  std::map<std::string, ir::Tier> ops_;     // op type -> tier
  NodeTable nodes_;                         // node name -> tier
  std::map<std::string, ir::Tier> written_; // asWritten(): literal node names (nodes_ views them)

  void bad(const ir::Option *o, const std::string &why) {
    diags_.report(DiagID::err_hmct_bad_option,
                  o && !o->values.empty() ? o->values.front().range
                                          : (o ? o->range : target_.range),
                  {o ? o->key : "", why});
    ok_ = false;
  }
  Json modelConfig();
  void calibrationType(Json &act);
  void numberOption(Json &act, const char *key, bool isFloat, double clampBelow,
                    const char *clampTo);
  void boolOption(Json &act, const char *key, std::optional<bool> fromRecipe);
  Json biasCorrection(const ir::Option &o);
  void searchBlock(Json &mc, const char *key, bool layerwise);
  void readMarch();
  void plan();
  bool lower(const Json &mc, Json &root);
  void writeNodeConfig();
  std::string nodeText_; // node_config's members as Json::dump(2) writes them, inside the root
  bool checkMarch(const Json &mc);
  void fromInventory();
  void fromGraph();
  bool claimNodes(const ir::OnnxGraph &g, size_t m, std::unordered_map<uint32_t, uint32_t> &owner);
  void tiedHead(const std::unordered_map<uint32_t, uint32_t> &owner);
  // Two graphs: the tier model or op level gives node `n` (op_config: the dual-int16 default).
  ir::Tier nodeTier(const ir::GraphNode &n) const {
    auto op = ops_.find(n.opType);
    ir::Tier d = spec_.defaultTier();
    return op != ops_.end() ? op->second : d == ir::Tier::DualInt16 ? ir::Tier::Int16 : d;
  }
  void asWritten();
  void typeEntry(const passes::SymbolicEntry &e);
  void nameEntry(const passes::SymbolicEntry &e);
  void checkLiteralNames();
  std::string entryName(const std::string &name, SourceRange at);
};

Json HmctBuilder::modelConfig() {
  Json mc = Json::object();
  ir::Tier d = spec_.defaultTier();
  mc["all_node_type"] = d == ir::Tier::DualInt16 ? "int16" : hmct::qtypeForTier(d);
  if (const ir::Option *o = target_.option("model_output_type")) {
    if (o->values.size() != 1 || !hmct::isModelOutputType(o->values[0].text))
      bad(o, "model_output_type is int8, int16 or float32 (HMCT: Unsupported datatype settings for "
             "model_output_type)");
    else
      mc["model_output_type"] = o->values[0].text;
  }
  Json act = Json::object();
  calibrationType(act);
  numberOption(act, "num_bin", false, 129, "129");
  numberOption(act, "max_num_bin", false, 258, "258");
  numberOption(act, "max_percentile", true, 0.5, "0.5");
  const ir::Recipe &ar = spec_.defaults.act;
  boolOption(act, "per_channel",
             ar.scope ? std::optional<bool>(*ar.scope == "per_channel") : std::nullopt);
  boolOption(act, "asymmetric", ar.symmetric ? std::optional<bool>(!*ar.symmetric) : std::nullopt);
  if (!act.empty())
    mc["activation"] = act;
  if (const ir::Option *o = target_.option("bias_correction"))
    mc["weight"] = Json{{"bias_correction", biasCorrection(*o)}};
  searchBlock(mc, "modelwise_search", false);
  searchBlock(mc, "layerwise_search", true);
  return mc;
}

// activation.calibration_type: the target's list, else from the default act method (kl or max),
// none with 'search default' (HMCT's own search).
void HmctBuilder::calibrationType(Json &act) {
  bool defaultSearch = false;
  if (const ir::Option *o = target_.option("search")) {
    if (o->values.size() == 1 && o->values[0].text == "default")
      defaultSearch = true;
    else
      bad(o, "only 'search default' (HMCT's own calibration search) is emitted; the hmct 2.8.3 "
             "'search' block is not");
  }
  const ir::Option *o = target_.option("calibration_type");
  if (!o) {
    if (!defaultSearch) {
      const auto &m = spec_.defaults.act.method;
      act["calibration_type"] = m && (*m == "kl" || *m == "histogram") ? "kl" : "max";
    }
    return;
  }
  if (defaultSearch)
    bad(o, "calibration_type and 'search default' exclude each other");
  for (const ir::Value &v : o->values)
    if (!hmct::isCalibrationType(v.text)) {
      diags_.report(DiagID::err_hmct_bad_option, v.range,
                    {"calibration_type",
                     "'" + v.text + "' is not one of max, kl, fixed, load, default, mix"});
      ok_ = false;
    }
  Json list = Json::array();
  for (const ir::Value &v : o->values)
    list.push_back(v.text);
  act["calibration_type"] = list.size() == 1 ? list[0] : list;
}

// A numeric activation setting (one value, or a list HMCT searches): whole numbers or fractions
// at most 1.0; below `clampBelow` HMCT clamps it (warned).
void HmctBuilder::numberOption(Json &act, const char *key, bool isFloat, double clampBelow,
                               const char *clampTo) {
  const ir::Option *o = target_.option(key);
  if (!o)
    return;
  Json list = Json::array();
  for (const ir::Value &v : o->values) {
    if (v.kind != ir::Value::Number || (!isFloat && !v.isInteger)) {
      diags_.report(DiagID::err_hmct_bad_option, v.range,
                    {key, std::string("expects ") + (isFloat ? "a number" : "a whole number")});
      ok_ = false;
      continue;
    }
    if (isFloat && v.number > 1.0) {
      diags_.report(DiagID::err_hmct_bad_option, v.range, {key, "is at most 1.0"});
      ok_ = false;
    }
    if (v.number < clampBelow)
      diags_.report(DiagID::warn_hmct_clamped_value, v.range, {key, v.text, clampTo});
    list.push_back(isFloat ? Json(v.number) : Json(static_cast<long long>(v.number)));
  }
  act[key] = list.size() == 1 ? list[0] : list;
}

// A boolean activation setting: the target's value(s), else what the default recipe says.
void HmctBuilder::boolOption(Json &act, const char *key, std::optional<bool> fromRecipe) {
  const ir::Option *o = target_.option(key);
  if (!o) {
    if (fromRecipe)
      act[key] = *fromRecipe;
    return;
  }
  Json list = Json::array();
  for (const ir::Value &v : o->values) {
    if (v.text != "true" && v.text != "false") {
      diags_.report(DiagID::err_hmct_bad_option, v.range, {key, "expects true or false"});
      ok_ = false;
      continue;
    }
    list.push_back(v.text == "true");
  }
  act[key] = list.size() == 1 ? list[0] : list;
}

// weight.bias_correction: 'bias_correction true' or a block of num_sample and metric.
Json HmctBuilder::biasCorrection(const ir::Option &o) {
  Json bc = Json::object();
  if (!o.isBlock &&
      !(o.values.size() == 1 && (o.values[0].text == "true" || o.values[0].text == "on")))
    bad(&o,
        "write 'bias_correction true' or a block 'bias_correction { num_sample 1; metric mse }'");
  for (const ir::Option &c : o.children) {
    const ir::Value *v = c.values.size() == 1 ? &c.values[0] : nullptr;
    if (c.key == "num_sample" && v && v->kind == ir::Value::Number && v->isInteger &&
        v->number >= 1)
      bc["num_sample"] = static_cast<long long>(v->number);
    else if (c.key == "metric" && v && hmct::isBiasMetric(v->text))
      bc["metric"] = v->text;
    else {
      diags_.report(DiagID::err_hmct_bad_option, c.range,
                    {"bias_correction." + c.key,
                     "num_sample is a whole number >= 1; metric is "
                     "cosine-similarity, mse, mae, mre, sqnr or chebyshev"});
      ok_ = false;
    }
  }
  return bc;
}

// model_config.modelwise_search { metric; similarity } / layerwise_search { metric; topk; qtype }:
// HMCT's metrics, topk a whole number >= 1, qtype int8 or int16 (reference §1.2). A
// layerwise_search suppresses HMCT's default search, so it and 'search default' exclude each other.
void HmctBuilder::searchBlock(Json &mc, const char *key, bool layerwise) {
  const ir::Option *o = target_.option(key);
  if (!o)
    return;
  const char *fields = layerwise ? "metric, topk and qtype" : "metric and similarity";
  if (!o->isBlock) {
    bad(o, std::string("write a block of ") + fields + ", e.g. '" + key +
               (layerwise ? " { metric mae; topk 8; qtype int16 }'"
                          : " { metric mae; similarity 0.995 }'"));
    return;
  }
  if (const ir::Option *s = target_.option("search");
      layerwise && s && s->values.size() == 1 && s->values[0].text == "default")
    bad(o, "layerwise_search suppresses HMCT's default search: it and 'search default' exclude "
           "each other");
  Json block = Json::object();
  for (const ir::Option &c : o->children) {
    const ir::Value *v = c.values.size() == 1 && !c.isBlock ? &c.values[0] : nullptr;
    bool number = v && v->kind == ir::Value::Number;
    if (c.key == "metric" && v && hmct::isBiasMetric(v->text))
      block["metric"] = v->text;
    else if (!layerwise && c.key == "similarity" && number)
      block["similarity"] = v->number;
    else if (layerwise && c.key == "topk" && number && v->isInteger && v->number >= 1)
      block["topk"] = static_cast<long long>(v->number);
    else if (layerwise && c.key == "qtype" && v && (v->text == "int8" || v->text == "int16"))
      block["qtype"] = v->text;
    else {
      diags_.report(DiagID::err_hmct_bad_option, c.range,
                    {std::string(key) + "." + c.key,
                     std::string("the fields are ") + fields +
                         "; metric is cosine-similarity, mse, mae, mre, sqnr or chebyshev" +
                         (layerwise ? "; topk a whole number >= 1; qtype int8 or int16"
                                    : "; similarity a number")});
      ok_ = false;
    }
  }
  mc[key] = block;
}

// Looking for a close name scans the whole inventory; like clang's typo correction, only the
// first few unknown names get a suggestion, so a spec full of wrong names stays fast.
constexpr unsigned kMaxSuggestions = 20;

void HmctBuilder::checkLiteralNames() {
  // HMCT keys node_config by exact node names: a literal name the inventory lacks is an error
  // (with two graphs the rules name modules, mapped to nodes by fromGraph).
  const ir::Inventory &inv = spec_.inventory;
  const char *where =
      !spec_.onnx.present() && ir::inventoryNamesOnnxNodes(inv) ? "ONNX graph" : "module inventory";
  auto check = [&](const ir::Selector &s) {
    std::optional<std::string> name = ir::literalName(s);
    if (!name || inv.find(*name))
      return;
    Diagnostic &d = diags_.report(DiagID::err_hmct_unknown_node, s.range, {*name, where});
    ok_ = false;
    if (suggestions_ >= kMaxSuggestions)
      return;
    ++suggestions_;
    // The closest name within max(2, length / 3) edits; ties go to the smaller name.
    const ir::Module *best = nullptr;
    size_t limit = std::max<size_t>(2, name->size() / 3);
    for (const ir::Module &m : inv.modules) {
      size_t dist = editDistanceAtMost(m.name, *name, limit);
      if (dist > limit)
        continue;
      if (!best || dist < limit || m.name < best->name) {
        best = &m;
        limit = dist; // later names must do at least as well
      }
    }
    if (best)
      diags_.note(d, DiagID::note_did_you_mean, s.range, {best->name});
  };
  for (const ir::Protect &p : spec_.protects)
    check(p.selector);
  for (const ir::Override &o : spec_.overrides)
    for (const ir::Selector &s : o.selectors)
      check(s);
  for (const ir::Selector &s : spec_.tune.excludes)
    check(s);
  for (const ir::TuningRaise &r : spec_.tune.raises)
    for (const ir::Selector &s : r.selectors)
      check(s);
}

void HmctBuilder::fromInventory() {
  const ir::Inventory &inv = spec_.inventory;
  const auto &res = spec_.resolution;
  ir::Tier d = spec_.defaultTier();
  // op level: the tier type overrides gave.
  for (size_t m = 0; m < inv.modules.size(); ++m) {
    const ir::ResolvedModule &rm = res.modules[m];
    if (rm.tier.from.source == ir::Decision::TypeOverride && !inv.modules[m].type.empty())
      ops_.emplace(inv.modules[m].type, rm.tier.value);
  }
  if (d == ir::Tier::DualInt16)
    for (const ir::Module &m : inv.modules)
      if (hmct::isDualInt16OpType(m.type))
        ops_.emplace(m.type, ir::Tier::DualInt16);
  // Drop op entries equal to what model level gives anyway.
  for (auto it = ops_.begin(); it != ops_.end();) {
    ir::Tier base =
        d == ir::Tier::DualInt16 && !hmct::isDualInt16OpType(it->first) ? ir::Tier::Int16 : d;
    bool needed = it->second != base;
    it = needed ? std::next(it) : ops_.erase(it);
  }
  for (size_t m = 0; m < inv.modules.size(); ++m) {
    const ir::ResolvedModule &rm = res.modules[m];
    const ir::Module &mod = inv.modules[m];
    ir::Tier eff = d == ir::Tier::DualInt16 ? ir::Tier::Int16 : d;
    if (auto it = ops_.find(mod.type); it != ops_.end())
      eff = it->second;
    if (rm.tier.value != eff || rm.isProtected || rm.tuned)
      nodes_.set(mod.name, rm.tier.value);
  }
}

// Two graphs: one node carries one qtype (ir::claimNodes); false (reported) on a clash.
bool HmctBuilder::claimNodes(const ir::OnnxGraph &g, size_t m,
                             std::unordered_map<uint32_t, uint32_t> &owner) {
  std::optional<ir::NodeClash> c = ir::claimNodes(spec_, static_cast<uint32_t>(m), owner);
  if (!c)
    return true;
  const ir::ResolvedModule &rm = spec_.resolution.modules[m],
                           &other = spec_.resolution.modules[c->first];
  diags_.report(DiagID::err_hmct_node_shared, c->at,
                {g.nodes[c->node].name, spec_.inventory.modules[c->first].name,
                 ir::tierName(other.tier.value), spec_.inventory.modules[m].name,
                 ir::tierName(rm.tier.value)});
  ok_ = false;
  return false;
}

// Two graphs: each module's tier goes to its named nodes in the ONNX graph. op_config carries
// only ONNX op types (the dual-int16 default on the GEMM ops); a type override becomes node
// entries, since module types (Linear) are not op types.
void HmctBuilder::fromGraph() {
  const ir::Inventory &inv = spec_.inventory;
  const ir::OnnxGraph &g = spec_.onnx;
  ir::Tier d = spec_.defaultTier();
  if (d == ir::Tier::DualInt16)
    for (const ir::GraphNode &n : g.nodes)
      if (hmct::isDualInt16OpType(n.opType))
        ops_.emplace(n.opType, ir::Tier::DualInt16);
  std::unordered_map<uint32_t, uint32_t> owner; // node -> the first module mapped onto it
  for (size_t m = 0; m < inv.modules.size(); ++m) {
    const ir::ResolvedModule &rm = spec_.resolution.modules[m];
    if (!claimNodes(g, m, owner))
      continue;
    std::string why = ir::unmappedReason(g, g.modules[m], "HMCT");
    if (!why.empty()) {
      if (rm.isProtected) {
        diags_.report(DiagID::err_hmct_protected_unmapped, rm.tier.from.range(),
                      {inv.modules[m].name, why});
        ok_ = false;
      } else if (ir::decidedByRule(rm)) {
        diags_.report(DiagID::warn_hmct_module_unmapped, rm.tier.from.range(),
                      {inv.modules[m].name, why});
      }
      continue;
    }
    for (uint32_t id : g.modules[m].nodes) {
      const ir::GraphNode &n = g.nodes[id];
      if (!n.unnamed && (rm.tier.value != nodeTier(n) || rm.isProtected || rm.tuned))
        nodes_.set(n.name, rm.tier.value);
    }
  }
  tiedHead(owner);
}

// Two graphs: the tied output head (ir::graphHead) is no module of the index, but a MatMul of the
// graph. It stays float, as msModelSlim's exclude, AMCT's skip_layers and Horizon's frozen
// float32 keep it: its named nodes get float32 entries. Without a usable node it is warned; a
// node a module of another tier owns is a clash.
void HmctBuilder::tiedHead(const std::unordered_map<uint32_t, uint32_t> &owner) {
  std::optional<ir::GraphHead> head = ir::graphHead(spec_);
  if (!head)
    return;
  const ir::OnnxGraph &g = spec_.onnx;
  std::string why = ir::unmappedReason(g, head->mapping, "HMCT");
  if (!why.empty()) {
    std::string scope = head->name;
    std::replace(scope.begin(), scope.end(), '.', '/');
    diags_.report(DiagID::warn_hmct_tied_head_unmapped, g.range,
                  {head->name, head->embedding ? head->embedding->name : "", why, scope});
    return;
  }
  if (std::optional<ir::NodeClash> c = ir::claimHeadNodes(spec_, *head, owner)) {
    diags_.report(DiagID::err_hmct_node_shared, c->at,
                  {g.nodes[c->node].name, spec_.inventory.modules[c->first].name,
                   ir::tierName(spec_.resolution.modules[c->first].tier.value), head->name,
                   ir::tierName(ir::Tier::Float)});
    ok_ = false;
    return;
  }
  for (uint32_t id : head->mapping.nodes) {
    const ir::GraphNode &n = g.nodes[id];
    if (!n.unnamed && nodeTier(n) != ir::Tier::Float)
      nodes_.set(n.name, ir::Tier::Float);
  }
}

// Without an inventory: the lowering of the symbolic resolution the precedence pass stored
// (ir::Resolution::symbolic, passes/SymbolicResolution.h).
// A type entry a rule gives a tier (a type override, or `protect type X`: the whole op type stays
// float) is an op_config entry; a name entry a rule gives a tier is a node_config entry, which
// needs an exact name.
void HmctBuilder::asWritten() {
  const std::vector<ir::SymbolicEntry> &entries = spec_.resolution.symbolic;
  for (const passes::SymbolicEntry &e : entries)
    if (e.isType)
      typeEntry(e);
  if (spec_.defaultTier() == ir::Tier::DualInt16)
    for (const char *t : {"Conv", "ConvTranspose", "Gemm", "MatMul"})
      ops_.emplace(t, ir::Tier::DualInt16);
  for (const passes::SymbolicEntry &e : entries)
    if (!e.isType)
      nameEntry(e);
  for (const auto &[name, tier] : written_)
    nodes_.set(name, tier);
}

void HmctBuilder::typeEntry(const passes::SymbolicEntry &e) {
  ir::Decision::Source src = e.module.tier.from.source;
  if (src == ir::Decision::TypeOverride || src == ir::Decision::Protect)
    ops_[e.text] = e.module.tier.value;
}

void HmctBuilder::nameEntry(const passes::SymbolicEntry &e) {
  ir::Decision::Source src = e.module.tier.from.source;
  if (src == ir::Decision::BuiltIn || src == ir::Decision::Default)
    return; // no rule gives the node a tier: the model-wide settings hold
  // A name with escaped glob characters ("a\\*") is one literal node name, not a pattern.
  std::optional<std::string> name = ir::literalName(*e.selectors.front());
  if (!name) {
    for (const ir::Selector *s : e.selectors)
      diags_.report(DiagID::err_emit_needs_inventory, s->range, {"hmct", s->text});
    ok_ = false;
    return;
  }
  written_[std::move(*name)] = e.module.tier.value;
}

void HmctBuilder::readMarch() {
  if (const ir::Option *o = target_.option("march")) {
    if (o->values.size() != 1 || !hmct::isKnownMarch(o->values[0].text))
      bad(o, "unknown march; HMCT knows nash, nash-b, nash-b-lite, nash-b-plus, nash-e, nash-m, "
             "nash-h, nash-p, "
             "expt, bayes*, bernoulli*");
    else
      march_ = o->values[0].text;
  }
}

// The plan from the resolution (with an inventory) or from the rules as written.
void HmctBuilder::plan() {
  if (spec_.resolution.done && spec_.inventory.present()) {
    checkLiteralNames();
    if (ok_ && spec_.onnx.present())
      fromGraph();
    else if (ok_)
      fromInventory();
  } else {
    asWritten();
  }
}

// node_config is written as text, byte for byte what Json::dump(2) gives for the object (a key
// with a character JSON escapes goes through nlohmann itself), without a JSON tree of tens of
// thousands of entries.
void HmctBuilder::writeNodeConfig() {
  std::string &out = nodeText_;
  const auto &entries = nodes_.sorted();
  size_t bytes = 0;
  for (const auto &entry : entries)
    bytes += entry.first.size() + 64; // the name, its quotes and the longest member text below
  out.reserve(bytes);
  for (const auto &[name, tier] : entries) {
    if (!hmct::isValidUtf8(name)) {
      diags_.report(DiagID::err_hmct_bad_node_name, target_.range, {sanitizeForTerminal(name)});
      ok_ = false;
      continue;
    }
    out += out.empty() ? "    " : ",\n    ";
    bool plain = std::none_of(name.begin(), name.end(), [](char c) {
      return c == '"' || c == '\\' || static_cast<unsigned char>(c) < 0x20;
    });
    if (plain) {
      out += '"';
      out += name;
      out += '"';
    } else {
      out += Json(std::string(name)).dump();
    }
    if (tier == ir::Tier::DualInt16) {
      out += ": {\n      \"input0\": \"int16\",\n      \"input1\": \"int16\"\n    }";
    } else {
      out += ": {\n      \"qtype\": \"";
      out += hmct::qtypeForTier(tier);
      out += "\"\n    }";
    }
  }
}

// Every qtype against the march (also checked by the capability pass; this covers
// op/all_node_type).
bool HmctBuilder::checkMarch(const Json &mc) {
  if (march_.empty())
    return true;
  auto check = [&](const std::string &q, const std::string &where) {
    if (!hmct::qtypeAllowedOnMarch(march_, q)) {
      diags_.report(DiagID::err_hmct_bad_option, target_.option("march")->values[0].range,
                    {"march", "qtype '" + q + "' (" + where + ") is not available on march '" +
                                  march_ + "'"});
      ok_ = false;
    }
  };
  check(mc["all_node_type"].get<std::string>(), "all_node_type");
  for (const auto &[type, tier] : ops_)
    check(hmct::qtypeForTier(tier), "op_config." + type);
  return ok_;
}

// The plan as the vendor document: sections in order, empty ones left out.
bool HmctBuilder::lower(const Json &mc, Json &root) {
  root = Json::object();
  root["model_config"] = mc;
  if (!ops_.empty()) {
    Json ops = Json::object();
    for (const auto &[type, tier] : ops_) // std::map: sorted by bytes = code points for UTF-8
      ops[type] = Json{{"qtype", hmct::qtypeForTier(tier)}};
    root["op_config"] = ops;
  }
  if (!nodes_.empty())
    writeNodeConfig(); // the last section: run() appends it to the dumped root
  return ok_ && checkMarch(mc);
}

// HMCT strips `//...` and `/*...*/` from a quant_config file by regex, inside strings too. JSON
// may spell '/' as "\/" and '*' as "\u002a", which the regex never matches and json.loads reads
// back unchanged, so a name such as `/a//b` reaches HMCT intact. Every change involves a '/', so
// a text without one is taken as it is, without a pass over its bytes.
void protectCommentMarkers(std::string &&json, std::string &out) {
  if (!std::memchr(json.data(), '/', json.size())) {
    out = std::move(json);
    return;
  }
  out.clear();
  out.reserve(json.size() + 1); // and the final newline run() appends
  bool inString = false;
  for (size_t i = 0; i < json.size(); ++i) {
    size_t run = i; // characters none of the cases below looks at are copied at once
    while (run < json.size() && json[run] != '"' && json[run] != '\\' && json[run] != '/' &&
           json[run] != '*')
      ++run;
    out.append(json, i, run - i);
    if (run == json.size())
      break;
    i = run;
    char c = json[i];
    char prev = i > 0 ? json[i - 1] : '\0', next = i + 1 < json.size() ? json[i + 1] : '\0';
    if (!inString) {
      inString = c == '"';
    } else if (c == '\\') {
      out += c;
      out += json[++i];
      continue;
    } else if (c == '"') {
      inString = false;
    } else if (c == '/' && (next == '/' || next == '*' || prev == '/')) {
      out += "\\/";
      continue;
    } else if (c == '*' && prev == '/') {
      out += "\\u002a";
      continue;
    }
    out += c;
  }
}

bool HmctBuilder::run(OutputContext &out) {
  readMarch();
  Json mc = modelConfig();
  plan();
  Json root;
  if (!ok_ || !lower(mc, root))
    return false;
  try {
    std::string text = root.dump(2, ' ', false, Json::error_handler_t::strict);
    if (!nodeText_.empty()) { // in place of the root's closing "\n}"
      text.resize(text.size() - 2);
      text.reserve(text.size() + nodeText_.size() + 32);
      text += ",\n  \"node_config\": {\n";
      text += nodeText_;
      text += "\n  }\n}";
      nodeText_ = std::string();
    }
    protectCommentMarkers(std::move(text), out.buffer());
    out.buffer() += '\n';
  } catch (const nlohmann::json::exception &e) {
    diags_.report(DiagID::err_internal, target_.range, {std::string("nlohmann_json: ") + e.what()});
    return false;
  }
  return true;
}

// The target's modelwise_search / layerwise_search block as HMCT should read it (the default
// metric filled in), from the spec alone.
vendors::HmctSearch expectedSearch(const ir::Target &target, const char *key) {
  vendors::HmctSearch s;
  const ir::Option *o = target.option(key);
  if (!o)
    return s;
  s.present = true;
  s.metric = "cosine-similarity";
  for (const ir::Option &c : o->children) {
    const ir::Value &v = c.values.front();
    if (c.key == "metric" || c.key == "qtype")
      (c.key == "metric" ? s.metric : s.qtype) = v.text;
    else
      (c.key == "similarity" ? s.similarity : s.topk) = v.number;
  }
  return s;
}

// Translation validation of the search blocks: HMCT's reading of the written model_config
// (vendors::hmctSearches) against the target's settings; a difference is reported at the setting
// and no file is written.
bool searchesReadBack(const ir::Target &target, const hmct::QuantConfigDoc &doc,
                      DiagnosticEngine &diags) {
  vendors::HmctSearches read = vendors::hmctSearches(doc);
  bool ok = true;
  for (const char *key : {"modelwise_search", "layerwise_search"}) {
    const vendors::HmctSearch &got = key[0] == 'm' ? read.modelwise : read.layerwise;
    std::string diff = vendors::hmctSearchDifference(expectedSearch(target, key), got);
    if (diff.empty())
      continue;
    const ir::Option *o = target.option(key);
    diags.report(DiagID::err_hmct_bad_option, o ? o->range : target.range,
                 {key, "HMCT would read the written file differently (target vs file " + diff +
                           "); no file is written"});
    ok = false;
  }
  return ok;
}

} // namespace

bool HmctEmitter::emit(const ir::Spec &spec, const ir::Target &target, OutputContext &out,
                       DiagnosticEngine &diags) {
  if (!HmctBuilder(spec, target, diags).run(out)) // freed before the document below is built
    return false;
  // Verify: the activation recipe HMCT reads from the written model_config is model-wide, and
  // weights have no keys at all; every rule's recipe field it does not apply is reported. The
  // whole document is parsed once, here, and handed to the read-back (vendors/Parsed.h).
  hmct::QuantConfigDoc doc;
  std::string error;
  uint32_t line = 0, column = 0;
  if (!hmct::parseQuantConfigText(out.buffer(), doc, error, line, column))
    return true; // the reader reports it (err_hmct_refused)
  reportUncarriedRecipes(spec, target, {vendors::RoleReading{}, vendors::hmctActivation(doc)},
                         DiagID::warn_hmct_recipe_not_carried, diags);
  if (!searchesReadBack(target, doc, diags))
    return false;
  vendors::rememberParsed(out.buffer(), 0, std::move(doc));
  return true;
}

} // namespace qspec::emit
