// The honest half of `qcc import --roundtrip` for msModelSlim (Importer.h compareMsModelSlim):
// everything msModelSlim reads from a practice besides which Linear each linear_quant quantizes
// with which qconfig (the module readings) is compared between the original and the re-emitted
// practice, value by value as msModelSlim's loader types it, and each difference is reported
// not carried at its place in the original.
#include "driver/qcc/import/Importer.h"
#include "driver/qcc/import/ImportMsModelSlimV0.h"

#include "vendors/msmodelslim/MsModelSlimRules.h"

#include <algorithm>
#include <cstdlib>
#include <map>
#include <set>

namespace qspec::import {

namespace {

using msmodelslim::YamlValue;

// A value as msModelSlim's pydantic models read it: numbers by value (`1e-5` too, a string to
// YAML 1.1), booleans, strings quoted, lists in order, mappings by key.
std::string canonical(const YamlValue &v) {
  switch (v.kind) {
  case YamlValue::Null:
    return "null";
  case YamlValue::Scalar: {
    std::string t = v.scalarType();
    if (t == "int" || t == "float" || (t == "str" && v.isExponentNumber()))
      return numberText(std::strtod(v.text.c_str(), nullptr));
    if (t == "bool")
      return v.text == "true" || v.text == "True" || v.text == "TRUE" ? "true" : "false";
    if (t == "null")
      return "null";
    return "'" + v.text + "'";
  }
  case YamlValue::Sequence: {
    std::string s = "[";
    for (const YamlValue &e : v.items)
      s += (s.size() > 1 ? ", " : "") + canonical(e);
    return s + "]";
  }
  case YamlValue::Mapping: {
    std::map<std::string, std::string> sorted;
    for (const auto &[k, x] : v.map)
      sorted[k] = canonical(x);
    std::string s = "{";
    for (const auto &[k, x] : sorted)
      s += (s.size() > 1 ? ", " : "") + k + ": " + x;
    return s + "}";
  }
  }
  return "";
}

// metadata.label as the quant-type matcher reads it: a missing `is_sparse` or `kv_cache` is
// false.
std::string canonicalLabel(const YamlValue &v) {
  if (v.kind != YamlValue::Mapping)
    return canonical(v);
  YamlValue copy = v;
  copy.map.clear();
  for (const auto &[k, x] : v.map)
    if (!((k == "is_sparse" || k == "kv_cache") && canonical(x) == "false"))
      copy.map.emplace_back(k, x);
  return canonical(copy);
}

// spec.save as msModelSlim fills it: a saver without part_file_size has 4 (GB).
std::string canonicalSave(const YamlValue &v) {
  if (v.kind != YamlValue::Sequence)
    return canonical(v);
  std::string out = "[";
  for (const YamlValue &item : v.items) {
    std::string c = canonical(item);
    if (item.kind == YamlValue::Mapping && !item.get("part_file_size"))
      c.insert(1, std::string("part_file_size: 4") + (item.map.empty() ? "" : ", "));
    out += (out.size() > 1 ? ", " : "") + c;
  }
  return out + "]";
}

// The default of a key a practice leaves out, as the re-emitted one may write it.
bool isDefault(const std::string &prefix, const std::string &key, const std::string &c) {
  if (c == "[]" || c == "{}" || c == "null")
    return true;
  if (prefix == "spec." && key == "save")
    return c == "[{part_file_size: 4, type: 'ascendv1_saver'}]";
  // metadata the emitter derives from the spec (label: the bits of the recipe) is descriptive:
  // the quantization msModelSlim applies does not read it.
  return prefix == "metadata.";
}

// One step of spec.process: a processor, or a run of consecutive linear_quant processors (the
// module readings compare what they quantize; the run's other settings are compared here).
struct Step {
  std::string type;
  std::vector<const YamlValue *> items;
};

void flatten(const YamlValue &list, std::vector<Step> &out) {
  for (const YamlValue &item : list.items) {
    const YamlValue *t = item.get("type");
    std::string type = t && t->kind == YamlValue::Scalar ? t->text : "";
    if (type == "group" && item.get("configs")) {
      flatten(*item.get("configs"), out);
      continue;
    }
    if (type == "linear_quant" && !out.empty() && out.back().type == type)
      out.back().items.push_back(&item);
    else
      out.push_back(Step{type, {&item}});
  }
}

std::vector<Step> steps(const msmodelslim::PracticeDoc &doc) {
  std::vector<Step> out;
  const YamlValue *spec = doc.root.get("spec");
  const YamlValue *process = spec ? spec->get("process") : nullptr;
  if (process && process->kind == YamlValue::Sequence)
    flatten(*process, out);
  return out;
}

// The settings of a step msModelSlim reads here, canonical, by key: for a linear_quant run the
// settings besides qconfig/include/exclude (each key once, the first processor's value); for
// another processor every setting, an `include` of ["*"] being the default (None: all), an
// autoround_quant's strategies as the set of their qconfigs.
// An autoround_quant's strategies besides what the module readings compare (which Linear each
// configures, with which dtype, scope, symmetry and method): the qconfigs they hold, ext included,
// as a set (the order and the patterns are the readings').
std::string strategyQConfigs(const YamlValue &strategies) {
  std::set<std::string> qconfigs;
  for (const YamlValue &st : strategies.items)
    if (const YamlValue *q = st.get("qconfig"))
      qconfigs.insert(canonical(*q));
  std::string out = "qconfigs {";
  for (const std::string &q : qconfigs)
    out += (out.size() > 10 ? ", " : "") + q;
  return out + "}";
}

std::map<std::string, std::pair<std::string, const YamlValue *>> settings(const Step &s) {
  std::map<std::string, std::pair<std::string, const YamlValue *>> out;
  bool lq = s.type == "linear_quant";
  for (const YamlValue *item : s.items)
    for (const auto &[k, v] : item->map) {
      if (k == "type" || (lq && (k == "qconfig" || k == "include" || k == "exclude")))
        continue;
      std::string c =
          s.type == "autoround_quant" && k == "strategies" ? strategyQConfigs(v) : canonical(v);
      if ((k == "include" && c == "['*']") || (k == "exclude" && c == "[]"))
        continue;
      out.try_emplace(k, c, &v);
    }
  return out;
}

struct Comparer {
  const Source &src;
  const Context &ctx;

