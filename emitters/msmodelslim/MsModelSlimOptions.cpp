// The msmodelslim target's settings; see MsModelSlimOptions.h.
#include "emitters/msmodelslim/MsModelSlimOptions.h"

#include "vendors/msmodelslim/MsModelSlimRules.h"

#include <algorithm>
#include <climits>
#include <filesystem>
#include <optional>
#include <set>

namespace qspec::emit {

const std::vector<std::string> kSubgraphTypes = {"norm-linear", "linear-linear", "ov", "up-down"};

bool isListSetting(const std::string &type, const std::string &key) {
  if (key != "enable_subgraph_type" && key != "include" && key != "exclude" && key != "layer_type")
    return false;
  const std::vector<std::string> *keys = msmodelslim::processorKeys(type);
  return keys && std::find(keys->begin(), keys->end(), key) != keys->end();
}

namespace {

class OptionParser {
public:
  OptionParser(const ir::Spec &spec, const ir::Target &target, PracticeOptions &out,
               DiagnosticEngine &diags)
      : spec_(spec), target_(target), out_(out), diags_(diags) {}

  bool run() {
    head();
    metadata();
    specSettings();
    antiOutlier();
    attentionQuant();
    autoroundQuant();
    floatSparse();
    prior();
    sdConfig();
    return ok_;
  }

private:
  const ir::Spec &spec_;
  const ir::Target &target_;
  PracticeOptions &out_;
  DiagnosticEngine &diags_;
  bool ok_ = true;

  SourceRange valueAt(const ir::Option *o) const {
    return o && !o->values.empty() ? o->values.front().range : o ? o->range : target_.range;
  }
  void bad(const ir::Option *o, const std::string &why) {
    diags_.report(DiagID::err_msmodelslim_bad_option, valueAt(o), {o ? o->key : "", why});
    ok_ = false;
  }
  void badAt(SourceRange at, const std::string &key, const std::string &why) {
    diags_.report(DiagID::err_msmodelslim_bad_option, at, {key, why});
    ok_ = false;
  }
  std::optional<std::string> single(const char *key) {
    const ir::Option *o = target_.option(key);
    if (!o)
      return std::nullopt;
    if (o->isBlock || o->values.size() != 1) {
      bad(o, "expects one value");
      return std::nullopt;
    }
    return o->values.front().text;
  }
  void whitelist(const std::string &what, const std::string &text, SourceRange where) {
    ok_ = checkWhitelisted(diags_, what, text, where) && ok_;
  }
  const ir::Value *oneValue(const char *key) {
    const ir::Option *o = target_.option(key);
    return o && o->values.size() == 1 ? &o->values[0] : nullptr;
  }

  // apiversion and config_id (the file name).
  void head() {
    if (auto v = single("apiversion")) {
      if (!msmodelslim::isEmittableApiVersion(*v)) {
        diags_.report(DiagID::err_msmodelslim_bad_apiversion, valueAt(target_.option("apiversion")),
                      {*v});
        ok_ = false;
      } else {
        out_.apiversion = *v;
      }
    }
    out_.vlm = out_.apiversion == "multimodal_vlm_modelslim_v1";
    out_.sd = out_.apiversion == "multimodal_sd_modelslim_v1";
    out_.configId = std::filesystem::path(spec_.path).stem().string();
    SourceRange idAt = target_.range;
    if (auto v = single("config_id")) {
      out_.configId = *v;
      idAt = valueAt(target_.option("config_id"));
    }
    std::string why;
    if (!msmodelslim::checkConfigId(out_.configId, why)) {
      diags_.report(DiagID::err_msmodelslim_bad_config_id, idAt, {out_.configId, why});
      ok_ = false;
    }
  }

