// `qcc import` of an HMCT `quant_config` (JSON, `//` and `/* */` comments stripped as HMCT does),
// read with vendors/hmct/ (parseQuantConfig, HMCT's load checks checkQuantConfig, the node rule
// of HmctReader.h) and turned into a spec the HMCT reading agrees with: model_config.all_node_type
// becomes `defaults { tier }`, a scalar calibration_type max/kl and boolean per_channel /
// asymmetric the default act recipe (the emitter writes them back from it), op_config entries
// `override type` (ONNX op types), node_config entries `protect` (float32) or one `override name`
// per qtype with the names compressed on an inventory; the other model_config settings the
// `target hmct` block (model_output_type, calibration lists, num_bin, max_num_bin,
// max_percentile, bias_correction, modelwise_search, layerwise_search; no calibration_type at all
// is `search default`).
#include "driver/qcc/import/Importer.h"

#include "vendors/hmct/HmctReader.h"
#include "vendors/hmct/HmctRules.h"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <map>
#include <set>

namespace qspec::import {

namespace {

using hmct::JsonValue;

// The qspec tier word of an HMCT qtype ("" none: int16-ec, mixed operands).
std::string tierWord(const std::optional<ir::Tier> &t) { return t ? ir::tierName(*t) : ""; }

struct HmctImport {
  const Source &src;
  const Context &ctx;
  const hmct::QuantConfigDoc &doc;
  Comments comments;
  ImportedSpec &out;

  void notCarried(const JsonValue &v, const std::string &what, const std::string &why) const {
    ctx.notCarried(src, v.line, v.column, what, why);
  }
  const JsonValue *section(const char *name) const {
    const JsonValue *s = doc.root.get(name);
    return s && s->kind == JsonValue::Object ? s : nullptr;
  }
  // The comments on the entry's key line, for the rule written from it.
  void commentsOf(const JsonValue &v, std::vector<std::string> &into) {
    for (const std::string &c : comments.take(v.line))
      into.push_back(c);
  }

  // A scalar or a list of scalars as a target setting's values ("max, kl"); "" when not scalar.
  static std::string values(const JsonValue &v) {
    auto one = [](const JsonValue &x) -> std::string {
      if (x.kind == JsonValue::Integer || x.kind == JsonValue::Bool || x.kind == JsonValue::String)
        return x.text;
      if (x.kind == JsonValue::Float)
        return numberText(std::strtod(x.text.c_str(), nullptr));
      return "";
    };
    if (v.kind != JsonValue::Array)
      return one(v);
    std::string list;
    for (const JsonValue &x : v.items) {
      std::string w = one(x);
      if (w.empty() || (x.kind == JsonValue::String && !isWord(w)))
        return "";
      list += (list.empty() ? "" : ", ") + w;
    }
    return list;
  }
  static bool isOpType(const std::string &w) {
    if (w.empty() || std::isdigit(static_cast<unsigned char>(w[0])))
      return false;
    for (char c : w)
      if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_')
        return false;
    return true;
  }
  static bool isWord(const std::string &w) {
    for (char c : w)
      if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_' && c != '-' && c != '.')
        return false;
    return !w.empty();
  }

  void setting(const std::string &key, const JsonValue &v) {
    std::string vals = values(v);
    if (vals.empty() || (v.kind == JsonValue::String && !isWord(vals))) {
      notCarried(v, "model_config setting '" + key + "'",
                 "the hmct target writes it only as a scalar or a list of scalars");
      return;
    }
    commentsOf(v, out.targets.back().comments);
    out.targets.back().settings.push_back(key + " " + vals);
  }

  void activation(const JsonValue &act) {
    bool calibrated = false;
    for (const auto &[key, v] : act.members) {
      if (key == "calibration_type") {
        calibrated = true;
        if (v.kind == JsonValue::String && (v.text == "max" || v.text == "kl")) {
          commentsOf(v, out.defaultsComments);
          out.defaults.act.push_back(v.text == "max" ? "minmax" : "histogram");
          continue;
        }
      } else if ((key == "per_channel" || key == "asymmetric") && v.kind == JsonValue::Bool) {
        bool on = v.text == "true";
        commentsOf(v, out.defaultsComments);
        out.defaults.act.push_back(key == "per_channel" ? (on ? "per_channel" : "per_tensor")
                                                        : (on ? "asymmetric" : "symmetric"));
        continue;
      }
      setting(key, v);
    }
    if (!calibrated) // the emitter leaves calibration_type out only for HMCT's own search
      out.targets.back().settings.push_back("search default");
    // The recipe words in the order `act` reads them: scope, symmetry, method.
    std::stable_sort(
        out.defaults.act.begin(), out.defaults.act.end(),
        [](const std::string &a, const std::string &b) {
          auto rank = [](const std::string &w) {
            return w.rfind("per_", 0) == 0 ? 0 : w.find("symmetric") != std::string::npos ? 1 : 2;
          };
          return rank(a) < rank(b);
        });
  }

