// `qcc import` of an msModelSlim practice (YAML, apiversion modelslim_v1,
// multimodal_vlm_modelslim_v1 or multimodal_sd_modelslim_v1), read with vendors/msmodelslim/
// (parsePractice, checkPractice, the reading of MsModelSlimReader.h). One `linear_quant`: its
// qconfig becomes `defaults`, its exclude `protect`, its include the target's `include`. Several
// (msModelSlim: the first that selects a Linear quantizes it): the practice is read on the
// inventory, the most used processor's qconfig becomes `defaults`, every other processor an
// `override name` over the Linears it quantizes, and the Linears none quantizes `protect`, each
// list compressed with the emitters' SelectionCompressor. Anti-outlier processors ahead of
// `linear_quant`, the saver, dataset, runner and metadata become the `target msmodelslim` block, an
// SD practice's multimodal_sd_config its block of that name (ImportMsModelSlimSd.cpp). A
// modelslim_v0 practice is imported by ImportMsModelSlimV0.cpp.
#include "driver/qcc/import/Importer.h"
#include "driver/qcc/import/ImportMsModelSlimV0.h"

#include "emitters/msmodelslim/MsModelSlimOptions.h"
#include "frontend/Parser.h"
#include "vendors/msmodelslim/MsModelSlimBraces.h"
#include "vendors/msmodelslim/MsModelSlimReader.h"
#include "vendors/msmodelslim/MsModelSlimRules.h"
#include "ir/Regex.h"
#include "ir/Select.h"

#include <map>

namespace qspec::import {

namespace {

using frontend::qspecString;

using msmodelslim::YamlValue;

struct LinearQuant {
  const YamlValue *item = nullptr;
  std::vector<std::string> include, exclude; // as written
  bool includeAll = true;                    // missing or null include
};

struct PracticeImport {
  const Source &src;
  const Context &ctx;
  const msmodelslim::PracticeDoc &doc;
  Comments comments;
  std::vector<LinearQuant> quants;
  std::vector<const YamlValue *> antiOutlier;
  std::vector<std::pair<const YamlValue *, bool>> attention; // processor, ahead of linear_quant
  const YamlValue *autoround = nullptr;                      // its strategies are `quants`
  const YamlValue *floatSparse = nullptr;                    // ahead of any Linear quantization

  void notCarried(const YamlValue &v, const std::string &what, const std::string &why) const {
    ctx.notCarried(src, v.keyLine ? v.keyLine : v.line, v.col, what, why);
  }

  // A scalar as a .qspec value: numbers and booleans bare, anything else a string.
  static std::string value(const YamlValue &v) {
    std::string t = v.scalarType();
    if (t == "int" || t == "float")
      return v.text;
    if (t == "bool")
      return v.text == "true" || v.text == "True" || v.text == "TRUE" ? "true" : "false";
    if (t == "str" && v.isExponentNumber())
      return v.text; // YAML 1.1 reads `1e-5` as a string, msModelSlim's pydantic as the number
    return qspecString(v.text);
  }
  // The recipe words of one qconfig role.
  std::vector<std::string> role(const YamlValue *q) const {
    std::vector<std::string> w;
    if (!q)
      return {"float"};
    for (const char *k : {"dtype", "scope"})
      if (const YamlValue *v = q->get(k); v && v->kind == YamlValue::Scalar)
        w.push_back(v->text);
    if (const YamlValue *v = q->get("symmetric"); v && v->scalarType() == "bool")
      w.push_back(value(*v) == "true" ? "symmetric" : "asymmetric");
    if (const YamlValue *v = q->get("method"); v && v->kind == YamlValue::Scalar)
      w.push_back(v->text);
    if (const YamlValue *ext = q->get("ext"); ext && ext->kind == YamlValue::Mapping) {
      for (const auto &[k, v] : ext->map) {
        if (v.kind == YamlValue::Scalar) // a boolean as true/false, which the emitter types
          w.push_back(k + "=" + (v.scalarType() == "bool" ? value(v) : v.text));
        else
          notCarried(v, "qconfig ext " + k, "only scalar ext values are carried");
      }
    }
    return w;
  }