  // verified_tags { model "TYPE", "TAG", ... }: each line one inner list of metadata.verified_tags
  // under its model type (msModelSlim: a map of model type to lists of tags verified together).
  void verifiedTags() {
    const ir::Option *o = target_.option("verified_tags");
    if (!o)
      return;
    if (!o->isBlock || o->children.empty())
      return bad(o, "verified_tags is a block of 'model \"TYPE\", \"TAG\", ...' lines");
    for (const ir::Option &c : o->children) {
      bool strings = c.children.empty() && c.values.size() >= 2;
      for (const ir::Value &v : c.values)
        strings = strings && v.kind == ir::Value::String;
      if (c.key != "model" || !strings) {
        badAt(c.range, "verified_tags." + c.key,
              "each line is 'model \"TYPE\", \"TAG\", ...': a model type, then the tags verified "
              "together");
        continue;
      }
      for (const ir::Value &v : c.values)
        whitelist("verified_tags entry", v.text, v.range);
      auto it = std::find_if(out_.verifiedTags.begin(), out_.verifiedTags.end(),
                             [&](const auto &e) { return e.first == c.values[0].text; });
      if (it == out_.verifiedTags.end())
        it = out_.verifiedTags.insert(out_.verifiedTags.end(), {c.values[0].text, {}});
      std::vector<std::string> tags;
      for (size_t i = 1; i < c.values.size(); ++i)
        tags.push_back(c.values[i].text);
      it->second.push_back(std::move(tags));
    }
  }

  // score, label, verified_model_types, verified_tags.
  void metadata() {
    verifiedTags();
    if (const ir::Option *o = target_.option("score")) {
      if (o->values.size() != 1 || o->values[0].kind != ir::Value::Number ||
          o->values[0].number < 0)
        bad(o, "score is a number >= 0");
      else
        out_.score = &o->values[0];
    }
    if (const ir::Option *o = target_.option("verified_model_types"))
      for (const ir::Value &v : o->values) {
        if (v.text.size() > 200)
          bad(o, "each model type has at most 200 characters");
        whitelist("verified_model_types entry", v.text, v.range);
        out_.verifiedModelTypes.push_back(v.text);
      }
    if (const ir::Option *o = target_.option("label")) {
      static const std::set<std::string> kLabel = {"w_bit",    "a_bit",  "is_sparse",
                                                   "kv_cache", "fa_bit", "fa_quant"};
      if (!o->isBlock)
        bad(o, "label is a block such as 'label { w_bit 8; a_bit 8 }'");
      for (const ir::Option &c : o->children) {
        if (!kLabel.count(c.key) || c.values.size() != 1)
          badAt(
              c.range, "label." + c.key,
              "label keys are w_bit, a_bit, is_sparse, kv_cache, fa_bit, fa_quant, one value each");
        else
          out_.label[c.key] = &c.values[0];
      }
    }
  }

  // save, part_file_size, runner, dataset, default_text, include.
  void specSettings() {
    if (const ir::Option *o = target_.option("save")) {
      if (o->values.size() != 1 || !msmodelslim::isKnownSaver(o->values[0].text, "modelslim_v1") ||
          (out_.sd && !msmodelslim::isKnownSaver(o->values[0].text, out_.apiversion)))
        bad(o,
            "saver '" + (o->values.empty() ? std::string() : o->values[0].text) +
                "' is not one msModelSlim accepts here; use ascendv1_saver, mindie_format_saver or "
                "compressed_tensors (not under multimodal_sd_modelslim_v1; distributed savers are "
                "not emitted)");
      else
        out_.saver = o->values[0].text;
    }
    if (const ir::Option *o = target_.option("part_file_size")) {
      if (o->values.size() != 1 || o->values[0].kind != ir::Value::Number ||
          !o->values[0].isInteger || o->values[0].number < 0)
        bad(o, "part_file_size is a whole number of GB >= 0 (0 = one file)");
      else
        out_.partFileSize = &o->values[0];
    }
    if (const ir::Option *o = target_.option("runner")) {
      if (o->values.size() != 1 || !msmodelslim::isKnownRunner(o->values[0].text))
        bad(o, "runner is one of auto, model_wise, layer_wise, dp_layer_wise");
      else if ((out_.vlm || out_.sd) && o->values[0].text != "layer_wise")
        bad(o, out_.apiversion + " forces runner layer_wise");
      else
        out_.runner = o->values[0].text;
    }
    if (const ir::Option *o = target_.option("dataset")) {
      if (o->values.size() != 1 || o->values[0].text.empty() || o->values[0].text.size() > 4096)
        bad(o, "dataset is one non-empty path of at most 4096 characters");
      else
        whitelist("dataset", o->values[0].text, o->values[0].range);
      out_.dataset = oneValue("dataset");
    }
    if (const ir::Option *o = target_.option("default_text")) {
      if (!out_.vlm)
        bad(o, "default_text exists only under apiversion multimodal_vlm_modelslim_v1");
      else if (o->values.size() != 1 ||
               o->values[0].text.find_first_not_of(" \t") == std::string::npos)
        bad(o, "default_text must not be blank");
      else
        whitelist("default_text", o->values[0].text, o->values[0].range);
      out_.defaultText = oneValue("default_text");
    }
    out_.include = target_.option("include");
    if (out_.apiversion != "modelslim_v0")
      for (const char *key :
           {"anti_dataset", "disable_anti_names", "use_kvcache_quant", "co_sparse", "is_lowbit",
            "use_sigma", "sigma_factor", "fraction", "pr", "mix_cfg"})
        if (const ir::Option *o = target_.option(key))
          bad(o, std::string(key) + " exists only under apiversion modelslim_v0");
  }

