// horizon_plugin_pytorch's reading of a QconfigSetter; see HorizonReader.h.
#include "vendors/horizon/HorizonReader.h"
#include "vendors/Parsed.h"

#include "vendors/horizon/HorizonRules.h"

#include <string_view>

namespace qspec::horizon {

const std::vector<std::string> kSetterCheckIDs = {
    "no-set-march",          "march-kwarg",        "unknown-march",    "observer",
    "global-template-first", "template-arguments", "unknown-template", "dtype"};

namespace {

bool isTemplate(const PyValue &t, const char *name) {
  return t.kind == PyValue::Call && t.text == name;
}

std::string observerMethod(const PyValue *obs) {
  if (!obs || obs->kind != PyValue::Name)
    return "";
  for (const char *m : {"histogram", "minmax", "mse"})
    if (obs->text == observerClass(m))
      return m;
  return "";
}

struct Checker {
  std::vector<SetterIssue> issues;
  void add(const char *check, const PyValue &at, std::string msg) {
    issues.push_back({check, at.line, at.column, std::move(msg)});
  }
  void dtype(const PyValue &v, const std::string &where) {
    if (!tierForDtype(v))
      add("dtype", v,
          where +
              ": not a dtype the plugin has (qint8, qint16, qint4, torch.float16, torch.float32)");
  }
  void moduleName(const PyValue &t, size_t index) {
    const PyValue *map = t.items.empty() ? nullptr : &t.items[0];
    if (!map || map->kind != PyValue::Dict) {
      add("template-arguments", t, "ModuleNameTemplate takes a dict of module-name prefixes");
      return;
    }
    if (index == 0 && (map->entries.size() != 1 || map->entries[0].first.text != ""))
      add("global-template-first", t,
          "the first template must be ModuleNameTemplate({\"\": dtype})");
    for (const auto &[k, v] : map->entries) {
      if (k.kind != PyValue::String)
        add("template-arguments", k, "a ModuleNameTemplate key is a module-name string");
      if (!tierForDtype(v)) // the place is spelled out only for a finding (45k entries)
        dtype(v, "ModuleNameTemplate[\"" + k.text + "\"]");
    }
  }
  void gemm(const PyValue &t) {
    static const std::vector<std::string> convArgs = {"input_dtype", "weight_dtype"},
                                          matmulArgs = {"input_dtypes"};
    for (const std::string &k : t.text == "ConvDtypeTemplate" ? convArgs : matmulArgs) {
      const PyValue *v = t.kwarg(k);
      if (!v) {
        add("template-arguments", t,
            t.text + " always gets " + k + "= (argument-less templates are wrong)");
        continue;
      }
      if (v->kind == PyValue::List)
        for (const PyValue &x : v->items)
          dtype(x, t.text + "." + k);
      else
        dtype(*v, t.text + "." + k);
    }
  }
  void run(const QconfigSetterDoc &doc) {
    if (!doc.marchSet)
      add("no-set-march", doc.setter, "set_march(...) must be called before prepare()");
    else if (!isKnownMarch(doc.march))
      issues.push_back({"unknown-march", doc.marchLine, doc.marchColumn,
                        "unknown march '" + doc.march + "'; known: " + knownMarchList() +
                            ", or the plugin's March.NASH_E, NASH_M, NASH_P, NASH_B"});
    if (const PyValue *m = doc.setter.kwarg("march"))
      add("march-kwarg", *m, "QconfigSetter has no march= argument; call set_march()");
    const PyValue *ref = doc.setter.kwarg("reference_qconfig");
    if (!ref || !isTemplate(*ref, "get_qconfig") || observerMethod(ref->kwarg("observer")).empty())
      add("observer", ref ? *ref : doc.setter,
          "reference_qconfig=get_qconfig(observer=...) with HistogramObserver, MinMaxObserver or "
          "MSEObserver");
    const std::vector<PyValue> &ts = doc.templates();
    if (ts.empty())
      add("global-template-first", doc.setter,
          "templates=[...] starts with ModuleNameTemplate({\"\": dtype})");
    for (size_t i = 0; i < ts.size(); ++i) {
      const PyValue &t = ts[i];
      if (isTemplate(t, "ModuleNameTemplate"))
        moduleName(t, i);
      else if (i == 0)
        add("global-template-first", t,
            "the first template must be ModuleNameTemplate({\"\": dtype})");
      if (isTemplate(t, "ConvDtypeTemplate") || isTemplate(t, "MatmulDtypeTemplate"))
        gemm(t);
      else if (!isTemplate(t, "ModuleNameTemplate") && !isTemplate(t, "SensitivityTemplate"))
        add("unknown-template", t, "'" + t.text + "' is not a template qcc writes");
    }
  }
};

std::optional<ir::Tier> tierForName(std::string_view d) {
  if (d == "qint8")
    return ir::Tier::Int8;
  if (d == "qint16")
    return ir::Tier::Int16;
  if (d == "qint4")
    return ir::Tier::Int4;
  if (d == "torch.float16")
    return ir::Tier::FP16;
  if (d == "torch.float32")
    return ir::Tier::Float;
  return std::nullopt;
}

bool isName(const PyValue *v, const char *name) {
  return v && v->kind == PyValue::Name && v->text == name;
}

} // namespace

std::vector<SetterIssue> checkQconfigSetter(const QconfigSetterDoc &doc) {
  Checker c;
  c.run(doc);
  return std::move(c.issues);
}

std::optional<ir::Tier> tierForDtype(const PyValue &v) {
  if (v.kind == PyValue::Name)
    return tierForName(v.text);
  if (v.kind != PyValue::Dict)
    return std::nullopt;
  if (const PyValue *d = v.dictGet("dtype"))
    return tierForDtype(*d);
  const PyValue *in = v.dictGet("input"), *w = v.dictGet("weight");
  if (in && in->kind == PyValue::List && in->items.size() == 2 && isName(&in->items[0], "qint16") &&
      isName(&in->items[1], "qint16") && !w)
    return ir::Tier::DualInt16;
  if (isName(in, "qint16") && isName(w, "qint16"))
    return ir::Tier::DualInt16;
  return std::nullopt;
}

// One template, indexed.
struct SetterReading::Step {
  enum Kind { Names, Conv, Matmul, Sensitivity } kind = Names;
  bool freeze = false;
  PrefixKeys keys;                   // Names: key (the doc's text) -> index in `entries`
  mutable PrefixKeys::Cursor cursor; // the last name looked up in `keys` (module() is const)
  const std::vector<std::pair<PyValue, PyValue>> *entries = nullptr;
  std::optional<ir::Tier> tier; // Conv / Matmul
  const PyValue *at = nullptr;
};

namespace {

// Conv: (input, weight) qint8/qint8 int8, qint16/qint8 int16, qint16/qint16 dual-int16.
// Matmul: [qint8, qint8] int8, [qint16, qint8] int16, [qint16, qint16] dual-int16.
std::optional<ir::Tier> gemmTier(const PyValue *a, const PyValue *b) {
  if (isName(a, "qint8") && isName(b, "qint8"))
    return ir::Tier::Int8;
  if (isName(a, "qint16") && isName(b, "qint8"))
    return ir::Tier::Int16;
  if (isName(a, "qint16") && isName(b, "qint16"))
    return ir::Tier::DualInt16;
  return std::nullopt;
}

std::optional<ir::Tier> matmulTier(const PyValue *v) {
  if (v && v->kind == PyValue::List && v->items.size() == 2)
    return gemmTier(&v->items[0], &v->items[1]);
  return gemmTier(v, v);
}

} // namespace

std::string setterActMethod(const QconfigSetterDoc &doc) {
  const PyValue *ref = doc.setter.kwarg("reference_qconfig");
  return ref ? observerMethod(ref->kwarg("observer")) : "";
}

SetterReading::SetterReading(const QconfigSetterDoc &doc)
    : march_(doc.march), actMethod_(setterActMethod(doc)) {
  for (const PyValue &t : doc.templates()) {
    Step s;
    s.at = &t;
    if (isTemplate(t, "ModuleNameTemplate") && !t.items.empty() &&
        t.items[0].kind == PyValue::Dict) {
      const PyValue *f = t.kwarg("freeze");
      s.freeze = f && f->kind == PyValue::Bool && f->text == "True";
      s.entries = &t.items[0].entries;
      s.keys = PrefixKeys(s.entries->size());
      for (size_t i = 0; i < s.entries->size(); ++i)
        s.keys.add((*s.entries)[i].first.text, i); // a repeated key: Python keeps the last
    } else if (isTemplate(t, "ConvDtypeTemplate")) {
      s.kind = Step::Conv;
      s.tier = gemmTier(t.kwarg("input_dtype"), t.kwarg("weight_dtype"));
    } else if (isTemplate(t, "MatmulDtypeTemplate")) {
      s.kind = Step::Matmul;
      s.tier = matmulTier(t.kwarg("input_dtypes"));
    } else if (isTemplate(t, "SensitivityTemplate")) {
      s.kind = Step::Sensitivity;
    } else {
      continue;
    }
    steps_.push_back(std::move(s));
  }
}

SetterReading::~SetterReading() = default;

SetterReading::Result SetterReading::module(std::string_view name, std::string_view type) const {
  bool gemm = isConvLikeType(type) || isMatmulLikeType(type);
  Result r{marchDefaultsToFloat16(march_) && !gemm ? ir::Tier::FP16 : ir::Tier::Int8, 0, 0};
  bool frozen = false;
  for (const Step &s : steps_) {
    if (frozen)
      break;
    if (s.kind == Step::Sensitivity) {
      r = Result{std::nullopt, s.at->line, s.at->column};
      continue;
    }
    if (s.kind != Step::Names) {
      if (s.kind == Step::Conv ? isConvLikeType(type) : isMatmulLikeType(type))
        r = Result{s.tier, s.at->line, s.at->column};
      continue;
    }
    // The longest key that is the name or a dotted prefix of it ("" covers everything).
    if (auto hit = s.keys.longest(name, true, s.cursor)) {
      const PyValue &v = (*s.entries)[hit->value].second;
      r = Result{tierForDtype(v), v.line, v.column};
      frozen = s.freeze;
    }
  }
  return r;
}

} // namespace qspec::horizon