  void weight(const JsonValue &w) {
    for (const auto &[key, v] : w.members) {
      if (key != "bias_correction" || v.kind != JsonValue::Object) {
        notCarried(v, "model_config.weight setting '" + key + "'",
                   "the hmct target has no setting for it");
        continue;
      }
      std::string block;
      for (const auto &[k, x] : v.members) {
        std::string val = values(x);
        if ((k != "num_sample" && k != "metric") || !isWord(val))
          notCarried(x, "bias_correction setting '" + k + "'",
                     "the hmct target writes num_sample and metric");
        else
          block += (block.empty() ? "" : "; ") + k + " " + val;
      }
      commentsOf(v, out.targets.back().comments);
      out.targets.back().settings.push_back(block.empty() ? "bias_correction true"
                                                          : "bias_correction { " + block + " }");
    }
  }

  // modelwise_search / layerwise_search: a block of the fields HMCT reads (metric, similarity /
  // metric, topk, qtype); other fields are reported. A layerwise_search in a file without
  // calibration_type is reported: the target writes that file with 'search default', which the
  // layerwise search excludes.
  void search(const std::string &key, const JsonValue &v, bool calibrated) {
    bool layerwise = key == "layerwise_search";
    if (layerwise && !calibrated) {
      notCarried(v, "model_config setting '" + key + "'",
                 "without activation.calibration_type the hmct target writes 'search default', "
                 "which a layerwise search excludes");
      return;
    }
    std::string block;
    for (const auto &[k, x] : v.members) {
      // The JSON type HMCT reads each field as (a similarity "0.9" is no number to HMCT).
      bool text = k == "metric" || (layerwise && k == "qtype");
      bool number = layerwise ? k == "topk" && x.kind == JsonValue::Integer
                              : k == "similarity" &&
                                    (x.kind == JsonValue::Integer || x.kind == JsonValue::Float);
      if (!(text && x.kind == JsonValue::String) && !number)
        notCarried(x, key + " setting '" + k + "'",
                   layerwise ? "the hmct target writes metric and qtype (strings) and topk "
                               "(an integer)"
                             : "the hmct target writes metric (a string) and similarity (a "
                               "number)");
      else if (!isWord(values(x)))
        notCarried(x, key + " setting '" + k + "'", "the hmct target writes it as a word");
      else
        block += (block.empty() ? " " : "; ") + k + " " + values(x);
    }
    commentsOf(v, out.targets.back().comments);
    out.targets.back().settings.push_back(key + " {" + block + (block.empty() ? "}" : " }"));
  }

  // Whether HMCT is told a calibration_type (else it runs its default search).
  bool calibrationTyped(const JsonValue *mc) const {
    const JsonValue *act = mc ? mc->get("activation") : nullptr;
    return act && act->kind == JsonValue::Object && act->get("calibration_type");
  }

  void modelConfig() {
    const JsonValue *mc = section("model_config");
    bool calibrated = false; // activation present: activation() decides `search default`
    for (const auto &[key, v] :
         mc ? mc->members : std::vector<std::pair<std::string, JsonValue>>{}) {
      if (key == "all_node_type") {
        std::string t = tierWord(vendors::tierForQtype(v.text));
        commentsOf(v, out.defaultsComments);
        if (t.empty())
          notCarried(v, "all_node_type \"" + v.text + "\"", "qspec has no tier for this qtype");
        else
          out.defaults.tier = t;
      } else if (key == "activation" && v.kind == JsonValue::Object) {
        calibrated = true;
        activation(v);
      } else if (key == "weight" && v.kind == JsonValue::Object) {
        weight(v);
      } else if (key == "model_output_type") {
        setting(key, v);
      } else if ((key == "modelwise_search" || key == "layerwise_search") &&
                 v.kind == JsonValue::Object) {
        search(key, v, calibrationTyped(mc));
      } else {
        notCarried(v, "model_config setting '" + key + "'",
                   "the hmct target has no setting for it (of HMCT's searches it writes "
                   "'search default', modelwise_search and layerwise_search)");
      }
    }
    if (!calibrated)
      out.targets.back().settings.push_back("search default");
  }