  // One `name value` setting of an anti-outlier processor: a key msModelSlim's processor takes
  // (extra=forbid) with one value, in the range the reference gives.
  void processorSetting(const ir::Option &c, const ir::Option &p) {
    if (isListSetting(c.key, p.key))
      return listSetting(c, p);
    const ir::Value *v = p.values.size() == 1 ? &p.values[0] : nullptr;
    bool numeric = v && v->kind == ir::Value::Number;
    std::string k = c.key + "." + p.key;
    bool unit = numeric && v->number > 0 && v->number < 1;
    std::string takes = scalarSettings(c.key);
    if ((", " + takes + ",").find(", " + p.key + ",") == std::string::npos) {
      badAt(p.keyRange, k,
            "'" + c.key + "' has no setting '" + p.key + "' qspec writes; it takes " + takes);
    } else if (!v || !p.children.empty()) {
      badAt(p.range, k, "a processor setting takes one value");
    } else if ((p.key == "alpha" || p.key == "beta" || p.key == "scale_min") && !unit) {
      badAt(p.range, k, p.key + " must be in the range (0, 1)");
    } else if (p.key == "block_size") {
      long long x = numeric && v->isInteger ? static_cast<long long>(v->number) : 0;
      if (x != -1 && (x <= 0 || (x & (x - 1)) != 0))
        badAt(p.range, k,
              "block_size must be -1 or a positive power of 2, got " +
                  (v ? v->text : std::string("nothing")));
    }
  }

  // A list setting of an anti-outlier processor (`enable_subgraph_type "norm-linear", "up-down"`,
  // `include`, `exclude`): one or more strings, each a subgraph kind for enable_subgraph_type.
  void listSetting(const ir::Option &c, const ir::Option &p) {
    std::string k = c.key + "." + p.key;
    if (p.values.empty() || !p.children.empty())
      return badAt(p.range, k, "'" + p.key + "' takes one or more strings");
    for (const ir::Value &v : p.values) {
      if (v.kind != ir::Value::String)
        badAt(v.range, k, "'" + p.key + "' takes strings, got " + v.text);
      else if (p.key == "enable_subgraph_type" &&
               std::find(kSubgraphTypes.begin(), kSubgraphTypes.end(), v.text) ==
                   kSubgraphTypes.end())
        badAt(v.range, k,
              "'" + v.text + "' is not a subgraph kind: norm-linear, linear-linear, ov, up-down");
      else
        whitelist(k, v.text, v.range);
    }
  }