  RuleBody body(const LinearQuant &lq) const {
    RuleBody b;
    const YamlValue *qc = lq.item->get("qconfig");
    b.weight = role(qc ? qc->get("weight") : nullptr);
    b.act = role(qc ? qc->get("act") : nullptr);
    return b;
  }

  static std::vector<std::string> scalars(const YamlValue *list) {
    std::vector<std::string> out;
    if (list && list->kind == YamlValue::Sequence)
      for (const YamlValue &e : list->items)
        if (e.kind == YamlValue::Scalar)
          out.push_back(e.text);
    return out;
  }

  void collect(const YamlValue &list) {
    for (const YamlValue &item : list.items) {
      const YamlValue *t = item.get("type");
      std::string type = t ? t->text : "";
      const YamlValue *strategies = type == "autoround_quant" ? item.get("strategies") : nullptr;
      if (type == "linear_quant" && !autoround) {
        quants.push_back(linearQuant(item));
      } else if (strategies && quants.empty() && strategies->kind == YamlValue::Sequence) {
        autoround = &item; // its strategies read like linear_quant processors, in order
        for (const YamlValue &st : strategies->items)
          quants.push_back(linearQuant(st));
      } else if (type == "linear_quant" || strategies) {
        notCarried(item, "processor '" + type + "'",
                   "the msmodelslim target writes the Linears' quantization as linear_quant "
                   "processors or as one autoround_quant, not both");
      } else if (type == "float_sparse" && quants.empty() && !floatSparse) {
        floatSparse = &item;
      } else if (type == "group" && item.get("configs")) {
        collect(*item.get("configs"));
      } else if (msmodelslim::isAntiOutlierProcessor(type) && quants.empty()) {
        antiOutlier.push_back(&item);
      } else if (msmodelslim::isAttentionProcessor(type)) {
        attention.emplace_back(&item, quants.empty());
      } else {
        notCarried(item, "processor '" + type + "'",
                   msmodelslim::isAntiOutlierProcessor(type)
                       ? "qspec writes anti-outlier processors ahead of linear_quant only"
                       : "the msmodelslim target has no setting for it");
      }
    }
  }

  // A linear_quant processor or an autoround_quant strategy ({qconfig, include, exclude}).
  static LinearQuant linearQuant(const YamlValue &item) {
    LinearQuant lq;
    lq.item = &item;
    const YamlValue *inc = item.get("include");
    lq.includeAll = !inc || inc->kind == YamlValue::Null;
    lq.include = lq.includeAll ? std::vector<std::string>{"*"} : scalars(inc);
    lq.exclude = scalars(item.get("exclude"));
    return lq;
  }

  // `NAME { key value; ... }` of a processor whose scalar settings and string lists are written
  // as the target's block (autoround_quant, float_sparse); `skip`: a key carried elsewhere.
  std::string settingsBlock(const YamlValue &p, const char *skip) const {
    std::string type = p.get("type")->text, s, skipKey = skip ? skip : "type";
    for (const auto &[k, v] : p.map) {
      std::string list = k == "type" || k == skipKey ? "-" : stringList(type, k, v);
      if (list == "-")
        continue;
      if (v.kind == YamlValue::Scalar)
        s += " " + k + " " + value(v) + ";";
      else if (!list.empty())
        s += " " + k + " " + list + ";";
      else
        notCarried(v, "setting '" + k + "' of " + type,
                   "only scalar settings and lists of strings are carried");
    }
    if (!s.empty() && s.back() == ';')
      s.pop_back();
    return type + " {" + s + " }";
  }

  std::string antiOutlierSetting() const { return "anti_outlier {" + processorBlocks(antiOutlier); }

  // spec.prior: one stage whose processors are anti-outlier ones, as `prior { ... }`.
  void priorSetting(const YamlValue &v, TargetBlock &t) const {
    const YamlValue *stage =
        v.kind == YamlValue::Sequence && v.items.size() == 1 ? &v.items[0] : nullptr;
    const YamlValue *process = stage ? stage->get("process") : nullptr;
    std::vector<const YamlValue *> procs;
    bool ok = process && process->kind == YamlValue::Sequence && !process->items.empty();
    for (size_t i = 0; ok && i < process->items.size(); ++i) {
      const YamlValue *type = process->items[i].get("type");
      ok = type && msmodelslim::isAntiOutlierProcessor(type->text);
      procs.push_back(&process->items[i]);
    }
    if (!ok)
      return notCarried(v, "spec.prior",
                        "the msmodelslim target writes one prior stage of anti-outlier processors");
    std::string s = "prior {";
    if (const YamlValue *d = stage->get("dataset"); d && d->kind == YamlValue::Scalar)
      s += " dataset " + qspecString(d->text) + ";";
    t.settings.push_back(s + processorBlocks(procs));
  }