  void report(const YamlValue &at, const std::string &what, const std::string &emitted) const {
    reportPracticeDifference(src, ctx, at, what, emitted);
  }

  void compareSettings(const Step &a, const Step &b, const std::string &label) const {
    auto sa = settings(a), sb = settings(b);
    for (const auto &[k, v] : sa) {
      auto it = sb.find(k);
      if (it == sb.end())
        report(*v.second, "setting '" + k + "' of " + label, "");
      else if (it->second.first != v.first)
        report(*v.second, "setting '" + k + "' of " + label, k + ": " + it->second.first);
    }
    for (const auto &[k, v] : sb)
      if (!sa.count(k))
        report(*a.items.front(), "the default of setting '" + k + "' of " + label,
               k + ": " + v.first);
  }

  // What the module readings leave out of a linear_quant qconfig: each role's `ext` (group_size,
  // scale_dtype, ...). The import may merge or split the processors, so the exts are compared as
  // a set: one of `a` that no qconfig of `b` has, or the reverse, is a difference.
  void qconfigExts(const std::vector<Step> &sa, const std::vector<Step> &sb) const {
    auto exts = [](const std::vector<Step> &steps) {
      std::map<std::string, const YamlValue *> out;
      for (const Step &s : steps)
        for (const YamlValue *item : s.items)
          if (const YamlValue *q = s.type == "linear_quant" ? item->get("qconfig") : nullptr)
            for (const char *role : {"weight", "act"})
              if (const YamlValue *r = q->get(role))
                if (const YamlValue *e = r->get("ext"))
                  out.try_emplace(std::string(role) + ".ext " + canonical(*e), e);
      return out;
    };
    std::map<std::string, const YamlValue *> ea = exts(sa), eb = exts(sb);
    for (const auto &[k, v] : ea)
      if (!eb.count(k))
        report(*v, "qconfig " + k, "");
    for (const auto &[k, v] : eb)
      if (!ea.count(k) && !sa.empty())
        report(*sa.front().items.front(), "the linear_quant qconfigs", "an added " + k);
  }

  // The steps in order: each step of `a` is matched with the next step of `b` of its type; a
  // step `b` lacks, or one `b` adds before it, is a difference.
  void process(const msmodelslim::PracticeDoc &a, const msmodelslim::PracticeDoc &b) const {
    std::vector<Step> sa = steps(a), sb = steps(b);
    const YamlValue *spec = a.root.get("spec");
    size_t j = 0;
    for (size_t i = 0; i < sa.size(); ++i) {
      size_t k = j;
      while (k < sb.size() && sb[k].type != sa[i].type)
        ++k;
      if (k == sb.size()) {
        report(*sa[i].items.front(), "processor '" + sa[i].type + "'", "");
        continue;
      }
      for (; j < k; ++j)
        report(*sa[i].items.front(), "the processors ahead of this one",
               "an added '" + sb[j].type + "'");
      compareSettings(sa[i], sb[k], sa[i].type);
      j = k + 1;
    }
    for (; j < sb.size(); ++j)
      report(spec ? *spec : a.root, "the processor list", "an added '" + sb[j].type + "'");
    qconfigExts(sa, sb);
  }