  // The settings of processor `type` (msModelSlim's own field list, vendors/msmodelslim) that hold
  // one value, the ones a `name value` line can write: "alpha, scale_min, symmetric".
  static std::string scalarSettings(const std::string &type) {
    static const std::vector<std::string> kNotScalar = {"type",      "include",
                                                        "exclude",   "enable_subgraph_type",
                                                        "qconfig",   "down_proj_online_layers",
                                                        "layer_type"};
    std::string out;
    if (const std::vector<std::string> *keys = msmodelslim::processorKeys(type))
      for (const std::string &k : *keys)
        if (std::find(kNotScalar.begin(), kNotScalar.end(), k) == kNotScalar.end())
          out += (out.empty() ? "" : ", ") + k;
    return out;
  }

  // attention_quant { fa3_quant { before linear_quant; fa_q { dtype fp8_e4m3; ... } }
  // dynamic_cache { qconfig { dtype int8; scope per_channel; symmetric true; method minmax } } }:
  // msModelSlim's attention processors, in the order written.
  void attentionQuant() {
    const ir::Option *o = target_.option("attention_quant");
    if (!o)
      return;
    if (!o->isBlock || o->children.empty())
      return bad(o, "attention_quant is a block of processors, such as 'attention_quant { "
                    "dynamic_cache { qconfig { dtype int8; scope per_channel; symmetric true; "
                    "method minmax } } }'");
    for (const ir::Option &c : o->children) {
      std::string k = "attention_quant." + c.key;
      if (!msmodelslim::isAttentionProcessor(c.key) || !c.isBlock) {
        badAt(c.keyRange, k,
              "'" + c.key +
                  "' is not an attention processor block; use dynamic_cache, fa3_quant or "
                  "online_quarot");
        continue;
      }
      AttentionProcessor a;
      a.type = c.key;
      for (const ir::Option &p : c.children)
        attentionSetting(c, p, a);
      if (a.type == "dynamic_cache" && !c.child("qconfig"))
        badAt(c.keyRange, k, "dynamic_cache needs a qconfig (msModelSlim: Field required)");
      if (a.qconfig && !a.details.empty())
        badAt(c.keyRange, k, "fa3_quant takes a qconfig or fa_q/fa_k/fa_v, not both");
      out_.attention.push_back(std::move(a));
    }
  }

  void attentionSetting(const ir::Option &c, const ir::Option &p, AttentionProcessor &a) {
    std::string k = "attention_quant." + c.key + "." + p.key;
    bool fa3 = c.key == "fa3_quant", rotation = c.key == "online_quarot";
    if (rotation && p.key == "block_size") {
      const ir::Value *v = p.values.size() == 1 && p.children.empty() ? &p.values[0] : nullptr;
      long long x =
          v && v->kind == ir::Value::Number && v->isInteger ? static_cast<long long>(v->number) : 0;
      if (x != -1 && (x <= 0 || (x & (x - 1)) != 0))
        badAt(p.range, k,
              "block_size must be -1 or a positive power of 2, got " +
                  (v ? v->text : std::string("nothing")));
      else
        a.blockSize = v;
    } else if (p.key == "include" || p.key == "exclude") {
      listSetting(c, p);
      (p.key == "include" ? a.include : a.exclude) = &p;
    } else if (p.key == "before") {
      if (p.values.size() != 1 || p.values[0].kind != ir::Value::Ident ||
          p.values[0].text != "linear_quant" || !p.children.empty())
        badAt(p.range, k, "'before' takes linear_quant (the processor runs ahead of them)");
      else
        a.beforeLinearQuant = true;
    } else if (!rotation && (p.key == "qconfig" ||
                             (fa3 && (p.key == "fa_q" || p.key == "fa_k" || p.key == "fa_v")))) {
      msmodelslim::QConfig q;
      std::string why;
      if (!qconfigBlock(p, k, q, nullptr))
        return;
      if (!msmodelslim::checkAttentionQConfig(c.key, q, why))
        badAt(valueAt(&p), k, why);
      else if (p.key == "qconfig")
        a.qconfig = q;
      else
        a.details.emplace_back(p.key, q);
    } else {
      badAt(p.keyRange, k,
            "'" + c.key + "' takes " +
                (rotation ? std::string("block_size")
                          : "qconfig" + std::string(fa3 ? ", fa_q, fa_k, fa_v" : "")) +
                ", include, exclude and before");
    }
  }

