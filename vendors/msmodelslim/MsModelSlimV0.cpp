// msModelSlim's v0 practice schema and its reading; see MsModelSlimV0.h.
#include "vendors/msmodelslim/MsModelSlimV0.h"

#include "ir/Regex.h"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <utility>

namespace qspec::msmodelslim {

const std::vector<std::string> &v0CalibKeys() {
  static const std::vector<std::string> k = {
      "w_bit",      "a_bit", "act_method",          "w_method",      "mm_tensor", "w_sym",
      "is_dynamic", "pdmix", "disable_last_linear", "disable_names", "co_sparse", "is_lowbit"};
  return k;
}

namespace {

bool boolOf(const YamlValue &v, bool fallback) {
  if (v.scalarType() != "bool")
    return fallback;
  return v.text == "true" || v.text == "True" || v.text == "TRUE";
}

int intOf(const YamlValue &v, int fallback) {
  return v.scalarType() == "int" ? static_cast<int>(std::strtol(v.text.c_str(), nullptr, 0))
                                 : fallback;
}

} // namespace

V0Calib readV0Calib(const YamlValue &root) {
  const YamlValue *spec = root.get("spec");
  return readCalibCfg(spec ? spec->get("calib_cfg") : nullptr);
}

V0Calib readCalibCfg(const YamlValue *cfg) {
  V0Calib c;
  if (!cfg || cfg->kind != YamlValue::Mapping)
    return c;
  c.at = cfg;
  for (const auto &[k, v] : cfg->map) {
    if (k == "w_bit")
      c.wBit = intOf(v, c.wBit);
    else if (k == "a_bit")
      c.aBit = intOf(v, c.aBit);
    else if (k == "act_method")
      c.actMethod = intOf(v, c.actMethod);
    else if (k == "w_method" && v.kind == YamlValue::Scalar)
      c.wMethod = v.text;
    else if (k == "mm_tensor")
      c.mmTensor = boolOf(v, c.mmTensor);
    else if (k == "w_sym")
      c.wSym = boolOf(v, c.wSym);
    else if (k == "is_dynamic")
      c.isDynamic = boolOf(v, c.isDynamic);
    else if (k == "pdmix")
      c.pdmix = boolOf(v, c.pdmix);
    else if (k == "co_sparse")
      c.coSparse = boolOf(v, c.coSparse);
    else if (k == "is_lowbit")
      c.isLowbit = boolOf(v, c.isLowbit);
    else if (k == "disable_last_linear")
      c.disableLastLinear = boolOf(v, c.disableLastLinear);
    else if (k == "disable_names" && v.kind == YamlValue::Sequence)
      for (const YamlValue &e : v.items)
        if (e.kind == YamlValue::Scalar)
          c.disableNames.push_back(&e);
  }
  return c;
}

namespace {

// What QuantConfig refuses, or quantizes otherwise than the roles say, in the sparse scheme and
// around it (config_utils: check_sparse_config, check_and_set_w4a8_dynamic_config, the pdmix and
// w_sym checks, WeightQuantMethod.check_quant_type); "" when none applies. `c` has co_sparse's
// replacements applied.
std::string sparseProblem(const V0Calib &c) {
  bool w4a8 = c.wBit == 4 && c.aBit == 8;
  bool sparse = c.coSparse || (c.isLowbit && c.wBit == 4);
  if (c.aBit == 8 && !c.wSym)
    return "w_sym false with a_bit 8 (QuantConfig: w_sym should be True when a_bit = 8)";
  if (c.isLowbit && !w4a8)
    return "is_lowbit with w_bit " + std::to_string(c.wBit) + " and a_bit " +
           std::to_string(c.aBit) + " (qspec reads is_lowbit in the w4a8 sparse scheme)";
  if (w4a8 && !sparse)
    return "w_bit 4 with a_bit 8 without co_sparse or is_lowbit (QuantConfig: W4A8_DYNAMIC "
           "should be used with per-group quantization and dynamic quantization)";
  if (!sparse)
    return "";
  if (c.isDynamic || c.pdmix)
    return std::string(c.isDynamic ? "is_dynamic" : "pdmix") +
           " with the sparse scheme (W8A8S quantizes activations per_tensor)";
  std::string m = c.wMethod;
  std::transform(m.begin(), m.end(), m.begin(), [](unsigned char ch) { return std::tolower(ch); });
  if (m != "minmax")
    return "w_method '" + c.wMethod + "' with the sparse scheme (W8A8S takes MinMax)";
  return "";
}

} // namespace

bool v0Recipe(const V0Calib &given, ir::Tier &tier, vendors::RoleReading &weight,
              vendors::RoleReading &act, std::string &why) {
  V0Calib c = given;
  if (c.isLowbit)
    c.coSparse = false; // check_sparse_config: is_lowbit wins
  if (c.coSparse) {     // ... and co_sparse replaces the bits
    c.wBit = 4;
    c.aBit = 8;
  }
  if (c.wBit != 8 && c.wBit != 4) {
    why = "w_bit " + std::to_string(c.wBit) + " (qspec reads w_bit 8 and 4)";
    return false;
  }
  tier = c.wBit == 4 ? ir::Tier::Int4 : ir::Tier::Int8;
  weight.dtype = c.wBit == 4 ? "int4" : "int8";
  weight.scope = c.mmTensor ? "per_tensor" : "per_channel";
  weight.symmetric = c.wSym;
  std::string m = c.wMethod;
  std::transform(m.begin(), m.end(), m.begin(), [](unsigned char ch) { return std::tolower(ch); });
  if (m != "minmax" && m != "gptq" && m != "hqq") {
    why = "w_method '" + c.wMethod + "' (qspec reads MinMax, GPTQ and HQQ)";
    return false;
  }
  weight.method = m;
  if (c.aBit == 8 || c.aBit == 16)
    why = sparseProblem(c);
  if (!why.empty())
    return false;
  if (c.aBit == 16) {
    act.dtype = "float";
    return true;
  }
  if (c.aBit != 8) {
    why = "a_bit " + std::to_string(c.aBit) + " (qspec reads a_bit 8 and 16)";
    return false;
  }
  if (c.isDynamic && c.pdmix) {
    why = "is_dynamic together with pdmix";
    return false;
  }
  act.dtype = "int8";
  act.scope = c.isDynamic ? "per_token" : c.pdmix ? "pd_mix" : "per_tensor";
  act.symmetric = c.isDynamic; // static activations carry an offset
  if (c.actMethod != 1 && c.actMethod != 2) {
    why =
        "act_method " + std::to_string(c.actMethod) + " (qspec reads 1, minmax, and 2, histogram)";
    return false;
  }
  act.method = c.actMethod == 2 ? "histogram" : "minmax";
  return true;
}

namespace {

// anti_method and the processor of the same algorithm (AntiOutlier.process: m1 smooth_ln_fcs,
// m4 iter_smooth, m6 flex_smooth); m2 (outlier suppression), m3 (AWQ) and m5 (CBQ) have none.
const std::pair<const char *, const char *> kAntiMethods[] = {
    {"m6", "flex_smooth_quant"}, {"m4", "iter_smooth"}, {"m1", "smooth_quant"}};

} // namespace

namespace {

// Python's type name of a YAML value as PyYAML's SafeLoader builds it.
std::string pyType(const YamlValue &v) {
  if (v.kind == YamlValue::Mapping)
    return "dict";
  if (v.kind == YamlValue::Sequence)
    return "list";
  std::string t = v.kind == YamlValue::Null ? "null" : v.scalarType();
  return t == "null" ? "NoneType" : t;
}

// One argument's check_type / check_number, in ascend_utils' words; "" when it passes.
std::string argProblem(const YamlValue &v, const std::string &param, const char *type,
                       const char *lo = nullptr, const char *hi = nullptr) {
  std::string t = pyType(v);
  if (t != type)
    return param + " must be " + type + ", not " + t + ".";
  if (!lo)
    return "";
  double x = std::strtod(v.text.c_str(), nullptr);
  if (x > std::strtod(hi, nullptr))
    return param + " = " + v.text + " is larger than " + hi + ".";
  if (x < std::strtod(lo, nullptr))
    return param + " = " + v.text + " is smaller than " + lo + ".";
  return "";
}

struct Arg {
  const char *name, *type, *lo, *hi;
};

// QuantConfig.__init__'s keywords (and use_fa_quant / fa_amp, which the plugin pops first), with
// the checks config_utils applies whatever the scheme; fraction and sigma_factor are checked as
// floats in every scheme, pr only in the low-bit one (below).
const Arg kCalibArgs[] = {{"w_bit", "int", nullptr, nullptr},
                          {"a_bit", "int", nullptr, nullptr},
                          {"act_method", "int", "1", "3"},
                          {"w_method", "str", nullptr, nullptr},
                          {"disable_names", "list", nullptr, nullptr},
                          {"pr", nullptr, nullptr, nullptr},
                          {"mm_tensor", "bool", nullptr, nullptr},
                          {"dev_id", nullptr, nullptr, nullptr},
                          {"fraction", "float", "0.01", "0.1"},
                          {"nonuniform", "bool", nullptr, nullptr},
                          {"co_sparse", "bool", nullptr, nullptr},
                          {"w_sym", "bool", nullptr, nullptr},
                          {"is_lowbit", "bool", nullptr, nullptr},
                          {"do_smooth", "bool", nullptr, nullptr},
                          {"use_sigma", "bool", nullptr, nullptr},
                          {"sigma_factor", "float", "3.0", "4.0"},
                          {"disable_last_linear", "bool", nullptr, nullptr},
                          {"use_kvcache_quant", "bool", nullptr, nullptr},
                          {"open_outlier", "bool", nullptr, nullptr},
                          {"is_dynamic", "bool", nullptr, nullptr},
                          {"group_size", "int", nullptr, nullptr},
                          {"percdamp", "float", "0", "1"},
                          {"pdmix", nullptr, nullptr, nullptr},
                          {"use_fa_quant", nullptr, nullptr, nullptr},
                          {"fa_amp", nullptr, nullptr, nullptr}};
const Arg kAntiArgs[] = {
    {"w_bit", "int", nullptr, nullptr},       {"a_bit", "int", nullptr, nullptr},
    {"anti_method", "str", nullptr, nullptr}, {"dev_id", nullptr, nullptr, nullptr},
    {"w_sym", "bool", nullptr, nullptr},      {"disable_anti_names", "list", nullptr, nullptr},
    {"flex_config", "dict", nullptr, nullptr}};

template <size_t N>
void checkArgs(const YamlValue &cfg, const Arg (&args)[N], const char *ctor,
               const std::function<void(uint32_t, uint32_t, std::string)> &report) {
  for (const auto &[k, v] : cfg.map) {
    const Arg *a = nullptr;
    for (const Arg &x : args)
      if (k == x.name)
        a = &x;
    if (!a) {
      // dev_type is passed by the plugin itself: a second one is a TypeError too.
      report(v.keyLine, v.keyCol,
             std::string(ctor) + ".__init__() got " +
                 (k == "dev_type" ? "multiple values for keyword argument '"
                                  : "an unexpected keyword argument '") +
                 k + "'");
      continue;
    }
    if (!a->type || (v.kind == YamlValue::Null && std::string(a->type) == "list"))
      continue; // unchecked, or None for a list QuantConfig defaults
    std::string param = k == "sigma_factor" ? "sigma factor" : k;
    if (std::string why = argProblem(v, param, a->type, a->lo, a->hi); !why.empty())
      report(v.line, v.col, why);
  }
}

// Calibrator's keyword arguments besides model, cfg and calib_data: disable_level (`L0`, `L<n>`),
// all_tensors, mix_cfg (a dict whose values are ALLOWED_MIX_TYPES).
void checkCalibParams(const YamlValue &params,
                      const std::function<void(uint32_t, uint32_t, std::string)> &report) {
  static const Arg args[] = {{"disable_level", "str", nullptr, nullptr},
                             {"all_tensors", nullptr, nullptr, nullptr},
                             {"mix_cfg", nullptr, nullptr, nullptr}};
  checkArgs(params, args, "Calibrator", report);
  const YamlValue *level = params.get("disable_level");
  if (level && pyType(*level) == "str" && !ir::Regex("L(0|[1-9][0-9]*)").fullMatch(level->text))
    report(level->line, level->col, "Please check the `disable_level` configuration.");
  const YamlValue *mix = params.get("mix_cfg");
  bool empty = mix && ((mix->kind == YamlValue::Sequence && mix->items.empty()) ||
                       (mix->kind == YamlValue::Scalar && mix->text.empty()));
  if (!mix || mix->kind == YamlValue::Null || empty)
    return; // Calibrator checks a mix_cfg that is truthy only
  if (mix->kind != YamlValue::Mapping)
    return report(mix->line, mix->col, "mix_cfg must be a dict if provided.");
  for (const auto &[k, v] : mix->map)
    if (v.kind != YamlValue::Scalar ||
        !ir::Regex("float|w8a8|w8a16|w8a8_dynamic|w4a8_dynamic").fullMatch(v.text))
      report(
          v.line, v.col,
          "mix_cfg entry '" + k + "': config '" + v.text +
              "' is not among ALLOWED_MIX_TYPES (float, w4a8_dynamic, w8a16, w8a8, w8a8_dynamic)");
}

} // namespace

void checkV0Arguments(const YamlValue &spec,
                      const std::function<void(uint32_t, uint32_t, std::string)> &report) {
  if (const YamlValue *cfg = spec.get("calib_cfg"); cfg && cfg->kind == YamlValue::Mapping) {
    checkArgs(*cfg, kCalibArgs, "QuantConfig", report);
    V0Calib c = readCalibCfg(cfg);
    const YamlValue *pr = cfg->get("pr");
    // check_sparse_config checks pr in the low-bit scheme (is_lowbit, w_bit 4), co_sparse sets it.
    if (pr && c.isLowbit && c.wBit == 4)
      if (std::string why = argProblem(*pr, "pr", "float", "0", "1"); !why.empty())
        report(pr->line, pr->col, why);
    const YamlValue *ws = cfg->get("w_sym");
    if (ws && c.aBit == 8 && !c.wSym)
      report(ws->line, ws->col, "w_sym should be True when a_bit = 8, please check it");
  }
  if (const YamlValue *p = spec.get("calib_params"); p && p->kind == YamlValue::Mapping)
    checkCalibParams(*p, report);
  if (const YamlValue *cfg = spec.get("anti_cfg"); cfg && cfg->kind == YamlValue::Mapping) {
    checkArgs(*cfg, kAntiArgs, "AntiOutlierConfig", report);
    const YamlValue *m = cfg->get("anti_method");
    if (m && m->kind == YamlValue::Scalar && m->scalarType() == "str" &&
        !ir::Regex("m[1-6]").fullMatch(m->text))
      report(m->line, m->col,
             "Configuration param `anti_method` must be in choices ['m1', 'm2', 'm3', 'm4', "
             "'m5', 'm6']");
  }
}

std::vector<V0Mix> readV0MixCfg(const YamlValue &root) {
  std::vector<V0Mix> out;
  const YamlValue *spec = root.get("spec");
  const YamlValue *params = spec ? spec->get("calib_params") : nullptr;
  const YamlValue *mix = params ? params->get("mix_cfg") : nullptr;
  if (mix && mix->kind == YamlValue::Mapping)
    for (const auto &[k, v] : mix->map)
      out.push_back({k, v.kind == YamlValue::Scalar ? v.text : "", &v});
  return out;
}

bool fnmatchCase(std::string_view name, std::string_view pat) {
  // Backtracking over the last `*`, with `[...]` sets as fnmatch.translate reads them (a `[`
  // without its `]` is literal).
  size_t n = 0, p = 0, starP = std::string_view::npos, starN = 0;
  auto setEnd = [&](size_t at) {
    size_t j = at + 1;
    if (j < pat.size() && pat[j] == '!')
      ++j;
    if (j < pat.size() && pat[j] == ']')
      ++j;
    while (j < pat.size() && pat[j] != ']')
      ++j;
    return j < pat.size() ? j : std::string_view::npos;
  };
  auto inSet = [&](size_t at, size_t end, char c) {
    size_t j = at + 1;
    bool neg = j < end && pat[j] == '!';
    if (neg)
      ++j;
    bool hit = false;
    for (; j < end; ++j) {
      if (j + 2 < end && pat[j + 1] == '-') {
        hit = hit || (pat[j] <= c && c <= pat[j + 2]);
        j += 2;
      } else {
        hit = hit || pat[j] == c;
      }
    }
    return hit != neg;
  };
  while (n < name.size()) {
    if (p < pat.size() && pat[p] == '*') {
      starP = p++;
      starN = n;
      continue;
    }
    if (p < pat.size()) {
      if (pat[p] == '[') {
        if (size_t end = setEnd(p); end != std::string_view::npos) {
          if (inSet(p, end, name[n])) {
            p = end + 1;
            ++n;
            continue;
          }
        } else if (name[n] == '[') {
          ++p;
          ++n;
          continue;
        }
      } else if (pat[p] == '?' || pat[p] == name[n]) {
        ++p;
        ++n;
        continue;
      }
    }
    if (starP == std::string_view::npos)
      return false;
    p = starP + 1;
    n = ++starN;
  }
  while (p < pat.size() && pat[p] == '*')
    ++p;
  return p == pat.size();
}

const V0Mix *v0MixFor(const std::vector<V0Mix> &mix, std::string_view name) {
  for (const V0Mix &m : mix)
    if (m.pattern == name)
      return &m;
  for (const V0Mix &m : mix)
    if (fnmatchCase(name, m.pattern))
      return &m;
  return nullptr;
}

bool v0MixCalib(const V0Calib &c, std::string_view type, V0Calib &derived, std::string &why) {
  if (type != "w8a8" && type != "w8a16" && type != "w8a8_dynamic") {
    why = "Calibrator derives the w8a8, w8a16 and w8a8_dynamic configs from calib_cfg, not '" +
          std::string(type) + "'";
    return false;
  }
  bool sparse = c.coSparse && !c.isLowbit; // check_sparse_config: w_bit 4 (and a_bit 8)
  int wBit = sparse ? 4 : c.wBit, aBit = sparse ? 8 : c.aBit;
  if (wBit != 8 && !(wBit == 4 && aBit == 4)) {
    why = "Calibrator derives '" + std::string(type) + "' from a calib_cfg whose w_bit is 8" +
          (sparse ? " (co_sparse makes it 4)" : ", not " + std::to_string(wBit));
    return false;
  }
  derived = c;
  derived.wBit = 8;
  derived.aBit = type == "w8a16" ? 16 : 8;
  derived.isDynamic = type == "w8a8_dynamic";
  return true;
}

std::string v0AntiMethod(std::string_view processor) {
  for (const auto &[method, type] : kAntiMethods)
    if (processor == type)
      return method;
  return "";
}

std::string v0AntiProcessor(std::string_view antiMethod) {
  for (const auto &[method, type] : kAntiMethods)
    if (antiMethod == method)
      return type;
  return "";
}

std::string v0AntiMethodList() {
  return "anti_cfg.anti_method has flex_smooth_quant (m6), iter_smooth (m4) and smooth_quant "
         "(m1)";
}

} // namespace qspec::msmodelslim