  // ` NAME { key value; ... } ... }`: anti-outlier processors as the target's blocks.
  std::string processorBlocks(const std::vector<const YamlValue *> &procs) const {
    std::string s;
    for (const YamlValue *p : procs) {
      s += " " + p->get("type")->text + " {";
      for (const auto &[k, v] : p->map) {
        if (k == "type")
          continue;
        if (v.kind == YamlValue::Scalar)
          s += " " + k + " " + value(v) + ";";
        else if (std::string list = stringList(p->get("type")->text, k, v); !list.empty())
          s += list.size() > 1 ? " " + k + " " + list + ";" : "";
        else if (std::string q = k == "qconfig" ? ownQConfig(v) : ""; !q.empty())
          s += " qconfig " + q + ";";
        else
          notCarried(v, "setting '" + k + "' of " + p->get("type")->text,
                     "only scalar settings, lists of strings (enable_subgraph_type, include, "
                     "exclude) and a qconfig of act and weight are carried");
      }
      if (s.back() == ';')
        s.pop_back();
      s += " }";
    }
    return s + " }";
  }

  // A processor's own qconfig (flex_awq_ssz) as `{ act { ... } weight { ... } }`, ext included;
  // "" when a role cannot be written.
  std::string ownQConfig(const YamlValue &q) const {
    std::string out;
    for (const auto &[role, r] : q.kind == YamlValue::Mapping ? q.map : decltype(q.map)()) {
      std::string block = role == "act" || role == "weight" ? qconfigBlock(r, true) : "";
      if (block.empty())
        return "";
      out += " " + role + " " + block;
    }
    return out.empty() || !q.get("weight") ? "" : "{" + out + " }";
  }

  // `attention_quant { fa3_quant { before linear_quant; qconfig ...; include "*" } ... }`.
  std::string attentionSetting() const {
    std::string s;
    for (const auto &[p, before] : attention) {
      std::string type = p->get("type")->text, body;
      if (!qconfigsCarried(*p)) {
        notCarried(*p, "processor '" + type + "'",
                   "a qconfig of it has keys the target does not write (it writes dtype, scope, "
                   "symmetric and method)");
        continue;
      }
      auto add = [&](const std::string &item) { body += (body.empty() ? " " : "; ") + item; };
      if (before)
        add("before linear_quant");
      for (const auto &[k, v] : p->map) {
        std::string words = k == "qconfig" ? qconfigBlock(v, false) : "", list;
        if (k == "type")
          continue;
        if (!words.empty()) {
          add("qconfig " + words);
        } else if (k == "details" && v.kind == YamlValue::Mapping && details(v, list)) {
          add(list);
        } else if (k == "block_size" && type == "online_quarot" && v.scalarType() == "int") {
          add("block_size " + v.text);
        } else if ((k == "include" || k == "exclude") && v.kind == YamlValue::Sequence &&
                   scalars(&v).size() == v.items.size()) {
          for (const std::string &x : scalars(&v))
            list += (list.empty() ? "" : ", ") + qspecString(x);
          if (!list.empty()) // an empty list is the default: every attention layer, or none
            add(k + " " + list);
        } else {
          notCarried(v, "setting '" + k + "' of " + type,
                     "the target writes a qconfig (dtype, scope, symmetric, method), fa3_quant's "
                     "details, online_quarot's block_size, include and exclude");
        }
      }
      s += " " + type + " {" + body + " }";
    }
    return s.empty() ? "" : "attention_quant {" + s + " }";
  }

  // Whether every qconfig of an attention processor (`qconfig`, `details.*`) can be written.
  bool qconfigsCarried(const YamlValue &p) const {
    const YamlValue *qc = p.get("qconfig"), *d = p.get("details");
    std::vector<const YamlValue *> all = {qc};
    if (d && d->kind == YamlValue::Mapping)
      for (const auto &kv : d->map)
        all.push_back(&kv.second);
    for (const YamlValue *q : all)
      if (q && q->kind != YamlValue::Null && qconfigBlock(*q, false).empty())
        return false;
    return true;
  }