  // A qconfig block `{ dtype D; scope S; symmetric true|false; method M }` (the four fields
  // msModelSlim requires; `ext { key value ... }` too where `ext` is given), as the YAML writes it.
  bool qconfigBlock(const ir::Option &p, const std::string &k, msmodelslim::QConfig &q,
                    std::map<std::string, ir::Value> *ext) {
    bool ok = p.isBlock && p.values.empty();
    int seen = 0;
    for (const ir::Option &f : p.children) {
      const ir::Value *v = f.values.size() == 1 && f.children.empty() ? &f.values[0] : nullptr;
      if (f.key == "ext" && ext && f.isBlock) {
        for (const ir::Option &e : f.children) {
          bool one = e.values.size() == 1 && e.children.empty();
          if (one) {
            (*ext)[e.key] = e.values[0];
            whitelist(k + ".ext key", e.key, e.keyRange);
            whitelist(k + ".ext value", e.values[0].text, e.values[0].range);
          }
          ok = ok && one;
        }
        continue;
      }
      if (!v) {
        ok = false;
      } else if (f.key == "dtype" || f.key == "scope" || f.key == "method") {
        (f.key == "dtype" ? q.dtype : f.key == "scope" ? q.scope : q.method) = v->text;
        whitelist(k + "." + f.key, v->text, v->range);
        ++seen;
      } else if (f.key == "symmetric" && (v->text == "true" || v->text == "false")) {
        q.symmetric = v->text == "true";
        ++seen;
      } else {
        ok = false;
      }
    }
    if (!ok || seen != 4)
      badAt(p.range, k,
            "a qconfig is a block '{ dtype D; scope S; symmetric true|false; method M }'" +
                std::string(ext ? " with an optional 'ext { key value }'" : "") +
                ", each field once");
    return ok && seen == 4;
  }

  // flex_awq_ssz's own qconfig `{ act { ... } weight { ... } }` (weight required, each role a
  // qconfig block with an optional ext), each role checked as linear_quant's (checkQConfig, the
  // check msModelSlim makes when the processor runs).
  void ownQConfig(const ir::Option &c, const ir::Option &p) {
    std::string k = c.key + ".qconfig";
    ProcessorQConfig pq;
    if (!p.isBlock || !p.values.empty() || !p.child("weight"))
      return badAt(p.range, k,
                   "a processor's qconfig is a block '{ act { ... } weight { ... } }', weight "
                   "required");
    for (const ir::Option &r : p.children) {
      bool weight = r.key == "weight";
      msmodelslim::QConfig q;
      std::string why;
      if (!weight && r.key != "act")
        return badAt(r.keyRange, k + "." + r.key, "a qconfig has the roles act and weight");
      if (!qconfigBlock(r, k + "." + r.key, q, weight ? &pq.weightExt : &pq.actExt))
        return;
      if (!msmodelslim::checkQConfig(weight ? msmodelslim::Role::Weight : msmodelslim::Role::Act, q,
                                     why))
        return badAt(r.range, k + "." + r.key, why);
      (weight ? pq.weight : pq.act.emplace()) = q;
    }
    out_.processorQConfig[&c] = std::move(pq);
  }

  // autoround_quant { iters 400; enable_minmax_tuning true; enable_round_tuning true }.
  void autoroundQuant() {
    const ir::Option *o = target_.option("autoround_quant");
    if (!o)
      return;
    if (!o->isBlock || !o->values.empty())
      return bad(o, "autoround_quant is a block such as 'autoround_quant { iters 400 }'");
    out_.autoround = o;
    for (const ir::Option &p : o->children) {
      const ir::Value *v = p.values.size() == 1 && p.children.empty() ? &p.values[0] : nullptr;
      std::string k = "autoround_quant." + p.key;
      if (p.key == "iters") {
        if (!v || v->kind != ir::Value::Number || !v->isInteger || v->number <= 0)
          badAt(p.range, k, "iters must be greater than 0 (a whole number)");
      } else if (p.key == "enable_minmax_tuning" || p.key == "enable_round_tuning") {
        if (!v || v->kind != ir::Value::Ident || (v->text != "true" && v->text != "false"))
          badAt(p.range, k, p.key + " is true or false");
      } else {
        badAt(p.keyRange, k,
              "'autoround_quant' takes iters, enable_minmax_tuning and enable_round_tuning (its "
              "strategies are the spec's rules)");
      }
    }
  }

