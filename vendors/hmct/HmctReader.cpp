// HMCT's reading of a quant_config; see HmctReader.h.
#include "vendors/hmct/HmctReader.h"
#include "ir/GraphNames.h"
#include "vendors/Parsed.h"

#include <cstdio>
#include <cstdlib>

namespace qspec::vendors {

namespace {

const hmct::JsonValue *section(const hmct::QuantConfigDoc &doc, const char *name) {
  const hmct::JsonValue *s = doc.root.get(name);
  return s && s->kind == hmct::JsonValue::Object ? s : nullptr;
}

const hmct::JsonValue *stringMember(const hmct::JsonValue &entry, const char *key) {
  const hmct::JsonValue *v = entry.get(key);
  return v && v->kind == hmct::JsonValue::String ? v : nullptr;
}

HmctNodeQtype fromWord(const hmct::JsonValue &v) {
  return {tierForQtype(v.text), v.text, v.line, v.column};
}

} // namespace

// A node entry: "qtype", or per-operand input0/input1 (legacy InputType0/InputType1, InputType);
// both operands int16 is node-level dual-int16 (OE >= 3.2.0).
std::optional<HmctNodeQtype> hmctEntryQtype(const hmct::JsonValue &e) {
  if (e.kind != hmct::JsonValue::Object)
    return std::nullopt;
  if (const hmct::JsonValue *q = stringMember(e, "qtype"))
    return fromWord(*q);
  const hmct::JsonValue *in0 = stringMember(e, "input0"), *in1 = stringMember(e, "input1");
  if (!in0 && !in1) {
    in0 = stringMember(e, "InputType0");
    in1 = stringMember(e, "InputType1");
  }
  if (in0 || in1) {
    const hmct::JsonValue &at = in0 ? *in0 : *in1;
    std::string a = in0 ? in0->text : "", b = in1 ? in1->text : "";
    if (a == "int16" && b == "int16")
      return HmctNodeQtype{ir::Tier::DualInt16, "dual-int16", at.line, at.column};
    if (a == b)
      return HmctNodeQtype{tierForQtype(a), a, at.line, at.column};
    return HmctNodeQtype{std::nullopt, "input0=" + a + ",input1=" + b, at.line, at.column};
  }
  if (const hmct::JsonValue *q = stringMember(e, "InputType"))
    return fromWord(*q);
  return std::nullopt;
}

namespace {

// The first error HMCT's load checks find, as a diagnostic; false when there is one.
bool acceptedByHmct(const hmct::QuantConfigDoc &doc, const ir::Target &target,
                    DiagnosticEngine &diags) {
  std::string march;
  if (const ir::Option *m = target.option("march"); m && m->values.size() == 1)
    march = m->values[0].text;
  for (const hmct::Issue &i : hmct::checkQuantConfig(doc, march))
    if (i.error) {
      diags.report(
          DiagID::err_hmct_refused, target.range,
          {std::to_string(i.line), std::to_string(i.column), i.message, hmct::checkName(i.check)});
      return false;
    }
  return true;
}

// Two graphs: a module as HMCT reads its named nodes in the ONNX graph: the first node whose
// qtype differs from `expected` (so a split module is a divergence), else the first; nullopt when
// the module has no named node.
std::optional<HmctNodeQtype> graphQtype(const HmctNodes &nodes, const ir::OnnxGraph &g,
                                        const ir::NodeMapping &nm,
                                        std::optional<ir::Tier> expected) {
  std::optional<HmctNodeQtype> first;
  for (uint32_t id : nm.nodes) {
    const ir::GraphNode &n = g.nodes[id];
    if (n.unnamed)
      continue;
    HmctNodeQtype q = nodes.qtype(n.name, n.opType);
    if (expected && q.tier != *expected)
      return q;
    if (!first)
      first = q;
  }
  return first;
}

void setReading(const HmctNodeQtype &q, const RoleReading &act, ModuleReading &m) {
  m.known = q.tier.has_value();
  m.tier = q.tier.value_or(ir::Tier::Float);
  m.act = act;
  m.line = q.line;
  m.column = q.column;
}

} // namespace

std::optional<ir::Tier> tierForQtype(std::string_view q) {
  if (q == "int8")
    return ir::Tier::Int8;
  if (q == "int16")
    return ir::Tier::Int16;
  if (q == "dual-int16")
    return ir::Tier::DualInt16;
  if (q == "float16")
    return ir::Tier::FP16;
  if (q == "float32" || q == "float")
    return ir::Tier::Float;
  return std::nullopt;
}

HmctNodes::HmctNodes(const hmct::QuantConfigDoc &doc) {
  // A repeated key: json.loads keeps the last one.
  if (const hmct::JsonValue *nodes = section(doc, "node_config")) {
    nodes_ = ViewIndex<const hmct::JsonValue *>(nodes->members.size());
    for (const auto &[name, e] : nodes->members)
      nodes_.add(name, &e, true);
  }
  if (const hmct::JsonValue *ops = section(doc, "op_config"))
    for (const auto &[type, e] : ops->members)
      ops_.add(type, &e, true);
  if (const hmct::JsonValue *mc = section(doc, "model_config"))
    model_ = stringMember(*mc, "all_node_type");
}

HmctNodeQtype HmctNodes::qtype(std::string_view name, std::string_view opType) const {
  if (const hmct::JsonValue *const *e = nodes_.find(name))
    if (auto q = hmctEntryQtype(**e))
      return *q;
  if (const hmct::JsonValue *const *e = opType.empty() ? nullptr : ops_.find(opType);
      e && (*e)->kind == hmct::JsonValue::Object)
    if (const hmct::JsonValue *q = stringMember(**e, "qtype"))
      return fromWord(*q);
  if (model_)
    return fromWord(*model_);
  return {ir::Tier::Int8, "int8", 0, 0};
}

HmctNodeQtype hmctNodeQtype(const hmct::QuantConfigDoc &doc, std::string_view name,
                            std::string_view opType) {
  return HmctNodes(doc).qtype(name, opType);
}

RoleReading hmctActivation(const hmct::QuantConfigDoc &doc) {
  RoleReading r;
  const hmct::JsonValue *mc = section(doc, "model_config");
  const hmct::JsonValue *act = mc ? mc->get("activation") : nullptr;
  if (act && act->kind != hmct::JsonValue::Object)
    act = nullptr;
  if (const hmct::JsonValue *c = act ? stringMember(*act, "calibration_type") : nullptr) {
    if (c->text == "max")
      r.method = "minmax";
    else if (c->text == "kl")
      r.method = "histogram";
  }
  auto flag = [&](const char *key) -> std::optional<bool> {
    const hmct::JsonValue *v = act ? act->get(key) : nullptr;
    if (!v)
      return false; // HMCT's default
    if (v->kind == hmct::JsonValue::Bool)
      return v->text == "true";
    return std::nullopt; // a list: HMCT searches these
  };
  if (auto pc = flag("per_channel"))
    r.scope = *pc ? "per_channel" : "per_tensor";
  if (auto asym = flag("asymmetric"))
    r.symmetric = !*asym;
  return r;
}

namespace {

HmctSearch readSearch(const hmct::JsonValue *mc, const char *key) {
  HmctSearch s;
  const hmct::JsonValue *v = mc ? mc->get(key) : nullptr;
  if (!v || v->kind != hmct::JsonValue::Object)
    return s;
  s.present = true;
  s.line = v->line;
  s.column = v->column;
  // A repeated key: json.loads keeps the last one.
  auto last = [&](const char *k) {
    const hmct::JsonValue *x = nullptr;
    for (const auto &[key, value] : v->members)
      if (key == k)
        x = &value;
    return x;
  };
  auto text = [&](const char *k) {
    const hmct::JsonValue *x = last(k);
    return x && x->kind == hmct::JsonValue::String ? x->text : std::string();
  };
  s.metric = text("metric");
  if (s.metric.empty())
    s.metric = "cosine-similarity";
  s.qtype = text("qtype");
  auto number = [&](const char *k) -> std::optional<double> {
    const hmct::JsonValue *x = last(k);
    if (!x || (x->kind != hmct::JsonValue::Integer && x->kind != hmct::JsonValue::Float))
      return std::nullopt;
    return std::strtod(x->text.c_str(), nullptr);
  };
  s.similarity = number("similarity");
  s.topk = number("topk");
  return s;
}

std::string numberOr(const std::optional<double> &d) {
  if (!d)
    return "unset";
  char buf[32]; // the shortest of 15 or 17 digits that reads back as the same double
  std::snprintf(buf, sizeof buf, "%.15g", *d);
  if (std::strtod(buf, nullptr) != *d)
    std::snprintf(buf, sizeof buf, "%.17g", *d);
  return buf;
}

} // namespace

HmctSearches hmctSearches(const hmct::QuantConfigDoc &doc) {
  const hmct::JsonValue *mc = section(doc, "model_config");
  return {readSearch(mc, "modelwise_search"), readSearch(mc, "layerwise_search")};
}

std::string hmctSearchDifference(const HmctSearch &a, const HmctSearch &b) {
  if (a.present != b.present)
    return std::string("block: ") + (a.present ? "present" : "absent") + " vs " +
           (b.present ? "present" : "absent");
  if (!a.present)
    return "";
  auto text = [](const std::string &t) { return t.empty() ? std::string("unset") : t; };
  if (a.metric != b.metric)
    return "metric: '" + text(a.metric) + "' vs '" + text(b.metric) + "'";
  if (a.similarity != b.similarity)
    return "similarity: '" + numberOr(a.similarity) + "' vs '" + numberOr(b.similarity) + "'";
  if (a.topk != b.topk)
    return "topk: '" + numberOr(a.topk) + "' vs '" + numberOr(b.topk) + "'";
  if (a.qtype != b.qtype)
    return "qtype: '" + text(a.qtype) + "' vs '" + text(b.qtype) + "'";
  return "";
}

bool readHmct(const ir::Spec &spec, const ir::Target &target, std::string_view bytes,
              VendorReading &out, DiagnosticEngine &diags) {
  out.kind = "hmct";
  // Carried per node: the qtype. The activation recipe is model-wide only; the emitter reports
  // every rule's recipe the file cannot carry (warn_hmct_recipe_not_carried).
  out.fields = FieldTier;
  hmct::QuantConfigDoc doc;
  std::string error;
  uint32_t line = 0, column = 0;
  // The emitter's recipe check already parsed these bytes when they are what it wrote.
  if (!takeParsed(bytes, 0, doc) && !hmct::parseQuantConfigText(bytes, doc, error, line, column)) {
    diags.report(DiagID::err_hmct_refused, target.range,
                 {std::to_string(line), std::to_string(column), error, "json"});
    return false;
  }
  if (!acceptedByHmct(doc, target, diags))
    return false;
  const ir::Inventory &inv = spec.inventory;
  if (!spec.resolution.done || !inv.present())
    return true;
  RoleReading act = hmctActivation(doc);
  HmctNodes nodes(doc);
  out.modules.resize(inv.modules.size());
  for (size_t i = 0; i < inv.modules.size(); ++i) {
    std::optional<HmctNodeQtype> read = spec.onnx.present()
                                            ? graphQtype(nodes, spec.onnx, spec.onnx.modules[i],
                                                         spec.resolution.modules[i].tier.value)
                                            : nodes.qtype(inv.modules[i].name, inv.modules[i].type);
    if (read) // else no named node in the ONNX graph: HMCT's rules do not reach the module
      setReading(*read, act, out.modules[i]);
  }
  // Two graphs: the tied output head, as HMCT reads its nodes (expected float).
  if (std::optional<ir::GraphHead> head = ir::graphHead(spec);
      head && ir::unmappedReason(spec.onnx, head->mapping, "HMCT").empty()) {
    out.headName = head->name;
    if (auto read = graphQtype(nodes, spec.onnx, head->mapping, ir::Tier::Float))
      setReading(*read, act, out.head);
  }
  return true;
}

} // namespace qspec::vendors
