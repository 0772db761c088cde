// msModelSlim's reading of a practice; see MsModelSlimReader.h.
#include "vendors/msmodelslim/MsModelSlimReader.h"

#include "ir/Select.h"
#include "vendors/msmodelslim/MsModelSlimBraces.h"
#include "vendors/msmodelslim/MsModelSlimRules.h"
#include "vendors/msmodelslim/MsModelSlimV0.h"

#include <memory>

namespace qspec::vendors {

namespace {

using msmodelslim::YamlValue;

// One `linear_quant` of spec.process, as msModelSlim applies it.
struct Processor {
  RoleReading weight, act;
  ir::Tier tier = ir::Tier::Int8;
  uint32_t line = 0, column = 0;
  std::vector<const YamlValue *> include, exclude; // scalar entries
};

RoleReading roleOf(const YamlValue *q) {
  RoleReading r;
  if (!q)
    return r;
  auto word = [&](const char *k, ReadingWord &into) {
    if (const YamlValue *v = q->get(k); v && v->kind == YamlValue::Scalar)
      into = v->text;
  };
  word("dtype", r.dtype);
  word("scope", r.scope);
  word("method", r.method);
  if (const YamlValue *v = q->get("symmetric"); v && v->scalarType() == "bool")
    r.symmetric = v->text == "true" || v->text == "True" || v->text == "TRUE";
  return r;
}

std::vector<const YamlValue *> entries(const YamlValue *list) {
  std::vector<const YamlValue *> out;
  if (list && list->kind == YamlValue::Sequence)
    for (const YamlValue &e : list->items)
      if (e.kind == YamlValue::Scalar)
        out.push_back(&e);
  return out;
}

// `autoround`: an autoround_quant strategy, whose dtypes that processor reads its own way
// (msmodelslim::autoroundDtype: an unknown weight dtype as int8, act dtype as float).
Processor processorOf(const YamlValue &item, bool autoround = false) {
  Processor p;
  p.line = item.line;
  p.column = item.col;
  const YamlValue *qc = item.get("qconfig");
  p.weight = roleOf(qc ? qc->get("weight") : nullptr);
  if (const YamlValue *act = qc ? qc->get("act") : nullptr)
    p.act = roleOf(act);
  else
    p.act.dtype = "float"; // W8A16: activations stay float
  if (autoround) {
    using msmodelslim::Role;
    if (p.weight.dtype)
      p.weight.dtype = msmodelslim::autoroundDtype(Role::Weight, *p.weight.dtype);
    if (p.act.dtype)
      p.act.dtype = msmodelslim::autoroundDtype(Role::Act, *p.act.dtype);
  }
  p.tier = p.weight.dtype && (*p.weight.dtype == "int4" || *p.weight.dtype == "mxfp4")
               ? ir::Tier::Int4
               : ir::Tier::Int8;
  const YamlValue *inc = item.get("include");
  static const YamlValue star = [] {
    YamlValue v;
    v.kind = YamlValue::Scalar;
    v.text = "*";
    return v;
  }();
  if (!inc || inc->kind == YamlValue::Null)
    p.include = {&star};
  else
    p.include = entries(inc);
  p.exclude = entries(item.get("exclude"));
  return p;
}

// The linear_quant processors of a process list in run order, `group` containers entered (their
// children run in order on one forward pass).
void collectLinearQuants(const YamlValue &list, std::vector<Processor> &out) {
  if (list.kind != YamlValue::Sequence)
    return;
  for (const YamlValue &item : list.items) {
    const YamlValue *t = item.get("type");
    if (t && t->text == "linear_quant")
      out.push_back(processorOf(item));
    else if (const YamlValue *s =
                 t && t->text == "autoround_quant" ? item.get("strategies") : nullptr;
             s && s->kind == YamlValue::Sequence)
      for (const YamlValue &strategy : s->items) // the first strategy that selects a Linear
        out.push_back(processorOf(strategy, true));
    else if (const YamlValue *configs = t && t->text == "group" ? item.get("configs") : nullptr)
      collectLinearQuants(*configs, out);
  }
}

std::vector<Processor> linearQuants(const YamlValue &root) {
  std::vector<Processor> out;
  const YamlValue *spec = root.get("spec");
  if (const YamlValue *process = spec ? spec->get("process") : nullptr)
    collectLinearQuants(*process, out);
  return out;
}

bool linearLike(const ir::Module &m) { return m.type.empty() || m.type == "Linear"; }

// The modules the entries select (exact name first, then the glob with msModelSlim's meaning),
// marked with `stamp` in `marks`.
void mark(const ir::ModuleSelector &sel, const std::vector<const YamlValue *> &list, uint32_t stamp,
          std::vector<uint32_t> &marks) {
  for (const YamlValue *e : list) {
    std::string err;
    auto p = Pattern::compile(msmodelslim::vendorPatternText(e->text), err);
    if (!p) {
      if (const ir::Module *m = sel.inventory().find(e->text))
        marks[m - sel.inventory().modules.data()] = stamp;
      continue;
    }
    for (uint32_t m : sel.selectWritten(e->text, *p))
      marks[m] = stamp;
  }
}

void readModules(const ir::Spec &spec, const std::vector<Processor> &procs, VendorReading &out) {
  const ir::Inventory &inv = spec.inventory;
  std::unique_ptr<ir::ModuleSelector> own;
  const ir::ModuleSelector *sel = ir::sharedSelector(spec);
  if (!sel || &sel->inventory() != &inv) {
    own = std::make_unique<ir::ModuleSelector>(inv);
    sel = own.get();
  }
  out.modules.assign(inv.modules.size(), ModuleReading{});
  for (size_t m = 0; m < inv.modules.size(); ++m)
    out.modules[m].known = linearLike(inv.modules[m]);
  std::vector<bool> taken(inv.modules.size(), false);
  std::vector<uint32_t> excluded(inv.modules.size(), 0), included(inv.modules.size(), 0);
  for (uint32_t i = 0; i < procs.size(); ++i) {
    const Processor &p = procs[i];
    mark(*sel, p.exclude, i + 1, excluded);
    mark(*sel, p.include, i + 1, included);
    for (size_t m = 0; m < inv.modules.size(); ++m) {
      if (taken[m] || included[m] != i + 1 || excluded[m] == i + 1 || !out.modules[m].known)
        continue;
      taken[m] = true;
      ModuleReading &r = out.modules[m];
      r.tier = p.tier;
      r.weight = p.weight;
      r.act = p.act;
      r.line = p.line;
      r.column = p.column;
    }
  }
}

} // namespace

std::vector<LinearQuantPatterns> linearQuantPatterns(std::string_view practice) {
  SourceManager sm;
  DiagnosticEngine diags(sm);
  msmodelslim::PracticeDoc doc;
  std::vector<LinearQuantPatterns> out;
  if (!msmodelslim::parsePractice(std::string(practice), 0, doc, diags))
    return out;
  for (const Processor &p : linearQuants(doc.root)) {
    out.emplace_back();
    for (const YamlValue *e : p.include)
      out.back().include.push_back(e->text);
    for (const YamlValue *e : p.exclude)
      out.back().exclude.push_back(e->text);
  }
  return out;
}

bool readMsModelSlim(const ir::Spec &spec, const ir::Target &target, std::string_view bytes,
                     VendorReading &out, DiagnosticEngine &diags) {
  out.kind = "msmodelslim";
  out.fields = FieldWeightDtype | FieldWeightScope | FieldWeightSymmetric | FieldWeightMethod |
               FieldActDtype | FieldActScope | FieldActSymmetric | FieldActMethod;
  msmodelslim::PracticeDoc doc;
  DiagnosticEngine parseDiags(diags.sourceManager());
  if (!msmodelslim::parsePractice(std::string(bytes), 0, doc, parseDiags)) {
    diags.report(DiagID::err_msmodelslim_refused, target.range, {"the YAML does not parse", "1"});
    return false;
  }
  bool ok = true;
  for (const msmodelslim::Issue &i : msmodelslim::checkPractice(doc))
    if (i.error) {
      diags.report(DiagID::err_msmodelslim_refused, target.range,
                   {i.message, std::to_string(i.line)});
      ok = false;
    }
  if (!ok)
    return false;
  if (doc.apiversion == "modelslim_v0") {
    readMsModelSlimV0(spec, doc, out); // MsModelSlimV0.h
    return true;
  }
  if (spec.inventory.present() && spec.resolution.done)
    readModules(spec, linearQuants(doc.root), out);
  return true;
}

} // namespace qspec::vendors