  // float_sparse { sparse_ratio 0.4; include "*"; exclude ... }.
  void floatSparse() {
    const ir::Option *o = target_.option("float_sparse");
    if (!o)
      return;
    if (!o->isBlock || !o->values.empty())
      return bad(o, "float_sparse is a block such as 'float_sparse { sparse_ratio 0.4 }'");
    out_.floatSparse = o;
    for (const ir::Option &p : o->children) {
      const ir::Value *v = p.values.size() == 1 && p.children.empty() ? &p.values[0] : nullptr;
      if (p.key == "include" || p.key == "exclude")
        listSetting(*o, p);
      else if (p.key != "sparse_ratio")
        badAt(p.keyRange, "float_sparse." + p.key,
              "'float_sparse' takes sparse_ratio, include and exclude");
      else if (!v || v->kind != ir::Value::Number || v->number < 0 || v->number > 1)
        badAt(p.range, "float_sparse.sparse_ratio", "sparse_ratio must be in the range [0, 1]");
    }
  }

  // prior { dataset "D"; adapt_rotation { stage 1; ... } }: one stage of spec.prior.
  void prior() {
    const ir::Option *o = target_.option("prior");
    if (!o)
      return;
    if (!o->isBlock || !o->values.empty() || o->children.empty())
      return bad(o, "prior is a block of processors such as 'prior { adapt_rotation { stage 1 } "
                    "}', with an optional dataset");
    out_.prior = o;
    for (const ir::Option &c : o->children) {
      if (c.key == "dataset") {
        if (c.values.size() != 1 || !c.children.empty() || c.values[0].text.empty())
          badAt(c.range, "prior.dataset", "dataset is one non-empty path");
        else
          whitelist("prior.dataset", c.values[0].text, c.values[0].range);
      } else if (!unknownProcessor(c.key, c.keyRange)) {
        processorBlock(c);
      }
    }
  }

  // An anti-outlier processor's block: each setting, and adapt_rotation's stage rules.
  void processorBlock(const ir::Option &c) {
    for (const ir::Option &p : c.children) {
      if (c.key == "flex_awq_ssz" && p.key == "qconfig")
        ownQConfig(c, p);
      else
        processorSetting(c, p);
    }
    if (c.key == "adapt_rotation")
      adaptRotation(c);
  }

  // adapt_rotation: `stage` 1 or 2 decides its other settings (msModelSlim: "stage=N allows
  // only [...]"), each in its range.
  void adaptRotation(const ir::Option &c) {
    const ir::Option *st = c.child("stage");
    const ir::Value *sv = st && st->values.size() == 1 ? &st->values[0] : nullptr;
    if (!sv || sv->kind != ir::Value::Number || (sv->number != 1 && sv->number != 2))
      return badAt(st ? st->range : c.keyRange, "adapt_rotation.stage",
                   "adapt_rotation needs its stage, 1 or 2");
    bool one = sv->number == 1;
    std::string allowed = one ? "stage, steps, quant_dtype, layer_type, block_size, max_samples"
                              : "stage, online, block_size, down_proj_online_layers, max_tp_size";
    for (const ir::Option &p : c.children) {
      const ir::Value *v = p.values.size() == 1 ? &p.values[0] : nullptr;
      long long n = v && v->kind == ir::Value::Number && v->isInteger
                        ? static_cast<long long>(v->number)
                        : LLONG_MIN;
      std::string k = "adapt_rotation." + p.key, why;
      if ((", " + allowed + ",").find(", " + p.key + ",") == std::string::npos)
        why = "stage=" + sv->text + " allows only " + allowed;
      else if (p.key == "steps" && (n < 1 || n > 1000))
        why = "steps is a whole number in [1, 1000]";
      else if (p.key == "max_samples" && (n < 1 || n > 100000))
        why = "max_samples is a whole number in [1, 100000]";
      else if (p.key == "max_tp_size" && (n < 1 || n > 64 || (n & (n - 1)) != 0))
        why = "max_tp_size must be a positive power of 2 or equal to 1, at most 64";
      else if (p.key == "quant_dtype" && (!v || (v->text != "int4" && v->text != "int8")))
        why = "quant_dtype is int4 or int8";
      else if (p.key == "online" && (!v || (v->text != "true" && v->text != "false")))
        why = "online is true or false";
      if (!why.empty())
        badAt(p.range, k, why);
    }
  }

