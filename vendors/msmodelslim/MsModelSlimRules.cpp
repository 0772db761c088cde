// msModelSlim vendor facts and checks; see MsModelSlimRules.h. Section numbers refer to
// ../shared/reference/msmodelslim.md.
#include "vendors/msmodelslim/MsModelSlimRules.h"
#include "vendors/CheckHelpers.h"

#include "vendors/msmodelslim/MsModelSlimBraces.h"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cmath>
#include <regex>
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
  return v == "modelslim_v1" || v == "multimodal_vlm_modelslim_v1";
}

bool isKnownProcessor(std::string_view t) {
  return isOneOf(t, {"linear_quant",
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
                    "mindie_format_saver"});
}

bool isAntiOutlierProcessor(std::string_view t) {
  return isOneOf(t, {"iter_smooth", "flex_smooth_quant", "flex_awq_ssz", "smooth_quant", "quarot"});
}

std::string antiOutlierList() {
  return "iter_smooth, flex_smooth_quant, flex_awq_ssz, smooth_quant, quarot";
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

bool checkQConfig(Role role, const QConfig &qc, std::string &why) {
  if (std::find(kDtypes.begin(), kDtypes.end(), qc.dtype) == kDtypes.end()) {
    why = "dtype '" + qc.dtype + "': Input should be " + joinQuoted(kDtypes);
    return false;
  }
  if (std::find(kScopes.begin(), kScopes.end(), qc.scope) == kScopes.end()) {
    why = "scope '" + qc.scope + "': Input should be " + joinQuoted(kScopes);
    return false;
  }
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

std::string plainScalarType(const std::string &t) {
  static const std::regex kBool(
      "yes|Yes|YES|no|No|NO|true|True|TRUE|false|False|FALSE|on|On|ON|off|Off|OFF");
  static const std::regex kNull("~|null|Null|NULL|");
  static const std::regex kInt(
      "[-+]?0b[0-1_]+|[-+]?0[0-7_]+|[-+]?(0|[1-9][0-9_]*)|[-+]?0x[0-9a-fA-F_]+|"
      "[-+]?[1-9][0-9_]*(:[0-5]?[0-9])+");
  static const std::regex kFloat(
      "[-+]?([0-9][0-9_]*)\\.[0-9_]*([eE][-+][0-9]+)?|\\.[0-9_]+([eE][-+][0-9]+)?|"
      "[-+]?[0-9][0-9_]*(:[0-5]?[0-9])+\\.[0-9_]*|[-+]?\\.(inf|Inf|INF)|"
      "\\.(nan|NaN|NAN)");
  static const std::regex kTimestamp("[0-9]{4}-[0-9]{1,2}-[0-9]{1,2}.*");
  if (std::regex_match(t, kBool))
    return "bool";
  if (std::regex_match(t, kNull))
    return "null";
  if (std::regex_match(t, kInt))
    return "int";
  if (std::regex_match(t, kFloat))
    return "float";
  if (std::regex_match(t, kTimestamp))
    return "timestamp";
  if (t == "<<")
    return "merge";
  if (t == "=")
    return "value";
  return "str";
}

} // namespace

bool needsYamlQuotes(std::string_view text) {
  std::string t(text);
  if (t.empty() || plainScalarType(t) != "str")
    return true;
  // yaml-cpp additionally reads these words as booleans/nulls in as<bool>().
  static const std::regex kCppWords("y|Y|n|N");
  if (std::regex_match(t, kCppWords))
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
  bool convert(const YAML::Node &n, YamlValue &out, int depth, std::string &error) {
    if (depth > 256) {
      error = "nesting deeper than 256 levels";
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
      auto add = [&](std::string key, YamlValue v, uint32_t keyLine) {
        if (!firstKeyLine)
          firstKeyLine = keyLine;
        if (!seen.insert(key).second && !reported) {
          doc.duplicateKeys.emplace_back(key, firstKeyLine);
          reported = true;
        }
        v.keyLine = keyLine;
        out.map.emplace_back(std::move(key), std::move(v));
      };
      for (const auto &kv : n) {
        std::string key = kv.first.IsScalar() ? kv.first.Scalar() : "";
        uint32_t keyLine = static_cast<uint32_t>(kv.first.Mark().line + 1);
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
        add(std::move(key), std::move(v), keyLine);
      }
      // Merged keys come after explicit ones; an explicit key that overrides a merged one is a
      // duplicate to msModelSlim's loader (1).
      for (auto &p : merged)
        add(p.first, p.second, p.second.keyLine ? p.second.keyLine : firstKeyLine);
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
  Converter c{doc};
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

// ---- Document checks --------------------------------------------------------------------------

namespace {

struct Checker {
  const PracticeDoc &doc;
  std::vector<Issue> issues;

  void add(const char *check, bool error, const YamlValue *at, std::string msg) {
    issues.push_back({check, error, at ? at->line : 0, at ? at->col : 0, std::move(msg)});
  }

  // Walks keys and strings. `vendorChecked`: msModelSlim itself checks here (it skips dicts
  // inside lists, 1.1); elsewhere qspec's stricter guarantee (10.3) gives a warning.
  void whitelist(const YamlValue &v, const std::string &path, bool vendorChecked) {
    auto check = [&](const std::string &s, const YamlValue &at, bool isKey) {
      size_t bad = firstNonWhitelisted(s);
      if (bad == std::string::npos)
        return;
      std::string msg = path +
                        (isKey ? ": dict key contains invalid characters ("
                               : ": dict contains invalid characters (") +
                        describeByte(static_cast<unsigned char>(s[bad])) + ")";
      if (!vendorChecked)
        msg += "; msModelSlim does not check list items, qspec does";
      add("whitelist", vendorChecked, &at, msg);
    };
    if (v.kind == YamlValue::Scalar && v.isString())
      check(v.text, v, false);
    for (size_t i = 0; i < v.items.size(); ++i) {
      const YamlValue &item = v.items[i];
      whitelist(item, path + "." + std::to_string(i),
                vendorChecked && item.kind != YamlValue::Mapping);
    }
    for (const auto &kv : v.map) {
      check(kv.first, kv.second, true);
      whitelist(kv.second, path.empty() ? kv.first : path + "." + kv.first, vendorChecked);
    }
  }

  void qconfig(const YamlValue *qc, const std::string &path, bool allowInt4Act) {
    if (!qc || qc->kind != YamlValue::Mapping) {
      add("qconfig", true, qc, path + ".qconfig: Field required");
      return;
    }
    for (const auto &kv : qc->map)
      if (kv.first != "act" && kv.first != "weight")
        add("qconfig", true, &kv.second,
            path + ".qconfig." + kv.first + ": Extra inputs are not permitted");
    for (Role role : {Role::Act, Role::Weight}) {
      const char *name = role == Role::Act ? "act" : "weight";
      const YamlValue *r = qc->get(name);
      if (!r) {
        if (role == Role::Weight)
          add("qconfig", true, qc, path + ".qconfig.weight: Field required");
        continue;
      }
      QConfig q;
      bool complete = true;
      for (const char *f : {"dtype", "scope", "method", "symmetric"}) {
        const YamlValue *fv = r->get(f);
        if (!fv || fv->kind != YamlValue::Scalar) {
          add("qconfig", true, r, path + ".qconfig." + name + "." + f + ": Field required");
          complete = false;
          continue;
        }
        if (std::string(f) == "symmetric") {
          std::string t = fv->scalarType();
          if (t != "bool") {
            add("qconfig", true, fv,
                path + ".qconfig." + name + ".symmetric: Input should be a valid boolean");
            complete = false;
          }
          q.symmetric = fv->text[0] == 't' || fv->text[0] == 'T' || fv->text[0] == 'y' ||
                        fv->text[0] == 'Y' || fv->text == "on" || fv->text == "On" ||
                        fv->text == "ON";
        } else if (std::string(f) == "dtype") {
          q.dtype = fv->text;
        } else if (std::string(f) == "scope") {
          q.scope = fv->text;
        } else {
          q.method = fv->text;
        }
      }
      if (!complete)
        continue;
      if (allowInt4Act)
        continue; // autoround_quant skips the quantizer registry (3)
      std::string why;
      if (!checkQConfig(role, q, why))
        add("qconfig", true, r, path + ".qconfig." + name + ": " + why);
    }
  }

  // include/exclude entries (5): at most 200 characters (pydantic), at most 1,000 brace
  // expansions (wcmatch's PatternLimitException ends LinearQuantProcessor).
  void patterns(const YamlValue &p, const std::string &where) {
    for (const char *list : {"include", "exclude"}) {
      const YamlValue *l = p.get(list);
      if (!l || l->kind != YamlValue::Sequence)
        continue;
      for (size_t i = 0; i < l->items.size(); ++i) {
        const YamlValue &e = l->items[i];
        if (e.kind != YamlValue::Scalar)
          continue;
        std::string at = where + "." + list + "." + std::to_string(i);
        if (e.text.size() > kMaxPatternChars)
          add("pattern-length", true, &e, at + ": String should have at most 200 characters");
        uint64_t n = braceExpansions(e.text);
        if (n > kPatternLimit)
          add("pattern-limit", true, &e,
              at + ": PatternLimitException: pattern '" + e.text + "' expands to " +
                  (n == UINT64_MAX ? std::string("more than 2^64") : std::to_string(n)) +
                  " patterns, more than wcmatch's limit of 1000");
      }
    }
  }

  void processor(const YamlValue &p, const std::string &path, const std::string &api) {
    if (p.kind != YamlValue::Mapping) {
      add("processor", true, &p, path + ": Unable to extract tag using discriminator 'type'");
      return;
    }
    const YamlValue *t = p.get("type");
    if (!t || t->kind != YamlValue::Scalar) {
      add("processor", true, &p, path + ": Unable to extract tag using discriminator 'type'");
      return;
    }
    if (!isKnownProcessor(t->text)) {
      add("processor", true, t,
          path + ".type: Input tag '" + t->text +
              "' found using 'type' does not match any of the expected tags");
      return;
    }
    std::string where = path + "." + t->text;
    patterns(p, where);
    if (t->text == "linear_quant")
      qconfig(p.get("qconfig"), where, false);
    else if (t->text == "group") {
      const YamlValue *cfgs = p.get("configs");
      if (!cfgs || cfgs->kind != YamlValue::Sequence)
        add("processor", true, &p, where + ".configs: Field required");
      else
        for (size_t i = 0; i < cfgs->items.size(); ++i)
          processor(cfgs->items[i], where + ".configs." + std::to_string(i), api);
    } else if (t->text == "iter_smooth" || t->text == "smooth_quant" ||
               t->text == "flex_smooth_quant") {
      for (const char *k : {"alpha", "beta", "scale_min"}) {
        const YamlValue *v = p.get(k);
        if (!v || v->kind != YamlValue::Scalar || v->scalarType() == "null")
          continue;
        try {
          double x = std::stod(v->text);
          if (!(x > 0 && x < 1) && std::string(k) != "scale_min")
            add("processor", true, v, where + "." + k + ": " + k + " must be in the range (0, 1)");
        } catch (...) {
          add("processor", true, v, where + "." + k + ": Input should be a valid number");
        }
      }
    } else if (t->text == "quarot") {
      if (const YamlValue *b = p.get("block_size"); b && b->kind == YamlValue::Scalar) {
        long long x = 0;
        try {
          x = std::stoll(b->text);
        } catch (...) {
          x = 0;
        }
        if (x != -1 && (x <= 0 || (x & (x - 1)) != 0))
          add("processor", true, b,
              "block_size must be -1 or a positive power of 2, got " + b->text);
      }
    } else if (t->text == "ascendv1_saver" || t->text == "mindie_format_saver" ||
               t->text == "ascendv1_saver_distributed") {
      add("saver", true, t, path + ".type: a saver belongs in spec.save, not spec.process");
    }
  }

  void run() {
    for (const auto &[key, line] : doc.duplicateKeys)
      issues.push_back(
          {"duplicate-key", true, line, 1,
           "Duplicate key '" + key + "' found in YAML at line " + std::to_string(line) + "."});
    const YamlValue &root = doc.root;
    if (root.kind != YamlValue::Mapping) {
      add("apiversion", true, &root, "dict must be dict, not list.");
      return;
    }
    whitelist(root, "", true);
    const YamlValue *api = root.get("apiversion");
    std::string apiText = api && api->kind == YamlValue::Scalar ? api->text : "Unknown";
    if (!isKnownApiVersion(apiText)) {
      add("apiversion", true, api ? api : &root,
          "No plugin found for type '" + apiText +
              "' in group 'msmodelslim.quant_service.plugins'.");
      return;
    }
    if (apiText == "modelslim_v0" || apiText == "modelslim_convert") {
      add("not-a-target", false, api,
          "apiversion '" + apiText + "' is not a qspec target; only its v1 forms are checked");
      return;
    }
    // metadata (1.2)
    if (const YamlValue *md = root.get("metadata")) {
      if (md->kind != YamlValue::Mapping) {
        add("metadata", true, md, "metadata: Input should be a valid dictionary");
      } else {
        for (const auto &kv : md->map) {
          const YamlValue &v = kv.second;
          if (std::find(kMetadataKeys.begin(), kMetadataKeys.end(), kv.first) ==
              kMetadataKeys.end()) {
            add("metadata", true, &v, "metadata." + kv.first + ": Extra inputs are not permitted");
          } else if (kv.first == "config_id") {
            if (v.kind != YamlValue::Scalar || v.text.size() > 200)
              add("metadata", true, &v, "metadata.config_id: a string of at most 200 characters");
          } else if (kv.first == "score") {
            double x = -1;
            try {
              x = v.kind == YamlValue::Scalar ? std::stod(v.text) : -1;
            } catch (...) {
              x = v.scalarType() == "bool" ? 1 : -1;
            }
            if (x < 0)
              add("metadata", true, &v,
                  "metadata.score: Value error, Code: 203, Message: score must be greater "
                  "than or equal to 0, got " +
                      v.text);
          } else if (kv.first == "label") {
            if (v.kind != YamlValue::Mapping)
              add("metadata", true, &v, "metadata.label: Input should be a valid dictionary");
          } else if (kv.first == "verified_model_types") {
            if (v.kind != YamlValue::Sequence)
              add("metadata", true, &v,
                  "metadata.verified_model_types: Input should be a valid list");
            else
              for (const auto &item : v.items)
                if (item.kind != YamlValue::Scalar || item.text.size() > 200)
                  add("metadata", true, &item,
                      "metadata.verified_model_types: items are strings of at most 200 characters");
          }
        }
      }
    }
    const YamlValue *spec = root.get("spec");
    if (!spec)
      return;
    if (spec->kind != YamlValue::Mapping) {
      add("spec-key", true, spec, "task spec must be dict");
      return;
    }
    std::vector<std::string> keys = specKeys(apiText);
    for (const auto &kv : spec->map)
      if (std::find(keys.begin(), keys.end(), kv.first) == keys.end())
        add("spec-key", true, &kv.second, "spec." + kv.first + ": Extra inputs are not permitted");
    if (const YamlValue *r = spec->get("runner");
        r && (r->kind != YamlValue::Scalar || !isKnownRunner(r->text)))
      add("runner", true, r,
          "spec.runner: Input should be 'auto', 'model_wise', 'layer_wise' or 'dp_layer_wise'");
    for (const char *list : {"process", "prior"}) {
      const YamlValue *p = spec->get(list);
      if (!p || p->kind == YamlValue::Null)
        continue;
      if (p->kind != YamlValue::Sequence) {
        add("processor", true, p, std::string("spec.") + list + ": Input should be a valid list");
        continue;
      }
      for (size_t i = 0; i < p->items.size(); ++i) {
        const YamlValue &item = p->items[i];
        std::string path = std::string("spec.") + list + "." + std::to_string(i);
        if (std::string(list) == "prior") {
          if (const YamlValue *pp = item.get("process"); pp && pp->kind == YamlValue::Sequence)
            for (size_t j = 0; j < pp->items.size(); ++j)
              processor(pp->items[j], path + ".process." + std::to_string(j), apiText);
          continue;
        }
        // autoround_quant: int4 activations allowed, quantizer table not consulted.
        if (const YamlValue *t = item.get("type"); t && t->text == "autoround_quant") {
          if (const YamlValue *s = item.get("strategies");
              !s || s->kind != YamlValue::Sequence || s->items.empty())
            add("processor", true, &item, path + ".autoround_quant.strategies: must not be empty");
          else
            for (size_t j = 0; j < s->items.size(); ++j)
              qconfig(s->items[j].get("qconfig"),
                      path + ".autoround_quant.strategies." + std::to_string(j), true);
          continue;
        }
        processor(item, path, apiText);
      }
    }
    const YamlValue *save = spec->get("save");
    bool vlmOrSd = apiText != "modelslim_v1";
    if (save && save->kind == YamlValue::Sequence) {
      if (vlmOrSd && save->items.empty())
        add("saver", true, save,
            "spec.save: the last item must be a saver (IndexError on an empty list)");
      for (size_t i = 0; i < save->items.size(); ++i) {
        const YamlValue *t = save->items[i].get("type");
        std::string tt = t && t->kind == YamlValue::Scalar ? t->text : "";
        bool saver = isKnownSaver(tt, apiText);
        bool last = i + 1 == save->items.size();
        if (!saver && (!vlmOrSd || last || !isKnownProcessor(tt)))
          add("saver", true, t ? t : &save->items[i],
              "spec.save." + std::to_string(i) + ".type: Input tag '" + tt +
                  "' found using 'type' does not match any of the expected tags" +
                  (vlmOrSd && last ? " (The save config you provide is not a saver config)" : ""));
        if (const YamlValue *pfs = save->items[i].get("part_file_size")) {
          bool neg = pfs->kind == YamlValue::Scalar && !pfs->text.empty() && pfs->text[0] == '-';
          if (pfs->scalarType() != "int" || neg)
            add("saver", true, pfs,
                "part_file_size must be greater than or equal to 0, got " + pfs->text);
        }
      }
    } else if (save && save->kind != YamlValue::Null) {
      add("saver", true, save, "spec.save: Input should be a valid list");
    }
    if (const YamlValue *dt = spec->get("default_text")) {
      bool blank =
          dt->kind != YamlValue::Scalar || dt->text.find_first_not_of(" \t") == std::string::npos;
      if (blank)
        add("default-text", true, dt, "spec.default_text: must not be blank");
    }
  }
};

} // namespace

std::vector<Issue> checkPractice(const PracticeDoc &doc) {
  Checker c{doc, {}};
  c.run();
  return std::move(c.issues);
}

std::string classifyPractice(const PracticeDoc &doc, const std::vector<Issue> &issues) {
  for (const Issue &i : issues)
    if (i.check == "not-a-target")
      return "not-a-target";
  for (const Issue &i : issues)
    if (i.error)
      return "refused: " + i.check;
  (void)doc;
  return "accepted";
}

} // namespace qspec::msmodelslim