  // The keys of mapping `key` (or of the root) other than `skip`, value by value.
  void mapping(const YamlValue &a, const YamlValue &b, const std::string &prefix,
               const char *skip) const {
    for (const auto &entry : a.map) {
      // Named, not a structured binding: C++17 lambdas cannot capture those.
      const auto &k = entry.first;
      const auto &v = entry.second;
      if (k == skip || (prefix == "spec." && k == "multimodal_sd_config"))
        continue; // the SD service's own reading: compareSdConfig
      const YamlValue *w = b.get(k);
      auto text = [&](const YamlValue &x) {
        return prefix == "metadata." && k == "label" ? canonicalLabel(x)
               : prefix == "spec." && k == "save"    ? canonicalSave(x)
                                                     : canonical(x);
      };
      if (!w)
        report(v, prefix + k, "");
      else if (text(*w) != text(v))
        report(v, prefix + k, k + ": " + text(*w));
    }
    for (const auto &[k, w] : b.map) {
      std::string c = prefix == "spec." && k == "save" ? canonicalSave(w) : canonical(w);
      if (k != skip && !a.get(k) && !isDefault(prefix, k, c) &&
          !(prefix == "spec." && k == "multimodal_sd_config"))
        report(a, "the default of " + prefix + k, k + ": " + c);
    }
  }

  void run(const msmodelslim::PracticeDoc &a, const msmodelslim::PracticeDoc &b) const {
    process(a, b);
    static const YamlValue kEmpty = [] {
      YamlValue v;
      v.kind = YamlValue::Mapping;
      return v;
    }();
    auto sub = [&](const msmodelslim::PracticeDoc &d, const char *k) {
      const YamlValue *v = d.root.get(k);
      return v && v->kind == YamlValue::Mapping ? v : &kEmpty;
    };
    const YamlValue *specA = sub(a, "spec"), *specB = sub(b, "spec");
    if (specA != &kEmpty)
      mapping(*specA, *specB, "spec.", "process");
    if (a.apiversion == "multimodal_sd_modelslim_v1")
      compareSdConfig(src, ctx, a, b); // ImportMsModelSlimSd.cpp
    const YamlValue *mdA = sub(a, "metadata"), *mdB = sub(b, "metadata");
    if (mdA != &kEmpty)
      mapping(*mdA, *mdB, "metadata.", "");
    if (const YamlValue *v = a.root.get("apiversion"))
      if (const YamlValue *w = b.root.get("apiversion"); !w || canonical(*w) != canonical(*v))
        report(*v, "apiversion", w ? canonical(*w) : "");
  }
};

} // namespace

void compareMsModelSlim(const Source &src, std::string_view emitted, const Context &ctx) {
  msmodelslim::PracticeDoc a, b;
  SourceManager &sm = ctx.diags.sourceManager();
  FileID re = sm.addFile(src.path + " (re-emitted)", std::string(emitted));
  if (!msmodelslim::parsePractice(*src.text, src.file, a, ctx.diags) ||
      !msmodelslim::parsePractice(std::string(emitted), re, b, ctx.diags))
    return;
  if (a.apiversion == "modelslim_v0" && b.apiversion == "modelslim_v0")
    return compareMsModelSlimV0(src, ctx, a, b); // another schema: CompareMsModelSlimV0.cpp
  Comparer{src, ctx}.run(a, b);
}

std::string canonicalPracticeValue(const YamlValue &v) { return canonical(v); }

void reportPracticeDifference(const Source &src, const Context &ctx, const YamlValue &at,
                              const std::string &what, const std::string &emitted) {
  uint32_t line = at.keyLine ? at.keyLine : at.line, col = at.keyLine ? at.keyCol : at.col;
  if (ctx.recorded(src.file, line ? line : 1))
    return;
  ctx.notCarried(src, line, col, what,
                 emitted.empty() ? "the re-emitted practice leaves it out"
                                 : "the re-emitted practice reads " + emitted);
}

void comparePracticeMetadata(const Source &src, const Context &ctx,
                             const msmodelslim::PracticeDoc &a, const msmodelslim::PracticeDoc &b) {
  Comparer c{src, ctx};
  const YamlValue *mdA = a.root.get("metadata"), *mdB = b.root.get("metadata");
  YamlValue none;
  none.kind = YamlValue::Mapping;
  if (mdA && mdA->kind == YamlValue::Mapping)
    c.mapping(*mdA, mdB && mdB->kind == YamlValue::Mapping ? *mdB : none, "metadata.", "");
  if (const YamlValue *v = a.root.get("apiversion"))
    if (const YamlValue *w = b.root.get("apiversion"); !w || canonical(*w) != canonical(*v))
      c.report(*v, "apiversion", w ? canonical(*w) : "");
}

} // namespace qspec::import
