// msModelSlim vendor facts (vocabularies, whitelist, qconfig table, YAML scalars) and the practice
// reader; see MsModelSlimRules.h. The document checks are MsModelSlimChecks.cpp's. Section numbers
// refer to ../shared/reference/msmodelslim.md.
#include "vendors/msmodelslim/MsModelSlimRules.h"
#include "vendors/CheckHelpers.h"

#include "ir/EditDistance.h"
#include "ir/Regex.h"
#include "vendors/msmodelslim/MsModelSlimBraces.h"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdlib>
#include <optional>
#include <set>

namespace qspec::msmodelslim {

namespace {

using vendors::isOneOf;

std::string joinQuoted(const std::vector<std::string> &v) {
  std::string out;
  for (size_t i = 0; i < v.size(); ++i) {
    if (i)
      out += i + 1 == v.size() ? " or " : ", ";
    out += "'" + v[i] + "'";
  }
  return out;
}

} // namespace

// ---- Vocabularies ------------------------------------------------------------------------

const std::vector<std::string> kDtypes = {"float", "int8",     "int4",       "mxfp8",
                                          "mxfp4", "fp8_e4m3", "placeholder"};
const std::vector<std::string> kScopes = {"per_tensor", "per_channel", "per_group",
                                          "per_block",  "per_token",   "pd_mix",
                                          "per_head",   "dual_scale",  "placeholder"};
const std::vector<std::string> kMetadataKeys = {"config_id", "score", "label",
                                                "verified_model_types", "verified_tags"};

bool isKnownApiVersion(std::string_view v) {
  return isOneOf(v, {"modelslim_v0", "modelslim_v1", "multimodal_vlm_modelslim_v1",
                     "multimodal_sd_modelslim_v1", "modelslim_convert"});
}

bool isEmittableApiVersion(std::string_view v) {
  return isOneOf(v, {"modelslim_v1", "multimodal_vlm_modelslim_v1", "multimodal_sd_modelslim_v1",
                     "modelslim_v0"});
}

const std::vector<std::string> &processorTypes() {
  static const std::vector<std::string> k = {"linear_quant",
                                             "autoround_quant",
                                             "dynamic_cache",
                                             "fa3_quant",
                                             "float_sparse",
                                             "svd_res",
                                             "flatquant",
                                             "iter_smooth",
                                             "flex_smooth_quant",
                                             "flex_awq_ssz",
                                             "smooth_quant",
                                             "awq",
                                             "kv_smooth",
                                             "quarot",
                                             "online_quarot",
                                             "adapt_rotation",
                                             "group",
                                             "load",
                                             "ascendv1_saver",
                                             "ascendv1_saver_distributed",
                                             "mindie_format_saver"};
  return k;
}

bool isKnownProcessor(std::string_view t) {
  const auto &k = processorTypes();
  return std::find(k.begin(), k.end(), t) != k.end();
}

const std::vector<std::string> *processorKeys(std::string_view t) {
  // Reference 4 (processors) and 2 (savers); `type` is the union's tag. Processors whose
  // fields the reference does not list (flatquant's fixed fields, load) are not checked.
  using Keys = std::vector<std::string>;
  static const std::vector<std::pair<std::string, Keys>> table = {
      {"linear_quant", {"type", "qconfig", "include", "exclude"}},
      {"autoround_quant",
       {"type", "iters", "enable_minmax_tuning", "enable_round_tuning", "strategies"}},
      {"dynamic_cache", {"type", "qconfig", "include", "exclude"}},
      {"fa3_quant", {"type", "qconfig", "details", "include", "exclude"}},
      {"float_sparse", {"type", "sparse_ratio", "include", "exclude"}},
      {"svd_res", {"type", "rank", "include", "exclude"}},
      {"iter_smooth",
       {"type", "alpha", "scale_min", "symmetric", "enable_subgraph_type", "include", "exclude"}},
      {"flex_smooth_quant",
       {"type", "alpha", "beta", "enable_subgraph_type", "include", "exclude"}},
      {"flex_awq_ssz",
       {"type", "alpha", "beta", "enable_subgraph_type", "include", "exclude", "qconfig"}},
      {"smooth_quant", {"type", "alpha", "symmetric", "include", "exclude"}},
      {"awq", {"type", "weight_qconfig", "enable_subgraph_type", "n_grid", "include", "exclude"}},
      {"kv_smooth", {"type", "smooth_factor", "include", "exclude"}},
      {"quarot",
       {"type", "online", "block_size", "down_proj_online_layers", "max_tp_size",
        "export_extra_info"}},
      {"online_quarot", {"type", "include", "exclude", "block_size"}},
      {"adapt_rotation",
       {"type", "stage", "steps", "quant_dtype", "layer_type", "block_size", "max_samples",
        "online", "down_proj_online_layers", "max_tp_size"}},
      {"group", {"type", "configs"}},
      {"ascendv1_saver", {"type", "part_file_size", "ext"}},
      {"ascendv1_saver_distributed", {"type", "part_file_size", "ext"}},
      {"mindie_format_saver", {"type", "part_file_size", "ext"}},
      {"compressed_tensors", {"type", "part_file_size"}},
  };
  for (const auto &[type, keys] : table)
    if (type == t)
      return &keys;
  return nullptr;
}

std::string didYouMean(std::string_view word, const std::vector<std::string> &options) {
  size_t limit = word.size() < 4 ? 1 : word.size() < 8 ? 2 : 3;
  size_t best = limit + 1;
  const std::string *pick = nullptr;
  for (const std::string &o : options) {
    size_t d = editDistanceAtMost(word, o, limit);
    if (d < best) {
      best = d;
      pick = &o;
    }
  }
  return pick ? " (did you mean '" + *pick + "'?)" : "";
}

bool isAntiOutlierProcessor(std::string_view t) {
  return isOneOf(t, {"iter_smooth", "flex_smooth_quant", "flex_awq_ssz", "smooth_quant", "quarot",
                     "adapt_rotation"});
}

std::string antiOutlierList() {
  return "iter_smooth, flex_smooth_quant, flex_awq_ssz, smooth_quant, quarot, adapt_rotation";
}

bool isKnownSaver(std::string_view t, std::string_view api) {
  if (api == "modelslim_v1")
    return isOneOf(t, {"ascendv1_saver", "mindie_format_saver", "compressed_tensors"});
  return isOneOf(t, {"ascendv1_saver", "ascendv1_saver_distributed", "mindie_format_saver"});
}

bool isKnownRunner(std::string_view r) {
  return isOneOf(r, {"auto", "model_wise", "layer_wise", "dp_layer_wise"});
}

std::vector<std::string> specKeys(std::string_view api) {
  std::vector<std::string> k = {"runner", "prior", "process", "save", "dataset"};
  if (api == "multimodal_vlm_modelslim_v1")
    k.push_back("default_text");
  else if (api == "multimodal_sd_modelslim_v1")
    k.push_back("multimodal_sd_config");
  else if (api != "modelslim_v1")
    return {};
  return k;
}

// ---- Whitelist ----------------------------------------------------------------------------

size_t firstNonWhitelisted(std::string_view text) {
  static const std::string kPunct = " _\"'><=[](),{}:|/.*~?!+-\\";
  for (size_t i = 0; i < text.size(); ++i) {
    unsigned char c = static_cast<unsigned char>(text[i]);
    bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
              (c < 0x80 && c != 0 && kPunct.find(static_cast<char>(c)) != std::string::npos);
    if (!ok)
      return i;
  }
  return std::string_view::npos;
}

std::string describeByte(unsigned char c) {
  char buf[40];
  if (c == '\n')
    return "a newline";
  if (c == '\t')
    return "a tab";
  if (c >= 0x80) {
    std::snprintf(buf, sizeof buf, "non-ASCII byte 0x%02x", c);
    return buf;
  }
  if (c < 0x20 || c == 0x7f) {
    std::snprintf(buf, sizeof buf, "control byte 0x%02x", c);
    return buf;
  }
  return std::string("'") + static_cast<char>(c) + "'";
}

bool checkConfigId(std::string_view id, std::string &why) {
  if (id.empty()) {
    why = "it is empty";
    return false;
  }
  if (id.size() > 200) {
    why = "it is longer than 200 characters";
    return false;
  }
  for (char c : id)
    if (!(std::isalnum(static_cast<unsigned char>(c)) && static_cast<unsigned char>(c) < 0x80) &&
        c != '_' && c != '.' && c != '-') {
      why = "it is also the file name, which msModelSlim allows only [_A-Za-z0-9.-] in (found " +
            describeByte(static_cast<unsigned char>(c)) + ")";
      return false;
    }
  if (id == "." || id == "..") {
    why = "it is not a file name";
    return false;
  }
  return true;
}

// ---- qconfig (3) ------------------------------------------------------------------------------

namespace {

struct Combo {
  Role role;
  std::vector<const char *> scopes, dtypes;
  int symmetric; // 1 sym, 0 asym, -1 either
  std::vector<const char *> methods;
};

const std::vector<Combo> &combos() {
  static const std::vector<Combo> c = {
      {Role::Act, {"per_tensor"}, {"int8"}, -1, {"minmax", "histogram"}},
      {Role::Act, {"per_token", "per_channel"}, {"int8"}, -1, {"minmax"}},
      {Role::Act, {"per_tensor", "per_token", "per_channel"}, {"fp8_e4m3"}, 1, {"minmax"}},
      {Role::Act, {"pd_mix"}, {"int8"}, 0, {"minmax"}},
      {Role::Act, {"per_block"}, {"mxfp8", "mxfp4"}, 1, {"minmax"}},
      {Role::Act, {"dual_scale"}, {"mxfp4"}, 1, {"dualscale"}},
      {Role::Act, {"per_tensor"}, {"float"}, 1, {"none"}},
      {Role::Weight, {"per_channel"}, {"int8", "int4"}, 1, {"minmax", "ssz", "gptq"}},
      {Role::Weight, {"per_channel"}, {"int8", "int4"}, 0, {"gptq"}},
      {Role::Weight, {"per_group"}, {"int8", "int4"}, -1, {"gptq"}},
      {Role::Weight, {"per_channel"}, {"fp8_e4m3"}, 1, {"minmax"}},
      {Role::Weight, {"per_block"}, {"mxfp8"}, 1, {"minmax", "mse_round"}},
      {Role::Weight, {"per_block"}, {"mxfp4"}, 1, {"minmax", "ceil_x", "fouroversix"}},
      {Role::Weight, {"dual_scale"}, {"mxfp4"}, 1, {"dualscale"}},
  };
  return c;
}

std::string qscheme(const std::string &scope, const std::string &dtype, bool sym) {
  return "QScheme(scope=" + scope + ", dtype=" + dtype + ", symmetric=" + (sym ? "True" : "False") +
         ")";
}

} // namespace

namespace {
// The dtype and scope enums of a qconfig (pydantic's check, before any quantizer is looked up).
bool checkVocabularies(const QConfig &qc, std::string &why) {
  if (std::find(kDtypes.begin(), kDtypes.end(), qc.dtype) == kDtypes.end()) {
    why = "dtype '" + qc.dtype + "': Input should be " + joinQuoted(kDtypes);
    return false;
  }
  if (std::find(kScopes.begin(), kScopes.end(), qc.scope) == kScopes.end()) {
    why = "scope '" + qc.scope + "': Input should be " + joinQuoted(kScopes);
    return false;
  }
  return true;
}
} // namespace

bool isAttentionProcessor(std::string_view type) {
  return type == "dynamic_cache" || type == "fa3_quant" || type == "online_quarot";
}

bool checkAttentionQConfig(std::string_view type, const QConfig &qc, std::string &why) {
  if (type == "dynamic_cache") {
    if (qc.scope != "per_channel") {
      why = "DynamicCacheQuantProcessor only supports per_channel quantization!";
      return false;
    }
    return checkQConfig(Role::Act, qc, why);
  }
  return checkVocabularies(qc, why);
}

bool checkAutoroundRole(Role role, const QConfig &qc, const std::string *groupSize,
                        bool groupSizeInt, const std::string *scaleDtype, std::string &why) {
  if (!checkVocabularies(qc, why))
    return false;
  if (qc.scope == "per_group" && !groupSize) {
    why = "When quantization config scope is per_group, ext field must contain group_size";
    return false;
  }
  if (qc.scope == "per_group" && (!groupSizeInt || groupSize->empty() || (*groupSize)[0] == '-' ||
                                  std::strtoll(groupSize->c_str(), nullptr, 10) <= 0)) {
    why = "When quantization config scope is per_group, group_size in ext field must be a "
          "positive integer, got group_size=" +
          *groupSize;
    return false;
  }
  if (qc.scope != "per_group" && groupSize) {
    why = "When quantization config scope is not per_group, ext field should not contain "
          "group_size";
    return false;
  }
  if (role == Role::Weight && scaleDtype && *scaleDtype != "float16" && *scaleDtype != "float32" &&
      *scaleDtype != "bfloat16") {
    why = "Unsupported scale dtype '" + *scaleDtype +
          "', supported types are: ['float16', 'float32', 'bfloat16']";
    return false;
  }
  return true;
}

std::string autoroundDtype(Role role, const std::string &dtype) {
  if (dtype == "int8" || dtype == "int4" || dtype == "float")
    return dtype;
  return role == Role::Weight ? "int8" : "float";
}

bool checkQConfig(Role role, const QConfig &qc, std::string &why) {
  if (!checkVocabularies(qc, why))
    return false;
  std::vector<std::string> choices;
  for (const Combo &c : combos()) {
    if (c.role != role)
      continue;
    for (const char *s : c.scopes)
      for (const char *d : c.dtypes)
        for (int sym : {1, 0}) {
          if (c.symmetric >= 0 && c.symmetric != sym)
            continue;
          bool schemeHit = qc.scope == s && qc.dtype == d && qc.symmetric == (sym == 1);
          for (const char *m : c.methods) {
            if (schemeHit && qc.method == m)
              return true;
            if (qc.dtype == d)
              choices.push_back("(" + qscheme(s, d, sym == 1) + ", '" + m + "')");
          }
        }
  }
  const char *abc = role == Role::Act ? "AutoActQuantizer" : "AutoWeightQuantizer";
  why = std::string("Code: 301, Message: No implementation found for ABC <class "
                    "'msmodelslim.core.quantizer.base.") +
        abc + "'> with dispatch key: (" + qscheme(qc.scope, qc.dtype, qc.symmetric) + ", '" +
        qc.method + "')";
  if (!choices.empty()) {
    why += "; TIP: choose one of ";
    for (size_t i = 0; i < choices.size() && i < 4; ++i)
      why += (i ? ", " : "") + choices[i];
    if (choices.size() > 4)
      why += ", ...";
  }
  return false;
}

// ---- YAML scalars -----------------------------------------------------------------------------

namespace {

std::string plainScalarTypeByRegex(const std::string &t) {
  static const ir::Regex kBool(
      "yes|Yes|YES|no|No|NO|true|True|TRUE|false|False|FALSE|on|On|ON|off|Off|OFF");
  static const ir::Regex kNull("~|null|Null|NULL|");
  static const ir::Regex kInt(
      "[-+]?0b[0-1_]+|[-+]?0[0-7_]+|[-+]?(0|[1-9][0-9_]*)|[-+]?0x[0-9a-fA-F_]+|"
      "[-+]?[1-9][0-9_]*(:[0-5]?[0-9])+");
  static const ir::Regex kFloat(
      "[-+]?([0-9][0-9_]*)\\.[0-9_]*([eE][-+][0-9]+)?|\\.[0-9_]+([eE][-+][0-9]+)?|"
      "[-+]?[0-9][0-9_]*(:[0-5]?[0-9])+\\.[0-9_]*|[-+]?\\.(inf|Inf|INF)|"
      "\\.(nan|NaN|NAN)");
  static const ir::Regex kTimestamp("[0-9]{4}-[0-9]{1,2}-[0-9]{1,2}.*");
  if (kBool.fullMatch(t))
    return "bool";
  if (kNull.fullMatch(t))
    return "null";
  if (kInt.fullMatch(t))
    return "int";
  if (kFloat.fullMatch(t))
    return "float";
  if (kTimestamp.fullMatch(t))
    return "timestamp";
  if (t == "<<")
    return "merge";
  if (t == "=")
    return "value";
  return "str";
}

// PyYAML's resolver first, on the two shapes a practice mostly holds: a plain scalar that starts
// with a letter or '_' can only be one of the bool or null words (every other type starts with a
// digit, a sign, '.', '~', '<' or '='), and a plain decimal without leading zero is an int. The
// regexes (compiled on first use, a millisecond) are left for the rest.
std::string plainScalarType(const std::string &t) {
  if (!t.empty() && (std::isalpha(static_cast<unsigned char>(t[0])) || t[0] == '_') &&
      static_cast<unsigned char>(t[0]) < 0x80) {
    if (isOneOf(t, {"yes", "Yes", "YES", "no", "No", "NO", "true", "True", "TRUE", "false", "False",
                    "FALSE", "on", "On", "ON", "off", "Off", "OFF"}))
      return "bool";
    return isOneOf(t, {"null", "Null", "NULL"}) ? "null" : "str";
  }
  if (!t.empty() && (t == "0" || t[0] != '0') &&
      t.find_first_not_of("0123456789") == std::string::npos)
    return "int";
  return plainScalarTypeByRegex(t);
}

} // namespace

bool needsYamlQuotes(std::string_view text) {
  std::string t(text);
  if (t.empty() || plainScalarType(t) != "str")
    return true;
  // yaml-cpp additionally reads these words as booleans/nulls in as<bool>().
  if (t == "y" || t == "Y" || t == "n" || t == "N")
    return true;
  static const std::string kIndicators = "-?:,[]{}#&*!|>'\"%@`";
  if (kIndicators.find(t[0]) != std::string::npos || t[0] == ' ' || t.back() == ' ')
    return true;
  if (t.find(": ") != std::string::npos || t.find(" #") != std::string::npos || t.back() == ':')
    return true;
  for (unsigned char c : t)
    if (c < 0x20 || c == 0x7f)
      return true;
  return false;
}

// ---- Reader -----------------------------------------------------------------------------------

const YamlValue *YamlValue::get(std::string_view key) const {
  for (const auto &kv : map)
    if (kv.first == key)
      return &kv.second;
  return nullptr;
}

bool YamlValue::isExponentNumber() const {
  static const ir::Regex kExp("-?[0-9]+[eE][-+]?[0-9]+");
  return kind == Scalar && !quoted && kExp.fullMatch(text);
}

std::string YamlValue::scalarType() const {
  if (kind != Scalar)
    return kind == Null ? "null" : "";
  if (quoted)
    return "str";
  return plainScalarType(text);
}

namespace {

struct Converter {
  PracticeDoc &doc;
  // yaml-cpp shares an aliased node, so walking the tree expands aliases: a few hundred bytes of
  // nested anchors stand for millions of nodes. At most one node per input byte plus the readers'
  // alias allowance (frontend/readers kMaxYamlAliasNodes) are converted.
  size_t budget;
  bool convert(const YAML::Node &n, YamlValue &out, int depth, std::string &error) {
    if (depth > 256) {
      error = "nesting deeper than 256 levels";
      return false;
    }
    if (budget-- == 0) {
      error = "YAML aliases expand to more than 100000 nodes (an alias bomb?) near line " +
              std::to_string(n.Mark().line + 1);
      return false;
    }
    out.line = static_cast<uint32_t>(n.Mark().line + 1);
    out.col = static_cast<uint32_t>(n.Mark().column + 1);
    switch (n.Type()) {
    case YAML::NodeType::Null:
    case YAML::NodeType::Undefined:
      out.kind = YamlValue::Null;
      return true;
    case YAML::NodeType::Scalar:
      out.kind = YamlValue::Scalar;
      out.text = n.Scalar();
      out.quoted = n.Tag() == "!";
      return true;
    case YAML::NodeType::Sequence:
      out.kind = YamlValue::Sequence;
      for (const auto &item : n) {
        out.items.emplace_back();
        if (!convert(item, out.items.back(), depth + 1, error))
          return false;
      }
      return true;
    case YAML::NodeType::Map: {
      out.kind = YamlValue::Mapping;
      std::vector<std::pair<std::string, YamlValue>> merged; // from `<<`
      std::set<std::string> seen;
      bool reported = false;
      uint32_t firstKeyLine = 0;
      auto add = [&](std::string key, YamlValue v, uint32_t keyLine, uint32_t keyCol) {
        if (!firstKeyLine)
          firstKeyLine = keyLine;
        if (!seen.insert(key).second && !reported) {
          doc.duplicateKeys.emplace_back(key, firstKeyLine);
          reported = true;
        }
        v.keyLine = keyLine;
        v.keyCol = keyCol;
        out.map.emplace_back(std::move(key), std::move(v));
      };
      for (const auto &kv : n) {
        std::string key = kv.first.IsScalar() ? kv.first.Scalar() : "";
        uint32_t keyLine = static_cast<uint32_t>(kv.first.Mark().line + 1);
        uint32_t keyCol = static_cast<uint32_t>(kv.first.Mark().column + 1);
        YamlValue v;
        if (!convert(kv.second, v, depth + 1, error))
          return false;
        if (key == "<<" && kv.first.Tag() != "!") {
          if (!firstKeyLine)
            firstKeyLine = keyLine;
          auto take = [&](const YamlValue &m) {
            for (const auto &p : m.map)
              merged.emplace_back(p.first, p.second);
          };
          if (v.kind == YamlValue::Mapping)
            take(v);
          else
            for (const auto &item : v.items)
              take(item);
          continue;
        }
        add(std::move(key), std::move(v), keyLine, keyCol);
      }
      // Merged keys come after explicit ones; an explicit key that overrides a merged one is a
      // duplicate to msModelSlim's loader (1).
      for (auto &p : merged)
        add(p.first, p.second, p.second.keyLine ? p.second.keyLine : firstKeyLine,
            p.second.keyLine ? p.second.keyCol : 1);
      return true;
    }
    }
    return true;
  }
};

} // namespace

bool parsePractice(const std::string &text, FileID file, PracticeDoc &doc,
                   DiagnosticEngine &diags) {
  doc = PracticeDoc{};
  doc.file = file;
  SourceManager &sm = diags.sourceManager();
  YAML::Node root;
  try {
    root = YAML::Load(text);
  } catch (const YAML::Exception &e) {
    uint32_t line = e.mark.line >= 0 ? static_cast<uint32_t>(e.mark.line + 1) : 1;
    uint32_t col = e.mark.column >= 0 ? static_cast<uint32_t>(e.mark.column + 1) : 1;
    diags.report(DiagID::err_msmodelslim_yaml_syntax, sm.lineRange(file, line, col), {e.msg});
    return false;
  }
  std::string error;
  Converter c{doc, text.size() + 100'000};
  try {
    if (!c.convert(root, doc.root, 0, error)) {
      diags.report(DiagID::err_msmodelslim_yaml_syntax, sm.lineRange(file, 1), {error});
      return false;
    }
  } catch (const YAML::Exception &e) {
    diags.report(DiagID::err_msmodelslim_yaml_syntax, sm.lineRange(file, 1), {e.msg});
    return false;
  }
  if (const YamlValue *a = doc.root.get("apiversion"); a && a->kind == YamlValue::Scalar)
    doc.apiversion = a->text;
  return true;
}

} // namespace qspec::msmodelslim