namespace qspec::vendors {

namespace {

// The reading of a Linear mix_cfg gives `x`: float, or the recipe Calibrator derives for w8a8,
// w8a16 and w8a8_dynamic (v0MixCalib); else (w4a8_dynamic, a derived config it lacks) Calibrator
// stops, read as quantized with unknown roles.
ModuleReading mixReading(const msmodelslim::V0Calib &c, const msmodelslim::V0Mix &x) {
  ModuleReading r;
  r.line = x.at->line;
  r.column = x.at->col;
  if (x.type == "float") {
    r.tier = ir::Tier::Float;
    return r;
  }
  r.tier = ir::Tier::Int8;
  msmodelslim::V0Calib d;
  std::string why;
  if (!msmodelslim::v0MixCalib(c, x.type, d, why) ||
      !msmodelslim::v0Recipe(d, r.tier, r.weight, r.act, why))
    r.weight = r.act = RoleReading{};
  return r;
}

} // namespace

void readMsModelSlimV0(const ir::Spec &spec, const msmodelslim::PracticeDoc &doc,
                       VendorReading &out) {
  const ir::Inventory &inv = spec.inventory;
  if (!inv.present() || !spec.resolution.done)
    return;
  msmodelslim::V0Calib c = msmodelslim::readV0Calib(doc.root);
  ModuleReading q;
  q.tier = ir::Tier::Int8;
  std::string why;
  if (!msmodelslim::v0Recipe(c, q.tier, q.weight, q.act, why))
    q.weight = q.act = RoleReading{}; // a recipe qspec has no words for: quantized, roles unknown
  if (c.at) {
    q.line = c.at->keyLine ? c.at->keyLine : c.at->line;
    q.column = c.at->keyLine ? c.at->keyCol : c.at->col;
  }
  out.modules.assign(inv.modules.size(), ModuleReading{});
  std::vector<msmodelslim::V0Mix> mix = msmodelslim::readV0MixCfg(doc.root);
  size_t last = inv.modules.size();
  for (size_t m = 0; m < inv.modules.size(); ++m) {
    const ir::Module &mod = inv.modules[m];
    if (!mod.type.empty() && mod.type != "Linear")
      continue; // not an nn.Linear: QuantConfig never tests it
    const msmodelslim::V0Mix *x = mix.empty() ? nullptr : msmodelslim::v0MixFor(mix, mod.name);
    out.modules[m] = x ? mixReading(c, *x) : q;
    out.modules[m].known = true;
    last = m;
  }
  auto keepFloat = [&](size_t m, uint32_t line, uint32_t col) {
    ModuleReading &r = out.modules[m];
    r.tier = ir::Tier::Float;
    r.weight = r.act = RoleReading{};
    r.line = line;
    r.column = col;
  };
  if (c.disableLastLinear && last < inv.modules.size())
    keepFloat(last, 0, 0);
  for (const msmodelslim::YamlValue *name : c.disableNames)
    if (const ir::Module *m = inv.find(name->text); m && out.modules[m - inv.modules.data()].known)
      keepFloat(static_cast<size_t>(m - inv.modules.data()), name->line, name->col);
}

} // namespace qspec::vendors