  // A qconfig `{ dtype D; scope S; symmetric B; method M }` (the target's block form), with its
  // `ext` as `ext { key value }` when `withExt`; "" when it has other keys or lacks one.
  std::string qconfigBlock(const YamlValue &q, bool withExt) const {
    if (q.kind != YamlValue::Mapping)
      return "";
    std::string s;
    int fields = 0;
    for (const auto &[k, v] : q.map) {
      if (k == "ext" && withExt && v.kind == YamlValue::Mapping && !v.map.empty()) {
        std::string e;
        for (const auto &[ek, ev] : v.map)
          if (ev.kind == YamlValue::Scalar)
            e += (e.empty() ? " " : "; ") + ek + " " + value(ev);
          else
            return "";
        s += "; ext {" + e + " }";
        continue;
      }
      bool sym = k == "symmetric" && v.scalarType() == "bool";
      if (v.kind != YamlValue::Scalar || !(sym || k == "dtype" || k == "scope" || k == "method"))
        return "";
      s += (s.empty() ? "" : "; ") + k + " " + (sym ? value(v) : word(v.text));
      ++fields;
    }
    return fields == 4 ? "{ " + s + " }" : "";
  }

  // A word as a .qspec value: bare when it is an identifier, else a string.
  static std::string word(const std::string &t) {
    static const ir::Regex kIdent("[A-Za-z_][A-Za-z0-9_]*");
    return kIdent.fullMatch(t) ? t : qspecString(t);
  }

  // fa3_quant's details {fa_q, fa_k, fa_v}: `fa_q DTYPE SCOPE ...; fa_k ...`.
  bool details(const YamlValue &d, std::string &out) const {
    for (const auto &[k, q] : d.map) {
      std::string words = qconfigBlock(q, false);
      if (words.empty() || (k != "fa_q" && k != "fa_k" && k != "fa_v"))
        return false;
      out += (out.empty() ? "" : "; ") + k + " " + words;
    }
    return !out.empty();
  }

  // A list setting the target writes (emit::isListSetting) as `"a", "b"`; "-" when it is the
  // default (`include: ["*"]`, `exclude: []`: nothing to write); "" when it cannot be said.
  static std::string stringList(const std::string &type, const std::string &key,
                                const YamlValue &v) {
    if (v.kind != YamlValue::Sequence || !emit::isListSetting(type, key))
      return "";
    std::string out;
    for (const YamlValue &e : v.items) {
      if (e.kind != YamlValue::Scalar)
        return "";
      out += (out.empty() ? "" : ", ") + qspecString(e.text);
    }
    if ((key == "include" && out == "\"*\"") || (key == "exclude" && out.empty()))
      return "-";
    return out.empty() ? "" : out;
  }

  void metadata(TargetBlock &t) const {
    const YamlValue *md = doc.root.get("metadata");
    if (!md || md->kind != YamlValue::Mapping)
      return;
    for (const auto &[k, v] : md->map) {
      if ((k == "config_id" || k == "score") && v.kind == YamlValue::Scalar) {
        t.settings.push_back(k + " " + (k == "score" ? v.text : qspecString(v.text)));
      } else if (k == "label" && v.kind == YamlValue::Mapping) {
        std::string s = "label {";
        for (const auto &[lk, lv] : v.map)
          s += " " + lk + " " + (lv.kind == YamlValue::Scalar ? value(lv) : "\"\"") + ";";
        if (s.back() == ';')
          s.pop_back();
        t.settings.push_back(s + " }");
      } else if (k == "verified_model_types" && v.kind == YamlValue::Sequence) {
        std::string list;
        for (const std::string &x : scalars(&v))
          list += (list.empty() ? "" : ", ") + qspecString(x);
        if (!list.empty())
          t.settings.push_back("verified_model_types " + list);
      } else if (k == "verified_tags" && v.kind == YamlValue::Mapping) {
        verifiedTags(v, t);
      } else {
        notCarried(v, "metadata." + k, "the msmodelslim target has no setting for it");
      }
    }
  }

