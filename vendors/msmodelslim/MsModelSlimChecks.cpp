// msModelSlim practice document checks (checkPractice, classifyPractice); see
// MsModelSlimRules.h. The vocabularies, the whitelist, the qconfig table and the reader they use
// are MsModelSlimRules.cpp's. Section numbers refer to ../shared/reference/msmodelslim.md.
#include "vendors/msmodelslim/MsModelSlimRules.h"
#include "vendors/CheckHelpers.h"

#include "vendors/msmodelslim/MsModelSlimBraces.h"
#include "vendors/msmodelslim/MsModelSlimV0.h"

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace qspec::msmodelslim {

using vendors::isOneOf;

namespace {

struct Checker {
  const PracticeDoc &doc;
  std::vector<Issue> issues;

  void add(Check check, bool error, const YamlValue *at, std::string msg) {
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
      add(Check::Whitelist, vendorChecked, &at, msg);
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

  // A key outside `allowed` (pydantic `extra=forbid`, reference 1.4), reported at the key.
  void extraKeys(const YamlValue &m, const std::vector<std::string> &allowed,
                 const std::string &path) {
    for (const auto &kv : m.map)
      if (std::find(allowed.begin(), allowed.end(), kv.first) == allowed.end())
        issues.push_back({Check::ExtraKey, true, kv.second.keyLine, kv.second.keyCol,
                          path + "." + kv.first + ": Extra inputs are not permitted" +
                              didYouMean(kv.first, allowed)});
  }

  // `field` of mapping `m` is required; reported at the mapping (its first key).
  const YamlValue *required(const YamlValue &m, const char *field, const std::string &path) {
    const YamlValue *v = m.get(field);
    if (!v || v->kind == YamlValue::Null)
      add(Check::MissingField, true, &m, path + "." + field + ": Field required");
    return v && v->kind != YamlValue::Null ? v : nullptr;
  }

  // One qconfig (3): dtype, scope, method and symmetric required, ext optional. Fills `q`.
  bool role(const YamlValue &r, const std::string &path, QConfig &q) {
    if (r.kind != YamlValue::Mapping) {
      add(Check::Qconfig, true, &r, path + ": Input should be a valid dictionary");
      return false;
    }
    static const std::vector<std::string> keys = {"dtype", "scope", "symmetric", "method", "ext"};
    extraKeys(r, keys, path);
    bool complete = true;
    for (const char *f : {"dtype", "scope", "method", "symmetric"}) {
      const YamlValue *fv = required(r, f, path);
      if (!fv || fv->kind != YamlValue::Scalar) {
        if (fv)
          add(Check::Qconfig, true, fv, path + "." + f + ": Input should be a valid string");
        complete = false;
        continue;
      }
      std::string name = f;
      if (name == "symmetric") {
        if (fv->scalarType() != "bool") {
          add(Check::Qconfig, true, fv, path + ".symmetric: Input should be a valid boolean");
          complete = false;
        }
        q.symmetric = fv->text[0] == 't' || fv->text[0] == 'T' || fv->text[0] == 'y' ||
                      fv->text[0] == 'Y' || fv->text == "on" || fv->text == "On" ||
                      fv->text == "ON";
      } else {
        (name == "dtype" ? q.dtype : name == "scope" ? q.scope : q.method) = fv->text;
      }
    }
    return complete;
  }

  // linear_quant's qconfig (3): `act` optional, `weight` required; the pair must be registered
  // unless `allowInt4Act` (autoround_quant skips the quantizer registry). `owner` is the
  // processor, where a missing qconfig is reported.
  void qconfig(const YamlValue &owner, const std::string &path, bool allowInt4Act) {
    const YamlValue *qc = required(owner, "qconfig", path);
    if (!qc)
      return;
    if (qc->kind != YamlValue::Mapping) {
      add(Check::Qconfig, true, qc, path + ".qconfig: Input should be a valid dictionary");
      return;
    }
    static const std::vector<std::string> keys = {"act", "weight"};
    extraKeys(*qc, keys, path + ".qconfig");
    required(*qc, "weight", path + ".qconfig");
    for (Role r : {Role::Act, Role::Weight}) {
      const char *name = r == Role::Act ? "act" : "weight";
      const YamlValue *rv = qc->get(name);
      QConfig q;
      if (!rv || !role(*rv, path + ".qconfig." + name, q) || allowInt4Act)
        continue;
      std::string why;
      if (!checkQConfig(r, q, why))
        add(Check::Qconfig, true, rv, path + ".qconfig." + name + ": " + why);
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
          add(Check::PatternLength, true, &e, at + ": String should have at most 200 characters");
        uint64_t n = braceExpansions(e.text);
        if (n > kPatternLimit)
          add(Check::PatternLimit, true, &e,
              at + ": PatternLimitException: pattern '" + e.text + "' expands to " +
                  (n == UINT64_MAX ? std::string("more than 2^64") : std::to_string(n)) +
                  " patterns, more than wcmatch's limit of 1000");
      }
    }
  }

  // A number for a range check (pydantic lax float: "1e-5" and "95" count); nullopt, with a
  // type error, for anything else; nullopt silently for null.
  std::optional<double> number(const YamlValue &v, const std::string &path, Check check) {
    if (v.kind == YamlValue::Null || (v.kind == YamlValue::Scalar && v.scalarType() == "null"))
      return std::nullopt;
    if (v.kind == YamlValue::Scalar && v.scalarType() != "bool") {
      try {
        size_t used = 0;
        double x = std::stod(v.text, &used);
        if (used == v.text.size())
          return x;
      } catch (...) {
      }
    }
    add(check, true, &v, path + ": Input should be a valid number");
    return std::nullopt;
  }

  // Numeric fields of processor `p` (4) against the ranges the reference states.
  void ranges(const YamlValue &p, const std::string &type, const std::string &where) {
    auto check = [&](const char *key, bool (*ok)(double), const std::string &rule) {
      const YamlValue *v = p.get(key);
      if (!v)
        return;
      std::optional<double> x = number(*v, where + "." + key, Check::ProcessorRange);
      if (x && !ok(*x))
        add(Check::ProcessorRange, true, v,
            where + "." + key + ": " + key + rule + ", got " + v->text);
    };
    auto openUnit = [](double x) { return x > 0 && x < 1; };
    auto closedUnit = [](double x) { return x >= 0 && x <= 1; };
    auto positive = [](double x) { return x > 0; };
    auto pow2 = [](double x) {
      auto n = static_cast<long long>(x);
      return n == x && n > 0 && (n & (n - 1)) == 0;
    };
    auto pow2OrMinusOne = [](double x) {
      auto n = static_cast<long long>(x);
      return n == x && (n == -1 || (n > 0 && (n & (n - 1)) == 0));
    };
    const char *inUnit = " must be in the range (0, 1)";
    if (type == "iter_smooth" || type == "smooth_quant" || type == "flex_smooth_quant" ||
        type == "flex_awq_ssz")
      check("alpha", openUnit, inUnit);
    if (type == "flex_smooth_quant" || type == "flex_awq_ssz")
      check("beta", openUnit, inUnit);
    if (type == "iter_smooth")
      check("scale_min", openUnit, inUnit);
    if (type == "float_sparse")
      check("sparse_ratio", closedUnit, " must be in the range [0, 1]");
    if (type == "svd_res")
      check("rank", positive, " must be greater than 0");
    if (type == "autoround_quant")
      check("iters", positive, " must be greater than 0");
    if (type == "kv_smooth")
      check("smooth_factor", positive, " must be greater than 0");
    if (type == "quarot" || type == "online_quarot")
      check("block_size", pow2OrMinusOne, " must be -1 or a positive power of 2");
    if (type == "quarot")
      check("max_tp_size", pow2, " must be a positive power of 2");
    if (type == "adapt_rotation")
      check(
          "stage", [](double x) { return x == 1 || x == 2; }, " must be 1 or 2");
    if (type == "iter_smooth" || type == "flex_smooth_quant" || type == "flex_awq_ssz" ||
        type == "awq")
      subgraphTypes(p, where);
  }

  // enable_subgraph_type (4): a list of the four subgraph kinds. msModelSlim checks it only when
  // the smoothing runs: `Elements in enable_subgraph_type must be in [...], current element: X`.
  void subgraphTypes(const YamlValue &p, const std::string &where) {
    const YamlValue *v = p.get("enable_subgraph_type");
    if (!v || v->kind == YamlValue::Null)
      return;
    if (v->kind != YamlValue::Sequence)
      return add(Check::SubgraphType, true, v,
                 where + ".enable_subgraph_type: Input should be a valid list, got " + v->text);
    for (const YamlValue &e : v->items)
      if (e.kind != YamlValue::Scalar ||
          !isOneOf(e.text, {"norm-linear", "linear-linear", "ov", "up-down"}))
        add(Check::SubgraphType, true, &e,
            where +
                ".enable_subgraph_type: Elements in enable_subgraph_type must be in "
                "['norm-linear', 'linear-linear', 'ov', 'up-down'], current element: " +
                e.text);
  }

  // One qconfig of an attention processor (dynamic_cache, fa3_quant): complete, and one
  // msModelSlim accepts there (checkAttentionQConfig).
  void attentionRole(const std::string &type, const YamlValue &r, const std::string &path) {
    QConfig q;
    std::string why;
    if (role(r, path, q) && !checkAttentionQConfig(type, q, why))
      add(Check::Qconfig, true, &r, path + ": " + why);
  }

  // The fields a processor requires and the qconfigs it holds (3, 4).
  void fields(const YamlValue &p, const std::string &type, const std::string &where,
              const std::string &api) {
    QConfig unused;
    if (type == "linear_quant") {
      qconfig(p, where, false);
    } else if (type == "flex_awq_ssz") {
      if (p.get("qconfig"))
        qconfig(p, where, false);
      else
        add(Check::MissingField, true, &p,
            "qconfig is a required parameter for flex_awq_ssz processor");
    } else if (type == "dynamic_cache") {
      if (const YamlValue *qc = required(p, "qconfig", where))
        attentionRole(type, *qc, where + ".qconfig");
    } else if (type == "awq") {
      if (const YamlValue *qc = required(p, "weight_qconfig", where))
        role(*qc, where + ".weight_qconfig", unused);
    } else if (type == "fa3_quant") {
      if (const YamlValue *qc = p.get("qconfig"))
        attentionRole(type, *qc, where + ".qconfig");
      if (const YamlValue *d = p.get("details"); d && d->kind == YamlValue::Mapping) {
        static const std::vector<std::string> keys = {"fa_q", "fa_k", "fa_v"};
        extraKeys(*d, keys, where + ".details");
        for (const auto &kv : d->map)
          attentionRole(type, kv.second, where + ".details." + kv.first);
      }
    } else if (type == "adapt_rotation") {
      if (const YamlValue *st = required(p, "stage", where))
        adaptRotationStage(p, *st, where);
    } else if (type == "group") {
      const YamlValue *cfgs = required(p, "configs", where);
      if (cfgs && cfgs->kind != YamlValue::Sequence)
        add(Check::Processor, true, cfgs, where + ".configs: Input should be a valid list");
      else if (cfgs)
        for (size_t i = 0; i < cfgs->items.size(); ++i)
          processor(cfgs->items[i], where + ".configs." + std::to_string(i), api);
    } else if (type == "autoround_quant") {
      strategies(p, where);
    }
  }

  // adapt_rotation: its stage (1 or 2) allows only that stage's fields (its config's
  // before-validator: "stage=1 allows only [...]; got extra: [...]", lists sorted).
  void adaptRotationStage(const YamlValue &p, const YamlValue &stage, const std::string &where) {
    if (stage.scalarType() != "int" || (stage.text != "1" && stage.text != "2"))
      return;
    std::vector<std::string> allowed =
        stage.text == "1"
            ? std::vector<std::string>{"block_size", "layer_type", "max_samples", "quant_dtype",
                                       "stage",      "steps",      "type"}
            : std::vector<std::string>{"block_size",  "down_proj_online_layers",
                                       "max_tp_size", "online",
                                       "stage",       "type"};
    std::vector<std::string> extra;
    for (const auto &kv : p.map)
      if (std::find(allowed.begin(), allowed.end(), kv.first) == allowed.end())
        extra.push_back(kv.first);
    if (extra.empty())
      return;
    std::sort(extra.begin(), extra.end());
    auto list = [](const std::vector<std::string> &v) {
      std::string s = "[";
      for (const std::string &x : v)
        s += (s.size() > 1 ? ", '" : "'") + x + "'";
      return s + "]";
    };
    add(Check::ExtraKey, true, &p,
        where + ": stage=" + stage.text + " allows only " + list(allowed) +
            "; got extra: " + list(extra));
  }

  // autoround_quant: a non-empty `strategies` list of {qconfig, include, exclude}; int4
  // activations allowed, the quantizer table not consulted (3).
  void strategies(const YamlValue &p, const std::string &where) {
    const YamlValue *s = p.get("strategies");
    if (!s || s->kind != YamlValue::Sequence || s->items.empty()) {
      add(Check::MissingField, true, s ? s : &p, where + ".strategies: must not be empty");
      return;
    }
    static const std::vector<std::string> keys = {"qconfig", "include", "exclude"};
    for (size_t j = 0; j < s->items.size(); ++j) {
      std::string at = where + ".strategies." + std::to_string(j);
      extraKeys(s->items[j], keys, at);
      patterns(s->items[j], at);
      qconfig(s->items[j], at, true);
      autoroundRoles(s->items[j], at);
    }
  }

  // A strategy's roles as autoround_quant validates them when the config loads
  // (checkAutoroundRole: group_size and scale_dtype in ext).
  void autoroundRoles(const YamlValue &strategy, const std::string &at) {
    const YamlValue *qc = strategy.get("qconfig");
    for (Role r : {Role::Act, Role::Weight}) {
      const char *name = r == Role::Act ? "act" : "weight";
      const YamlValue *rv = qc && qc->kind == YamlValue::Mapping ? qc->get(name) : nullptr;
      QConfig q;
      size_t reported = issues.size(); // qconfig() reported this role's own problems
      bool complete = rv && role(*rv, at + ".qconfig." + name, q);
      issues.erase(issues.begin() + static_cast<std::ptrdiff_t>(reported), issues.end());
      if (!complete)
        continue;
      const YamlValue *ext = rv->get("ext");
      auto extText = [&](const char *k) -> const YamlValue * {
        const YamlValue *v = ext && ext->kind == YamlValue::Mapping ? ext->get(k) : nullptr;
        return v && v->kind == YamlValue::Scalar ? v : nullptr;
      };
      const YamlValue *gs = extText("group_size"), *sd = extText("scale_dtype");
      std::string why;
      if (!checkAutoroundRole(r, q, gs ? &gs->text : nullptr, gs && gs->scalarType() == "int",
                              sd ? &sd->text : nullptr, why))
        add(Check::Qconfig, true, rv, "Configuration validation failed for " + at + ": " + why);
    }
  }

  void processor(const YamlValue &p, const std::string &path, const std::string &api) {
    const YamlValue *t = p.kind == YamlValue::Mapping ? p.get("type") : nullptr;
    if (!t || t->kind != YamlValue::Scalar) {
      add(Check::Processor, true, &p, path + ": Unable to extract tag using discriminator 'type'");
      return;
    }
    if (!isKnownProcessor(t->text)) {
      add(Check::Processor, true, t,
          path + ".type: Input tag '" + t->text +
              "' found using 'type' does not match any of the expected tags" +
              didYouMean(t->text, processorTypes()));
      return;
    }
    std::string where = path + "." + t->text;
    if (const std::vector<std::string> *keys = processorKeys(t->text))
      extraKeys(p, *keys, where);
    patterns(p, where);
    fields(p, t->text, where, api);
    ranges(p, t->text, where);
    if (t->text == "ascendv1_saver" || t->text == "mindie_format_saver" ||
        t->text == "ascendv1_saver_distributed")
      add(Check::Saver, true, t, path + ".type: a saver belongs in spec.save, not spec.process");
  }

  // metadata.verified_tags (1.2): a mapping of model type to lists of lists of tags.
  void verifiedTags(const YamlValue &v) {
    if (v.kind != YamlValue::Mapping)
      return add(Check::Metadata, true, &v,
                 "metadata.verified_tags: Input should be a valid dictionary");
    for (const auto &[model, lists] : v.map) {
      bool ok = lists.kind == YamlValue::Sequence;
      for (const YamlValue &l : lists.items) {
        ok = ok && l.kind == YamlValue::Sequence;
        for (const YamlValue &tag : l.items)
          ok = ok && tag.kind == YamlValue::Scalar;
      }
      if (!ok)
        add(Check::Metadata, true, &lists,
            "metadata.verified_tags." + model +
                ": Input should be a valid list of lists of strings");
    }
  }

  // metadata (1.2): unknown keys refused; score a number >= 0; label a mapping.
  void metadata(const YamlValue &md) {
    if (md.kind != YamlValue::Mapping) {
      add(Check::Metadata, true, &md, "metadata: Input should be a valid dictionary");
      return;
    }
    extraKeys(md, kMetadataKeys, "metadata");
    for (const auto &kv : md.map) {
      const YamlValue &v = kv.second;
      if (kv.first == "config_id") {
        if (v.kind != YamlValue::Scalar || v.text.size() > 200)
          add(Check::Metadata, true, &v, "metadata.config_id: a string of at most 200 characters");
      } else if (kv.first == "score") {
        std::optional<double> x = v.scalarType() == "bool"
                                      ? std::optional<double>(1)
                                      : number(v, "metadata.score", Check::Score);
        if (x && *x < 0)
          add(Check::Score, true, &v,
              "metadata.score: Value error, Code: 203, Message: score must be greater than or "
              "equal to 0, got " +
                  v.text);
      } else if (kv.first == "label") {
        if (v.kind != YamlValue::Mapping)
          add(Check::Metadata, true, &v, "metadata.label: Input should be a valid dictionary");
      } else if (kv.first == "verified_model_types") {
        if (v.kind != YamlValue::Sequence)
          add(Check::Metadata, true, &v,
              "metadata.verified_model_types: Input should be a valid list");
        else
          for (const auto &item : v.items)
            if (item.kind != YamlValue::Scalar || item.text.size() > 200)
              add(Check::Metadata, true, &item,
                  "metadata.verified_model_types: items are strings of at most 200 characters");
      } else if (kv.first == "verified_tags") {
        verifiedTags(v);
      }
    }
  }

  // spec.process and spec.prior[].process (4); prior items are {process, dataset}.
  void processLists(const YamlValue &spec, const std::string &api) {
    for (const char *list : {"process", "prior"}) {
      const YamlValue *p = spec.get(list);
      if (!p || p->kind == YamlValue::Null)
        continue;
      if (p->kind != YamlValue::Sequence) {
        add(Check::Processor, true, p,
            std::string("spec.") + list + ": Input should be a valid list");
        continue;
      }
      bool prior = std::string(list) == "prior";
      for (size_t i = 0; i < p->items.size(); ++i) {
        const YamlValue &item = p->items[i];
        std::string path = std::string("spec.") + list + "." + std::to_string(i);
        if (!prior) {
          processor(item, path, api);
          continue;
        }
        static const std::vector<std::string> keys = {"process", "dataset"};
        extraKeys(item, keys, path);
        if (const YamlValue *pp = item.get("process"); pp && pp->kind == YamlValue::Sequence)
          for (size_t j = 0; j < pp->items.size(); ++j)
            processor(pp->items[j], path + ".process." + std::to_string(j), api);
      }
    }
  }

  // spec.save (2): savers of the apiversion; VLM/SD: processors allowed before a final saver.
  void save(const YamlValue &spec, const std::string &api) {
    const YamlValue *save = spec.get("save");
    if (save && save->kind != YamlValue::Sequence && save->kind != YamlValue::Null)
      add(Check::Saver, true, save, "spec.save: Input should be a valid list");
    if (!save || save->kind != YamlValue::Sequence)
      return;
    bool vlmOrSd = api != "modelslim_v1";
    if (vlmOrSd && save->items.empty())
      add(Check::VlmSave, true, save,
          "spec.save: the last item must be a saver (IndexError on an empty list)");
    for (size_t i = 0; i < save->items.size(); ++i) {
      const YamlValue &item = save->items[i];
      const YamlValue *t = item.get("type");
      std::string tt = t && t->kind == YamlValue::Scalar ? t->text : "";
      std::string path = "spec.save." + std::to_string(i);
      bool last = i + 1 == save->items.size();
      if (isKnownSaver(tt, api)) {
        extraKeys(item, *processorKeys(tt), path + "." + tt);
      } else if (vlmOrSd && !last && isKnownProcessor(tt)) {
        processor(item, path, api);
      } else if (vlmOrSd && last && isKnownProcessor(tt)) {
        add(Check::VlmSave, true, t,
            "TypeError: The save config you provide is not a saver config (" + path + ".type is '" +
                tt + "', the last save item must be a saver)");
      } else {
        add(Check::Saver, true, t ? t : &item,
            path + ".type: Input tag '" + tt +
                "' found using 'type' does not match any of the expected tags for " + api);
      }
      if (const YamlValue *pfs = item.get("part_file_size")) {
        bool neg = pfs->kind == YamlValue::Scalar && !pfs->text.empty() && pfs->text[0] == '-';
        if (pfs->scalarType() != "int" || neg)
          add(Check::PartFileSize, true, pfs,
              "part_file_size must be greater than or equal to 0, got " + pfs->text);
      }
    }
  }

  // spec.multimodal_sd_config of an SD practice (2, SD): MultimodalSDConfig keeps unknown keys,
  // requires dump_config (so a missing block fails too: its default lacks it), whose own keys
  // are enable_dump (bool), capture_mode ('args') and dump_data_dir (str); inference_config is a
  // dict or null, and resolve_inference_raw refuses it beside the legacy model_config, which must
  // be a dict.
  void sdConfig(const YamlValue &spec) {
    const YamlValue *sd = spec.get("multimodal_sd_config");
    if (!sd || sd->kind == YamlValue::Null) { // at the block's key, else at `spec:`
      const YamlValue &at = sd ? *sd : spec;
      issues.push_back({Check::MissingField, true, at.keyLine ? at.keyLine : at.line,
                        at.keyLine ? at.keyCol : at.col,
                        "spec.multimodal_sd_config.dump_config: Field required (the block's "
                        "default has no dump_config)"});
      return;
    }
    if (sd->kind != YamlValue::Mapping)
      return add(Check::SdConfig, true, sd,
                 "spec.multimodal_sd_config: Input should be a valid dictionary");
    const std::string at = "spec.multimodal_sd_config";
    if (const YamlValue *d = required(*sd, "dump_config", at); d && d->kind != YamlValue::Mapping) {
      add(Check::SdConfig, true, d, at + ".dump_config: Input should be a valid dictionary");
    } else if (d) {
      static const std::vector<std::string> keys = {"enable_dump", "capture_mode", "dump_data_dir"};
      extraKeys(*d, keys, at + ".dump_config");
      if (const YamlValue *e = d->get("enable_dump"); e && !sdBool(*e))
        add(Check::SdConfig, true, e,
            at + ".dump_config.enable_dump: Input should be a valid boolean");
      if (const YamlValue *c = d->get("capture_mode"); c && !(c->isString() && c->text == "args"))
        add(Check::SdConfig, true, c, at + ".dump_config.capture_mode: Input should be 'args'");
      if (const YamlValue *p = d->get("dump_data_dir"); p && !p->isString())
        add(Check::SdConfig, true, p,
            at + ".dump_config.dump_data_dir: Input should be a valid string");
    }
    const YamlValue *inf = sd->get("inference_config"), *legacy = sd->get("model_config");
    bool hasInference = inf && inf->kind != YamlValue::Null;
    if (hasInference && inf->kind != YamlValue::Mapping)
      add(Check::SdConfig, true, inf, at + ".inference_config: Input should be a valid dictionary");
    // Both at the model_config key.
    auto atKey = [&](const YamlValue &v, std::string msg) {
      issues.push_back({Check::SdConfig, true, v.keyLine, v.keyCol, std::move(msg)});
    };
    if (hasInference && legacy)
      atKey(*legacy,
            "inference_config and model_config are mutually exclusive; please keep only one.");
    else if (legacy && legacy->kind != YamlValue::Mapping)
      atKey(*legacy, "model_config must be dict, got <class '" + pythonType(*legacy) + "'>");
  }

  // The Python type PyYAML loads `v` as.
  static std::string pythonType(const YamlValue &v) {
    if (v.kind == YamlValue::Sequence)
      return "list";
    std::string t = v.scalarType();
    return t == "null" ? "NoneType" : t;
  }

  // pydantic's lax bool: YAML booleans, 0 and 1, and the words it accepts as strings.
  static bool sdBool(const YamlValue &v) {
    if (v.kind != YamlValue::Scalar)
      return false;
    std::string t = v.scalarType(), w;
    if (t == "bool")
      return true;
    if (t == "int")
      return v.text == "0" || v.text == "1";
    for (char c : v.text)
      w += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return t == "str" &&
           isOneOf(w, {"0", "1", "off", "on", "f", "t", "false", "true", "n", "y", "no", "yes"});
  }

  // The spec block under `api` (2).
  void spec(const YamlValue &spec, const std::string &api) {
    if (spec.kind != YamlValue::Mapping) {
      add(Check::SpecKey, true, &spec, "task spec must be dict");
      return;
    }
    std::vector<std::string> keys = specKeys(api);
    extraKeys(spec, keys, "spec");
    static const std::vector<std::string> runners = {"auto", "model_wise", "layer_wise",
                                                     "dp_layer_wise"};
    if (const YamlValue *r = spec.get("runner");
        r && (r->kind != YamlValue::Scalar || !isKnownRunner(r->text)))
      add(Check::Runner, true, r,
          "spec.runner: Input should be 'auto', 'model_wise', 'layer_wise' or 'dp_layer_wise'" +
              didYouMean(r->text, runners));
    processLists(spec, api);
    save(spec, api);
    if (api == "multimodal_sd_modelslim_v1")
      sdConfig(spec);
    if (const YamlValue *dt = spec.get("default_text")) {
      bool blank =
          dt->kind != YamlValue::Scalar || dt->text.find_first_not_of(" \t") == std::string::npos;
      if (blank)
        add(Check::DefaultText, true, dt, "spec.default_text: must not be blank");
    }
  }

  // modelslim_v0: the plugin reads spec's keys with dict.get and passes calib_cfg and anti_cfg
  // to QuantConfig and AntiOutlierConfig as keyword arguments, so each must be a mapping of
  // arguments those constructors take, with values they accept (checkV0Arguments).
  void v0Spec(const YamlValue &root) {
    const YamlValue *s = root.get("spec");
    if (!s)
      return;
    if (s->kind != YamlValue::Mapping)
      return add(Check::V0Spec, true, s, "task spec must be dict");
    for (const char *key : {"calib_cfg", "anti_cfg"})
      if (const YamlValue *v = s->get(key);
          v && v->kind != YamlValue::Mapping && v->kind != YamlValue::Null)
        add(Check::V0Spec, true, v,
            std::string("spec.") + key + ": must be a dict of keyword arguments (" +
                (std::string(key) == "calib_cfg" ? "QuantConfig" : "AntiOutlierConfig") + ")");
    checkV0Arguments(*s, [&](uint32_t line, uint32_t col, std::string msg) {
      issues.push_back({Check::V0Spec, true, line, col, std::move(msg)});
    });
  }

  void run() {
    for (const auto &[key, line] : doc.duplicateKeys)
      issues.push_back(
          {Check::DuplicateKey, true, line, 1,
           "Duplicate key '" + key + "' found in YAML at line " + std::to_string(line) + "."});
    const YamlValue &root = doc.root;
    if (root.kind != YamlValue::Mapping) {
      add(Check::Apiversion, true, &root, "dict must be dict, not list.");
      return;
    }
    whitelist(root, "", true);
    const YamlValue *api = root.get("apiversion");
    std::string apiText = api && api->kind == YamlValue::Scalar ? api->text : "Unknown";
    if (!isKnownApiVersion(apiText)) {
      add(Check::Apiversion, true, api ? api : &root,
          "No plugin found for type '" + apiText +
              "' in group 'msmodelslim.quant_service.plugins'.");
      return;
    }
    if (apiText == "modelslim_v0")
      return v0Spec(root);
    if (apiText == "modelslim_convert") {
      add(Check::NotATarget, false, api,
          "apiversion '" + apiText + "' is not a qspec target; only its v1 forms are checked");
      return;
    }
    if (const YamlValue *md = root.get("metadata"))
      metadata(*md);
    if (const YamlValue *s = root.get("spec"))
      spec(*s, apiText);
  }
};

} // namespace

const char *checkName(Check c) {
  static const char *const names[] = {
#define PRACTICE_CHECK(ENUM, ID) ID,
#include "vendors/msmodelslim/PracticeChecks.def"
#undef PRACTICE_CHECK
  };
  return names[static_cast<unsigned>(c)];
}

std::vector<Issue> checkPractice(const PracticeDoc &doc) {
  Checker c{doc, {}};
  c.run();
  return std::move(c.issues);
}

std::string classifyPractice(const PracticeDoc &doc, const std::vector<Issue> &issues) {
  for (const Issue &i : issues)
    if (i.check == Check::NotATarget)
      return "not-a-target";
  for (const Issue &i : issues)
    if (i.error)
      return std::string("refused: ") + checkName(i.check);
  (void)doc;
  return "accepted";
}

} // namespace qspec::msmodelslim