  // multimodal_sd_config { dump_config { enable_dump B; capture_mode "args"; dump_data_dir "D" }
  // inference_config { key value ... } }: the SD service's block (vendors/msmodelslim/
  // MsModelSlimSd.h), required under multimodal_sd_modelslim_v1 and refused elsewhere.
  void sdConfig() {
    const ir::Option *o = target_.option("multimodal_sd_config");
    if (!out_.sd) {
      if (o)
        bad(o, "multimodal_sd_config exists only under apiversion multimodal_sd_modelslim_v1");
      return;
    }
    if (!o || !o->isBlock || !o->child("dump_config"))
      return badAt(o ? valueAt(o) : target_.range, "multimodal_sd_config",
                   "multimodal_sd_modelslim_v1 needs 'multimodal_sd_config { dump_config { ... } "
                   "}' (msModelSlim: multimodal_sd_config.dump_config Field required)");
    out_.sdConfig = o;
    const ir::Option *inference = nullptr;
    std::set<std::string> seen;
    for (const ir::Option &c : o->children) {
      std::string k = "multimodal_sd_config." + c.key;
      if (!seen.insert(c.key).second)
        badAt(c.keyRange, k, "'" + c.key + "' is given twice (msModelSlim refuses a repeated key)");
      else if (c.key == "dump_config")
        dumpConfig(c, k);
      else if ((c.key == "inference_config" || c.key == "model_config") && !c.isBlock)
        badAt(c.range, k, "'" + c.key + "' is a block of settings (msModelSlim: a dict)");
      else if ((c.key == "inference_config" || c.key == "model_config") && inference)
        badAt(c.keyRange, k,
              "inference_config and model_config are mutually exclusive; please keep only one.");
      else if (c.key == "inference_config" || c.key == "model_config")
        inferenceSettings(*(inference = &c), k);
      else
        badAt(c.keyRange, k,
              "msModelSlim's SD service reads dump_config, inference_config and model_config "
              "only");
    }
  }

  void dumpConfig(const ir::Option &c, const std::string &k) {
    if (!c.isBlock)
      return badAt(c.range, k,
                   "dump_config is a block '{ enable_dump true|false; capture_mode \"args\"; "
                   "dump_data_dir \"DIR\" }'");
    std::set<std::string> seen;
    for (const ir::Option &p : c.children) {
      std::string pk = k + "." + p.key;
      const ir::Value *v = p.values.size() == 1 && !p.isBlock ? &p.values[0] : nullptr;
      bool word = v && v->kind == ir::Value::Ident;
      if (!seen.insert(p.key).second)
        badAt(p.keyRange, pk,
              "'" + p.key + "' is given twice (msModelSlim refuses a repeated key)");
      else if (p.key == "enable_dump" && !(word && (v->text == "true" || v->text == "false")))
        badAt(p.range, pk, "enable_dump is true or false (msModelSlim: a valid boolean)");
      else if (p.key == "capture_mode" && !(v && v->kind != ir::Value::Number && v->text == "args"))
        badAt(p.range, pk, "capture_mode: Input should be 'args'");
      else if (p.key == "dump_data_dir" && !(v && v->kind == ir::Value::String))
        badAt(p.range, pk, "dump_data_dir is one string (\"\": the save path)");
      else if (p.key == "dump_data_dir")
        whitelist(pk, v->text, v->range);
      else if (p.key != "enable_dump" && p.key != "capture_mode")
        badAt(p.keyRange, pk,
              "Extra inputs are not permitted (dump_config takes enable_dump, capture_mode and "
              "dump_data_dir)");
    }
  }