  // metadata.verified_tags {TYPE: [[TAG, ...], ...]}: one `model "TYPE", "TAG", ...` line per
  // inner list.
  void verifiedTags(const YamlValue &v, TargetBlock &t) const {
    std::string s;
    for (const auto &[model, lists] : v.map) {
      bool ok = lists.kind == YamlValue::Sequence && !lists.items.empty();
      for (const YamlValue &l : lists.items)
        ok = ok && l.kind == YamlValue::Sequence && !l.items.empty() &&
             scalars(&l).size() == l.items.size();
      if (!ok) {
        notCarried(lists, "metadata.verified_tags entry '" + model + "'",
                   "the target writes non-empty lists of tags only");
        continue;
      }
      for (const YamlValue &l : lists.items) {
        s += (s.empty() ? "" : ";") + std::string(" model ") + qspecString(model);
        for (const std::string &tag : scalars(&l))
          s += ", " + qspecString(tag);
      }
    }
    if (!s.empty())
      t.settings.push_back("verified_tags {" + s + " }");
  }

  void specSettings(TargetBlock &t) const {
    const YamlValue *spec = doc.root.get("spec");
    if (!spec || spec->kind != YamlValue::Mapping)
      return;
    for (const auto &[k, v] : spec->map) {
      if (k == "process")
        continue;
      if (k == "prior") {
        priorSetting(v, t);
        continue;
      }
      if ((k == "dataset" || k == "default_text") && v.kind == YamlValue::Scalar) {
        t.settings.push_back(k + " " + qspecString(v.text));
      } else if (k == "runner" && v.kind == YamlValue::Scalar && v.text != "layer_wise" &&
                 doc.apiversion != "modelslim_v1") {
        notCarried(v, "spec.runner '" + v.text + "'",
                   "msModelSlim runs a " + doc.apiversion +
                       " practice layer_wise whatever it says, and the target writes only that");
      } else if (k == "runner" && v.kind == YamlValue::Scalar) {
        t.settings.push_back("runner " + v.text);
      } else if (k == "save" && v.kind == YamlValue::Sequence && !v.items.empty()) {
        saver(v, t);
      } else if (k == "multimodal_sd_config" && doc.apiversion == "multimodal_sd_modelslim_v1") {
        if (std::string sd = importSdConfig(src, ctx, v); !sd.empty())
          t.settings.push_back(sd);
      } else {
        notCarried(v, "spec." + k, "the msmodelslim target has no setting for it");
      }
    }
  }

  void saver(const YamlValue &list, TargetBlock &t) const {
    const YamlValue &s = list.items.front();
    for (const auto &[k, v] : s.map) {
      if (k == "type" && v.kind == YamlValue::Scalar)
        t.settings.push_back("save " + v.text);
      else if (k == "part_file_size" && v.kind == YamlValue::Scalar)
        t.settings.push_back("part_file_size " + v.text);
      else
        notCarried(v, "saver setting '" + k + "'",
                   "the msmodelslim target writes type and part_file_size only");
    }
    for (size_t i = 1; i < list.items.size(); ++i)
      notCarried(list.items[i], "a second saver", "the msmodelslim target writes one saver");
  }

