// msModelSlim's v0 practice schema and its reading; see MsModelSlimV0.h.
#include "vendors/msmodelslim/MsModelSlimV0.h"

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
  V0Calib c;
  const YamlValue *spec = root.get("spec");
  const YamlValue *cfg = spec ? spec->get("calib_cfg") : nullptr;
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
  return "anti_cfg.anti_method has flex_smooth_quant (m6), iter_smooth (m4) and smooth_quant (m1)";
}

} // namespace qspec::msmodelslim

namespace qspec::vendors {

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
  size_t last = inv.modules.size();
  for (size_t m = 0; m < inv.modules.size(); ++m) {
    const ir::Module &mod = inv.modules[m];
    if (!mod.type.empty() && mod.type != "Linear")
      continue; // not an nn.Linear: QuantConfig never tests it
    out.modules[m] = q;
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