  // The settings of an inference block, at any depth: each key once, and keys and string values
  // msModelSlim's whitelist accepts (it checks this block). A value is written as a number,
  // true/false, or a string; several values are a list, a block a dict.
  void inferenceSettings(const ir::Option &block, const std::string &k) {
    std::set<std::string> seen;
    for (const ir::Option &p : block.children) {
      std::string pk = k + "." + p.key;
      if (!seen.insert(p.key).second)
        badAt(p.keyRange, pk,
              "'" + p.key + "' is given twice (msModelSlim refuses a repeated key)");
      whitelist(k + " key", p.key, p.keyRange);
      for (const ir::Value &v : p.values)
        if (v.kind != ir::Value::Number)
          whitelist(pk, v.text, v.range);
      if (p.isBlock)
        inferenceSettings(p, pk);
    }
  }

  bool unknownProcessor(const std::string &name, SourceRange at) {
    if (msmodelslim::isAntiOutlierProcessor(name))
      return false;
    diags_.report(DiagID::err_msmodelslim_unknown_processor, at,
                  {name, msmodelslim::antiOutlierList()});
    ok_ = false;
    return true;
  }

  // A processor named without settings (`anti_outlier iter_smooth`, a tune candidate): a known
  // one that needs none (adapt_rotation needs its stage).
  void bareProcessor(const std::string &name, SourceRange at) {
    if (!unknownProcessor(name, at) && name == "adapt_rotation")
      badAt(at, "anti_outlier.adapt_rotation",
            "adapt_rotation needs its stage: write 'adapt_rotation { stage 2 }'");
  }

  void antiOutlier() {
    // The tune block's candidates: qtune makes each one this target's processor in turn, so a
    // name the emitter refuses here would fail the search when it came to that candidate. A
    // single candidate is already this target's processor (the tune-choice pass), checked below.
    const ir::Tune &tune = spec_.tune;
    if (tune.antiOutlier.size() > 1)
      for (const std::string &name : tune.antiOutlier)
        bareProcessor(name,
                      tune.antiOutlierStatement.valid() ? tune.antiOutlierStatement : tune.range);
    const ir::Option *o = target_.option("anti_outlier");
    if (!o)
      return;
    out_.antiOutlier = o;
    for (const ir::Value &v : o->values)
      bareProcessor(v.text, v.range);
    for (const ir::Option &c : o->children)
      if (!unknownProcessor(c.key, c.keyRange))
        processorBlock(c);
  }
};

} // namespace

bool checkWhitelisted(DiagnosticEngine &diags, const std::string &what, const std::string &text,
                      SourceRange where) {
  size_t at = msmodelslim::firstNonWhitelisted(text);
  if (at == std::string::npos)
    return true;
  diags.report(DiagID::err_msmodelslim_not_whitelisted, where,
               {what, text, msmodelslim::describeByte(static_cast<unsigned char>(text[at]))});
  return false;
}

bool checkLinearRole(const PracticeOptions &o, msmodelslim::Role role,
                     const msmodelslim::QConfig &q, const std::map<std::string, ir::Value> &ext,
                     std::string &why) {
  if (!o.autoround)
    return msmodelslim::checkQConfig(role, q, why);
  auto gs = ext.find("group_size"), sd = ext.find("scale_dtype");
  const ir::Value *g = gs == ext.end() ? nullptr : &gs->second;
  return msmodelslim::checkAutoroundRole(role, q, g ? &g->text : nullptr,
                                         g && g->kind == ir::Value::Number && g->isInteger,
                                         sd == ext.end() ? nullptr : &sd->second.text, why);
}

bool parsePracticeOptions(const ir::Spec &spec, const ir::Target &target, PracticeOptions &out,
                          DiagnosticEngine &diags) {
  return OptionParser(spec, target, out, diags).run();
}

} // namespace qspec::emit