  // Patterns with msModelSlim's meaning, as .qspec patterns; with an inventory, the ones that
  // select no module are reported and left out (a protect must select something).
  std::vector<std::string> patterns(const std::vector<std::string> &written, const YamlValue *at,
                                    const char *what) const {
    std::vector<std::string> out;
    std::unique_ptr<ir::ModuleSelector> sel;
    if (ctx.inventory)
      sel = std::make_unique<ir::ModuleSelector>(ctx.inventory->inventory);
    for (const std::string &w : written) {
      std::string text = msmodelslim::vendorPatternText(w), err;
      auto p = Pattern::compile(text, err);
      if (sel && (!p || sel->selectWritten(w, *p).empty())) {
        notCarried(*at, std::string(what) + " entry \"" + w + "\"",
                   "it selects no module of the inventory");
        continue;
      }
      out.push_back(text);
    }
    return out;
  }
};

// One linear_quant: defaults, protect, target include.
void importSingle(PracticeImport &im, ImportedSpec &out, TargetBlock &t) {
  const LinearQuant &lq = im.quants.front();
  out.defaultsComments = im.comments.take(lq.item->line);
  out.defaults = im.body(lq);
  const YamlValue *exc = lq.item->get("exclude");
  out.protectComments = im.comments.take(exc ? exc->keyLine : 0);
  out.protectNames = im.patterns(lq.exclude, exc ? exc : lq.item, "exclude");
  if (!lq.includeAll && !(lq.include.size() == 1 && lq.include[0] == "*")) {
    std::vector<std::string> inc = im.patterns(lq.include, lq.item->get("include"), "include");
    std::string list;
    for (const std::string &p : inc)
      list += (list.empty() ? "" : ", ") + qspecString(p);
    if (!list.empty())
      t.settings.push_back("include " + list);
  }
}

std::vector<std::string> compressWanted(const Context &ctx,
                                        const std::vector<msmodelslim::Want> &want) {
  msmodelslim::SelectionCompressor c(ctx.inventory->inventory);
  bool verified = true;
  return c.compress(want, verified);
}

// Several linear_quants: the practice's reading on the inventory decides.
bool importReading(PracticeImport &im, ImportedSpec &out) {
  const YamlValue &first = *im.quants.front().item;
  if (!im.ctx.inventory) {
    im.ctx.diags.report(DiagID::err_import_needs_inventory,
                        SourceRange::point(im.src.file, first.line, first.col),
                        {std::to_string(im.quants.size()) + " linear_quant processors"});
    return false;
  }
  ir::Target target;
  target.kind = "msmodelslim";
  vendors::VendorReading reading;
  if (!vendors::readMsModelSlim(*im.ctx.inventory, target, *im.src.text, reading, im.ctx.diags))
    return false;
  // Processors with one qconfig are one rule: owner = the first processor with that qconfig.
  std::map<uint32_t, size_t> byLine; // processor line -> its rule's processor
  std::map<std::string, size_t> byBody;
  for (size_t i = 0; i < im.quants.size(); ++i)
    byLine[im.quants[i].item->line] =
        byBody.try_emplace(im.body(im.quants[i]).text(), i).first->second;
  const size_t kFloat = im.quants.size();
  std::vector<size_t> owner(reading.modules.size(), SIZE_MAX);
  std::vector<size_t> count(im.quants.size() + 1, 0);
  for (size_t m = 0; m < reading.modules.size(); ++m) {
    const vendors::ModuleReading &r = reading.modules[m];
    if (!r.known)
      continue;
    owner[m] = r.tier != ir::Tier::Float && byLine.count(r.line) ? byLine[r.line] : kFloat;
    ++count[owner[m]];
  }
  size_t def = 0;
  for (size_t i = 1; i < im.quants.size(); ++i)
    if (count[i] > count[def])
      def = i;
  out.defaultsComments = im.comments.take(im.quants[def].item->line);
  out.defaults = im.body(im.quants[def]);
  auto wantFor = [&](size_t who) {
    std::vector<msmodelslim::Want> want(owner.size(), msmodelslim::Want::DontCare);
    for (size_t m = 0; m < owner.size(); ++m)
      if (owner[m] != SIZE_MAX)
        want[m] = owner[m] == who ? msmodelslim::Want::Must : msmodelslim::Want::Forbid;
    return want;
  };
  if (count[kFloat])
    out.protectNames = compressWanted(im.ctx, wantFor(kFloat));
  for (size_t i = 0; i < im.quants.size(); ++i) {
    if (byLine[im.quants[i].item->line] != i)
      continue; // shares the rule of an earlier processor
    if (!count[i]) {
      im.notCarried(*im.quants[i].item, "this linear_quant",
                    "it quantizes no Linear of the inventory");
      continue;
    }
    if (i == def)
      continue;
    Override o;
    o.comments = im.comments.take(im.quants[i].item->line);
    o.selectors = compressWanted(im.ctx, wantFor(i));
    o.body = im.body(im.quants[i]);
    out.overrides.push_back(std::move(o));
  }
  return true;
}

bool refused(const Source &src, const Context &ctx, const msmodelslim::PracticeDoc &doc) {
  bool bad = false;
  for (const msmodelslim::Issue &i : msmodelslim::checkPractice(doc))
    if (i.error) {
      ctx.diags.report(DiagID::err_import_refused,
                       SourceRange::point(src.file, i.line ? i.line : 1, i.col ? i.col : 1),
                       {"msModelSlim", i.message});
      bad = true;
    }
  if (!bad && !msmodelslim::isEmittableApiVersion(doc.apiversion)) {
    const msmodelslim::YamlValue *v = doc.root.get("apiversion");
    ctx.diags.report(
        DiagID::err_import_unsupported,
        SourceRange::point(src.file, v && v->line ? v->line : 1, v && v->col ? v->col : 1),
        {src.path, "a practice with apiversion '" + doc.apiversion +
                       "' (qspec writes modelslim_v1, multimodal_vlm_modelslim_v1, "
                       "multimodal_sd_modelslim_v1 and modelslim_v0)"});
    bad = true;
  }
  return bad;
}

} // namespace

bool importMsModelSlim(const Source &src, const Context &ctx, ImportedSpec &out) {
  msmodelslim::PracticeDoc doc;
  if (!msmodelslim::parsePractice(*src.text, src.file, doc, ctx.diags))
    return false;
  if (refused(src, ctx, doc)) // v0 files too: the checks qlint and the read-back apply
    return false;
  if (doc.apiversion == "modelslim_v0")
    return importMsModelSlimV0(src, ctx, doc, out); // another schema: ImportMsModelSlimV0.cpp
  PracticeImport im{src, ctx, doc, Comments(*src.text), {}, {}, {}, nullptr, nullptr};
  const YamlValue *spec = doc.root.get("spec");
  if (const YamlValue *process = spec ? spec->get("process") : nullptr;
      process && process->kind == YamlValue::Sequence)
    im.collect(*process);
  out.header = {" Imported by 'qcc import' from " + src.path +
                " (msModelSlim practice). Review before use."};
  for (const std::string &c : im.comments.takeLeading())
    out.header.push_back(c);
  TargetBlock t;
  t.kind = "msmodelslim";
  t.settings.push_back("apiversion " + doc.apiversion);
  im.metadata(t);
  if (!im.antiOutlier.empty())
    t.settings.push_back(im.antiOutlierSetting());
  if (std::string a = im.attention.empty() ? "" : im.attentionSetting(); !a.empty())
    t.settings.push_back(a);
  if (im.floatSparse)
    t.settings.push_back(im.settingsBlock(*im.floatSparse, nullptr));
  if (im.autoround)
    t.settings.push_back(im.settingsBlock(*im.autoround, "strategies"));
  im.specSettings(t);
  if (im.quants.empty() && im.floatSparse) { // W16A16s: no Linear is quantized
    out.defaults.tier = "float";
    t.comments = im.comments.rest();
    out.targets.push_back(std::move(t));
    return true;
  }
  if (im.quants.empty()) { // at spec.process
    const YamlValue *process = spec ? spec->get("process") : nullptr;
    uint32_t line = process ? (process->keyLine ? process->keyLine : process->line) : 1;
    ctx.diags.report(
        DiagID::err_import_unsupported,
        SourceRange::point(src.file, line ? line : 1, process ? process->col : 1),
        {src.path, "a practice without linear_quant, autoround_quant or float_sparse"});
    return false;
  }
  const LinearQuant &lq = im.quants.front();
  bool narrowed = !lq.includeAll && !(lq.include.size() == 1 && lq.include[0] == "*");
  // With an inventory, an include that leaves Linears out is read like several processors: the
  // Linears outside stay float in the spec too (`protect`), as the emitter's include requires.
  if (im.quants.size() == 1 && !(narrowed && ctx.inventory))
    importSingle(im, out, t);
  else if (!importReading(im, out))
    return false;
  t.comments = im.comments.rest();
  out.targets.push_back(std::move(t));
  return true;
}

void importPracticeMetadata(const Source &src, const Context &ctx,
                            const msmodelslim::PracticeDoc &doc, TargetBlock &t) {
  PracticeImport{src, ctx, doc, Comments(*src.text), {}, {}, {}, nullptr, nullptr}.metadata(t);
}

std::string practiceScalar(const YamlValue &v) { return PracticeImport::value(v); }

} // namespace qspec::import