namespace qspec::vendors {

bool readHorizon(const ir::Spec &spec, const ir::Target &target, std::string_view bytes,
                 VendorReading &out, DiagnosticEngine &diags) {
  out.kind = "horizon";
  // Carried per module: the dtype (tier). The observer is model-wide; the emitter reports every
  // rule's recipe the file cannot carry (warn_horizon_recipe_not_carried).
  out.fields = FieldTier;
  horizon::QconfigSetterDoc doc;
  std::string error;
  uint32_t line = 0, column = 0;
  // The emitter's recipe check already parsed these bytes when they are what it wrote.
  if (!takeParsed(bytes, 0, doc) && !horizon::parseQconfigSetter(bytes, doc, error, line, column)) {
    diags.report(DiagID::err_horizon_refused, target.range,
                 {std::to_string(line), std::to_string(column), error, "python"});
    return false;
  }
  for (const horizon::SetterIssue &i : horizon::checkQconfigSetter(doc)) {
    diags.report(DiagID::err_horizon_refused, target.range,
                 {std::to_string(i.line), std::to_string(i.column), i.message, i.check});
    return false;
  }
  const ir::Inventory &inv = spec.inventory;
  if (!spec.resolution.done || !inv.present())
    return true;
  horizon::SetterReading reading(doc);
  out.modules.resize(inv.modules.size());
  for (size_t i = 0; i < inv.modules.size(); ++i) {
    horizon::SetterReading::Result r = reading.module(inv.modules[i].name, inv.modules[i].type);
    ModuleReading &m = out.modules[i];
    m.known = r.tier.has_value();
    m.tier = r.tier.value_or(ir::Tier::Float);
    if (!reading.actMethod().empty())
      m.act.method = reading.actMethod();
    m.line = r.line;
    m.column = r.column;
  }
  return true;
}

} // namespace qspec::vendors
