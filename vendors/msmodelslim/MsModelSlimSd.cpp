// msModelSlim's multimodal_sd_modelslim_v1 reading; see MsModelSlimSd.h.
#include "vendors/msmodelslim/MsModelSlimSd.h"

#include <cstdio>
#include <cstdlib>
#include <map>

namespace qspec {

namespace {

// A number by value, as both readings compare it.
std::string numberText(double x) {
  char buf[40];
  std::snprintf(buf, sizeof buf, "%.17g", x);
  return buf;
}

} // namespace

namespace msmodelslim {

namespace {

bool yamlTrue(const std::string &t) { return t == "true" || t == "True" || t == "TRUE"; }

} // namespace

std::string sdValueText(const YamlValue &v) {
  switch (v.kind) {
  case YamlValue::Null:
    return "null";
  case YamlValue::Scalar: {
    std::string t = v.scalarType();
    if (t == "int" || t == "float")
      return numberText(std::strtod(v.text.c_str(), nullptr));
    if (t == "bool")
      return yamlTrue(v.text) || v.text == "yes" || v.text == "Yes" || v.text == "on" ? "true"
                                                                                      : "false";
    return t == "null" ? "null" : "'" + v.text + "'";
  }
  case YamlValue::Sequence: {
    std::string s = "[";
    for (const YamlValue &e : v.items)
      s += (s.size() > 1 ? ", " : "") + sdValueText(e);
    return s + "]";
  }
  case YamlValue::Mapping: {
    std::map<std::string, std::string> sorted;
    for (const auto &[k, x] : v.map)
      sorted[k] = sdValueText(x);
    std::string s = "{";
    for (const auto &[k, x] : sorted)
      s += (s.size() > 1 ? ", " : "") + k + ": " + x;
    return s + "}";
  }
  }
  return "";
}

SdConfig readSdConfig(const YamlValue &root) {
  SdConfig c;
  const YamlValue *spec = root.get("spec");
  const YamlValue *sd = spec ? spec->get("multimodal_sd_config") : nullptr;
  if (!sd || sd->kind != YamlValue::Mapping)
    return c;
  if (const YamlValue *d = sd->get("dump_config"); d && d->kind == YamlValue::Mapping) {
    if (const YamlValue *e = d->get("enable_dump"); e && e->kind == YamlValue::Scalar)
      c.enableDump = sdValueText(*e) == "true" || e->text == "1";
    if (const YamlValue *m = d->get("capture_mode"); m && m->kind == YamlValue::Scalar)
      c.captureMode = m->text;
    if (const YamlValue *p = d->get("dump_data_dir"); p && p->kind == YamlValue::Scalar)
      c.dumpDataDir = p->text;
  }
  const YamlValue *inf = sd->get("inference_config");
  if (!inf || inf->kind == YamlValue::Null)
    inf = sd->get("model_config");
  if (inf && inf->kind == YamlValue::Mapping) {
    c.inferenceKey = inf == sd->get("inference_config") ? "inference_config" : "model_config";
    c.inferenceAt = inf;
    for (const auto &[k, v] : inf->map)
      c.inference.emplace_back(k, sdValueText(v));
  }
  return c;
}

} // namespace msmodelslim

namespace vendors {

namespace {

// A target setting's value as the emitter writes it and the service then reads it: one value a
// scalar (a number, true/false, else a string), several a list, a block a mapping.
std::string optionText(const ir::Option &o);

std::string valueText(const ir::Value &v) {
  if (v.kind == ir::Value::Number)
    return numberText(v.number);
  if (v.kind == ir::Value::Ident && (v.text == "true" || v.text == "false"))
    return v.text;
  return "'" + v.text + "'";
}

std::string optionText(const ir::Option &o) {
  if (o.isBlock) {
    std::map<std::string, std::string> sorted;
    for (const ir::Option &c : o.children)
      sorted[c.key] = optionText(c);
    std::string s = "{";
    for (const auto &[k, x] : sorted)
      s += (s.size() > 1 ? ", " : "") + k + ": " + x;
    return s + "}";
  }
  if (o.values.size() == 1)
    return valueText(o.values[0]);
  std::string s = "[";
  for (const ir::Value &v : o.values)
    s += (s.size() > 1 ? ", " : "") + valueText(v);
  return s + "]";
}

} // namespace

bool validateSdSettings(const ir::Target &target, const msmodelslim::PracticeDoc &doc,
                        DiagnosticEngine &diags) {
  msmodelslim::SdConfig read = msmodelslim::readSdConfig(doc.root);
  const ir::Option *sd = target.option("multimodal_sd_config");
  bool ok = true;
  auto check = [&](const std::string &what, const std::string &spec, const std::string &file,
                   SourceRange at) {
    if (spec == file)
      return;
    diags.report(DiagID::err_msmodelslim_sd_divergence, at.valid() ? at : target.range,
                 {what, spec, file});
    ok = false;
  };
  const ir::Option *dump = sd ? sd->child("dump_config") : nullptr;
  auto dumpSetting = [&](const char *key, const std::string &dflt, const std::string &file) {
    const ir::Option *o = dump ? dump->child(key) : nullptr;
    std::string spec = o && o->values.size() == 1 ? o->values[0].text : dflt;
    check(std::string("multimodal_sd_config.dump_config.") + key, spec, file,
          o ? o->range : SourceRange());
  };
  dumpSetting("enable_dump", "true", read.enableDump ? "true" : "false");
  dumpSetting("capture_mode", "args", read.captureMode);
  dumpSetting("dump_data_dir", "", read.dumpDataDir);
  const ir::Option *inf = nullptr;
  for (const char *key : {"inference_config", "model_config"})
    if (const ir::Option *o = sd ? sd->child(key) : nullptr; o && !inf)
      inf = o;
  check("the inference settings' block", inf ? inf->key : "", read.inferenceKey,
        inf ? inf->keyRange : SourceRange());
  std::map<std::string, std::string> file(read.inference.begin(), read.inference.end());
  std::map<std::string, const ir::Option *> spec;
  if (inf)
    for (const ir::Option &c : inf->children)
      spec.emplace(c.key, &c);
  for (const auto &[k, o] : spec) {
    auto it = file.find(k);
    check("multimodal_sd_config." + inf->key + "." + k, optionText(*o),
          it == file.end() ? "nothing" : it->second, o->range);
  }
  for (const auto &[k, v] : file)
    if (!spec.count(k))
      check("multimodal_sd_config." + read.inferenceKey + "." + k, "nothing", v,
            inf ? inf->range : SourceRange());
  return ok;
}

} // namespace vendors

} // namespace qspec