  void opConfig() {
    const JsonValue *ops = section("op_config");
    if (!ops)
      return;
    for (const auto &[type, e] : ops->members) {
      const JsonValue *q = e.kind == JsonValue::Object ? e.get("qtype") : nullptr;
      std::string t =
          q && q->kind == JsonValue::String ? tierWord(vendors::tierForQtype(q->text)) : "";
      if (!isOpType(type)) {
        notCarried(e, "op_config entry '" + type + "'",
                   "an ONNX op type is a name of letters, digits and '_'");
        continue;
      }
      if (t.empty()) {
        notCarried(e, "op_config entry '" + type + "'",
                   q ? "qspec has no tier for qtype '" + q->text + "'"
                     : "HMCT reads only 'qtype' in an op entry");
        continue;
      }
      Override o;
      commentsOf(e, o.comments);
      o.byType = true;
      o.selectors = {type};
      o.body.tier = t;
      out.overrides.push_back(std::move(o));
    }
  }

  bool inInventory(const std::string &name) const {
    return !ctx.inventory || ctx.inventory->inventory.find(name);
  }

  void nodeConfig() {
    const JsonValue *nodes = section("node_config");
    if (!nodes)
      return;
    std::vector<std::string> order, protects;
    std::map<std::string, std::vector<std::string>> byTier;
    std::map<std::string, std::vector<std::string>> commentsByTier;
    std::set<std::string> seen;
    // A repeated key: json.loads keeps the last one.
    std::map<std::string, const JsonValue *> last;
    for (const auto &[name, e] : nodes->members)
      last[name] = &e;
    for (const auto &[name, e] : nodes->members) {
      if (last[name] != &e || !seen.insert(name).second)
        continue;
      auto q = vendors::hmctEntryQtype(e);
      if (!q)
        continue; // the op or model level decides
      if (!inInventory(name)) {
        notCarried(e, "node_config entry \"" + name + "\"",
                   "the inventory has no node of that name (HMCT applies it to nothing)");
        continue;
      }
      if (!q->tier) {
        notCarried(e, "node_config entry \"" + name + "\" (" + q->qtype + ")",
                   "qspec has no tier for this qtype");
        out.undecided.push_back(name);
        continue;
      }
      std::string t = tierWord(q->tier);
      if (t == "float") {
        commentsOf(e, out.protectComments);
        protects.push_back(name);
        continue;
      }
      if (!byTier.count(t))
        order.push_back(t);
      commentsOf(e, commentsByTier[t]);
      byTier[t].push_back(name);
    }
    for (const std::string &p : namePatterns(ctx, protects))
      out.protectNames.push_back(p);
    for (const std::string &t : order) {
      Override o;
      o.comments = commentsByTier[t];
      o.selectors = namePatterns(ctx, byTier[t]);
      o.body.tier = t;
      out.overrides.push_back(std::move(o));
    }
  }

  // HMCT's own reading of the original on the inventory: the nodes whose qtype no tier gives
  // (an op entry's int16-ec) are not decided by the spec either.
  void undecidedByType() {
    if (!ctx.inventory)
      return;
    vendors::HmctNodes nodes(doc);
    std::set<std::string> already(out.undecided.begin(), out.undecided.end());
    for (const ir::Module &m : ctx.inventory->inventory.modules)
      if (!nodes.qtype(m.name, m.type).tier && !already.count(m.name))
        out.undecided.push_back(m.name);
  }
};

} // namespace

bool importHmct(const Source &src, const Context &ctx, ImportedSpec &out) {
  hmct::QuantConfigDoc doc;
  if (!hmct::parseQuantConfig(*src.text, src.file, doc, ctx.diags))
    return false;
  bool bad = false;
  for (const hmct::Issue &i : hmct::checkQuantConfig(doc))
    if (i.error) {
      ctx.diags.report(DiagID::err_import_refused,
                       SourceRange::point(src.file, i.line ? i.line : 1, i.column ? i.column : 1),
                       {"HMCT", i.message + " (" + hmct::checkName(i.check) + ")"});
      bad = true;
    }
  if (bad)
    return false;
  HmctImport im{src, ctx, doc, Comments(*src.text, "//"), out};
  out.header = im.comments.takeLeading();
  out.header.insert(
      out.header.begin(),
      " Imported by 'qcc import' from " + src.path +
          " (HMCT quant_config). Review before use; the quant_config has no march: add "
          "'march' to the target.");
  out.targets.push_back(TargetBlock{{}, "hmct", "", {}});
  im.modelConfig();
  im.opConfig();
  im.nodeConfig();
  im.undecidedByType();
  for (const char *s : {"subgraph_config"})
    if (const JsonValue *v = doc.root.get(s))
      im.notCarried(*v, s, "the hmct target writes no subgraph entries");
  std::vector<std::string> rest = im.comments.rest();
  out.targets.back().comments.insert(out.targets.back().comments.end(), rest.begin(), rest.end());
  return true;
}

} // namespace qspec::import
