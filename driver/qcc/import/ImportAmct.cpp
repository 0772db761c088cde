// `qcc import` of an AMCT simple config (.cfg, PTQ AMCTConfig or QAT AMCTRetrainConfig; the
// KV-cache AMCTQuantCaliConfig is ImportAmctKv.cpp's), read
// with vendors/amct/AmctConfig.h and turned into a spec AMCT's reading agrees with
// (vendors/amct/AmctReader.h): the global recipe becomes `defaults`, type entries
// `override type`, name entries `override name` (entries with the same recipe share one rule,
// their names compressed on an inventory), skip lists `protect`, the file's other fields the
// `target amct` block. AMCT's entries replace the global recipe (their gaps take AMCT's built-in
// defaults), so each override is written complete.
#include "driver/qcc/import/Importer.h"

#include "frontend/Parser.h"
#include "vendors/amct/AmctConfig.h"

#include <cstdio>
#include <cstdlib>
#include <map>
#include <set>
#include <tuple>

namespace qspec::import {

namespace {

using frontend::qspecString;

using namespace qspec::amct;

// IFMR's settings: the amct option, the document's field, AMCT's default.
struct IfmrKnob {
  const char *name;
  std::optional<double> Recipe::*field;
  double dflt;
};
const IfmrKnob kIfmrKnobs[] = {{"search_range_start", &Recipe::searchStart, 0.7},
                               {"search_range_end", &Recipe::searchEnd, 1.3},
                               {"search_step", &Recipe::searchStep, 0.01},
                               {"max_percentile", &Recipe::maxPercentile, 0.999999}};

const char *typeWord(DataType t) {
  return t == DataType::Int4 ? "int4" : t == DataType::Int16 ? "int16" : "int8";
}

struct AmctImport {
  const Source &src;
  const Context &ctx;
  const AmctDocument &doc;
  Comments comments;
  // QAT skip entries an override re-enables for quantization: AMCT still skips them for pruning
  // (a skip wins over prune), so the target's prune carries them as its skip lists.
  std::vector<std::string> reenabledNames, reenabledTypes;
  bool qat() const { return doc.kind == ConfigKind::QAT; }

  // The inventory type of module `name` ("" unknown).
  std::string typeOf(const std::string &name) const {
    const ir::Module *m = ctx.inventory ? ctx.inventory->inventory.find(name) : nullptr;
    return m ? m->type : std::string();
  }

  // PTQ `asymmetric` as AMCT gives it to an override entry (AmctReading.cpp's rule).
  bool entryAsymmetric(const Recipe &r) const {
    if (r.asymmetric)
      return *r.asymmetric;
    std::string_view algo = r.actAlgo.empty() ? "ifmr" : std::string_view(r.actAlgo);
    std::string_view globalAlgo =
        doc.global.actAlgo.empty() ? "ifmr" : std::string_view(doc.global.actAlgo);
    if (doc.global.asymmetric && algo == globalAlgo)
      return *doc.global.asymmetric;
    return doc.activationOffset.value_or(true);
  }

  // The weight scope of an entry; "" when the global recipe's inheritance in qspec already
  // gives what AMCT gives.
  std::string entryScope(const Recipe &r, const std::string &type, uint32_t line,
                         uint32_t col) const {
    if (r.channelWise)
      return *r.channelWise ? "per_channel" : "per_tensor";
    if (!doc.global.channelWise)
      return "";
    if (!type.empty())
      return isChannelWiseType(type) ? "per_channel" : "per_tensor";
    ctx.notCarried(src, line, col, "the entry's channel_wise default",
                   "AMCT gives the layer type's own default, and the layer's type is unknown "
                   "without --inventory");
    return "";
  }

  RuleBody body(const Recipe &r, bool global, const std::string &type, uint32_t line,
                uint32_t col) const {
    RuleBody b;
    DataType act = r.actType.value_or(DataType::Int8);
    uint32_t bits = qat() ? (r.weightType.value_or(DataType::Int8) == DataType::Int4 ? 4 : 8)
                          : r.quantBits.value_or(8);
    b.tier = act == DataType::Int16 ? "int16" : bits == 4 ? "int4" : "int8";
    b.weight.push_back(bits == 4 ? "int4" : "int8");
    std::string scope = global
                            ? (r.channelWise ? (*r.channelWise ? "per_channel" : "per_tensor") : "")
                            : entryScope(r, type, line, col);
    if (!scope.empty())
      b.weight.push_back(scope);
    std::string wts = r.wtsAlgo.empty() && !global ? "arq" : r.wtsAlgo;
    if (!wts.empty())
      b.weight.push_back(wts);
    b.act.push_back(typeWord(act));
    if (!qat()) {
      if (!global)
        b.act.push_back(entryAsymmetric(r) ? "asymmetric" : "symmetric");
      else if (r.asymmetric)
        b.act.push_back(*r.asymmetric ? "asymmetric" : "symmetric");
    }
    std::string actAlgo = qat() ? "ulq" : r.actAlgo.empty() && !global ? "ifmr" : r.actAlgo;
    if (!actAlgo.empty())
      b.act.push_back(actAlgo);
    {
      std::vector<std::string> opts = global ? std::vector<std::string>{} : recipeSettings(r);
      // The global num_of_bins is the target's, which HFMG entries inherit; one without its own
      // has AMCT's 4096 (an entry replaces the global recipe).
      if (!global && actAlgo == "hfmg" && !r.numOfBins && doc.global.numOfBins)
        opts.push_back("num_of_bins 4096");
      // Likewise the global IFMR settings: an IFMR entry has AMCT's defaults for those it lacks.
      if (!global && actAlgo == "ifmr")
        for (const IfmrKnob &k : kIfmrKnobs)
          if (!(r.*k.field) && doc.global.*k.field)
            opts.push_back(std::string(k.name) + " " + floatText(k.dflt));
      // AMCT's entry replaces the global recipe: an entry without the global clip_max_min or
      // fixed_min has none (the target's would reach the rule's modules).
      if (!global && qat() && !r.hasClip && doc.global.hasClip)
        opts.push_back("clip none");
      if (!global && qat() && !r.fixedMin && doc.global.fixedMin.value_or(false))
        opts.push_back("fixed_min false");
      // An entry's own prune_config replaces the global one on its layers.
      if (!global && r.hasPrune)
        opts.push_back(pruneSetting(r, false));
      std::string block;
      for (const std::string &o : opts)
        block += (block.empty() ? "" : "; ") + o;
      if (!block.empty())
        b.targetBlocks.push_back("amct { " + block + " }");
    }
    return b;
  }

  // The recipe's settings that are `amct` options (a rule's block, or the target for the global).
  std::vector<std::string> recipeSettings(const Recipe &r) const {
    std::vector<std::string> out;
    if (r.numOfBins)
      out.push_back("num_of_bins " + std::to_string(*r.numOfBins));
    for (const IfmrKnob &k : kIfmrKnobs)
      if (r.*k.field)
        out.push_back(std::string(k.name) + " " + floatText(*(r.*k.field)));
    if (r.hasDmq && r.dmqStrength)
      out.push_back("dmq_balancer " + floatText(*r.dmqStrength));
    if (r.quantBits && *r.quantBits != 4 && *r.quantBits != 8)
      out.push_back("quant_bits " + std::to_string(*r.quantBits));
    if (r.clipMax)
      out.push_back("clip_max " + floatText(*r.clipMax));
    if (r.clipMin)
      out.push_back("clip_min " + floatText(*r.clipMin));
    if (r.fixedMin)
      out.push_back(std::string("fixed_min ") + (*r.fixedMin ? "true" : "false"));
    return out;
  }

  TargetBlock target() const {
    TargetBlock t;
    t.kind = "amct";
    t.variant = qat() ? "qat" : "ptq";
    if (doc.batchNum)
      t.settings.push_back("batch_num " + std::to_string(*doc.batchNum));
    if (doc.activationOffset && !qat())
      t.settings.push_back(std::string("activation_offset ") +
                           (*doc.activationOffset ? "true" : "false"));
    if (doc.doFusion)
      t.settings.push_back(std::string("do_fusion ") + (*doc.doFusion ? "true" : "false"));
    if (!doc.skipFusionLayers.empty()) {
      std::vector<std::string> names;
      for (const Entry &e : doc.skipFusionLayers)
        names.push_back(e.text);
      std::string list;
      for (const std::string &n : names)
        list += (list.empty() ? "" : ", ") + qspecString(n);
      t.settings.push_back("skip_fusion_layers " + list);
    }
    if (doc.forceFp16)
      t.settings.push_back("fakequant_precision_mode FORCE_FP16_QUANT");
    for (const std::string &s : recipeSettings(doc.global))
      t.settings.push_back(s);
    if (doc.global.hasPrune)
      t.settings.push_back(pruneSetting(doc.global, true));
    return t;
  }

  // A prune_config as a `prune { }` setting: the target's (with the skip lists) or an entry's.
  std::string pruneSetting(const Recipe &r, bool global) const {
    std::string skips = global ? skipLists() : "";
    if (r.pruner == "n_out_of_m")
      return "prune { type n_out_of_m" +
             (r.updateFreq ? "; update_freq " + std::to_string(*r.updateFreq) : "") + skips + " }";
    std::string s = "prune { type filter";
    if (r.pruneRatio)
      s += "; ratio " + floatText(*r.pruneRatio);
    if (r.ascendOptimized)
      s += std::string("; ascend_optimized ") + (*r.ascendOptimized ? "true" : "false");
    return s + skips + " }";
  }

  // A prune-only file's entry: the rule says only its prune (every layer stays float).
  RuleBody pruneOnlyBody(const Recipe &r) const {
    RuleBody b;
    if (r.hasPrune)
      b.targetBlocks.push_back("amct { " + pruneSetting(r, false) + " }");
    return b;
  }

  // regular_prune_skip_layers / _types as the prune block's skip_layers / skip_types, with the
  // skipped layers and types an override re-enables for quantization (still not pruned).
  std::string skipLists() const {
    std::string s;
    for (const auto &[key, list, more] :
         {std::tuple<const char *, const std::vector<Entry> *, const std::vector<std::string> *>{
              "skip_layers", &doc.pruneSkipLayers, &reenabledNames},
          {"skip_types", &doc.pruneSkipTypes, &reenabledTypes}}) {
      std::set<std::string> seen;
      std::string items;
      for (const Entry &e : *list)
        if (seen.insert(e.text).second)
          items += (items.empty() ? "" : ", ") + qspecString(e.text);
      for (const std::string &n : *more)
        if (seen.insert(n).second)
          items += (items.empty() ? "" : ", ") + qspecString(n);
      if (!items.empty())
        s += std::string("; ") + key + " " + items;
    }
    return s;
  }
};

// Skip lists: AMCT's skipped layers and types (QAT: skip_layers ∪ quant_skip_layers).
void skipLists(const AmctImport &im, std::vector<const Entry *> &names,
               std::vector<const Entry *> &types) {
  for (const auto *list : {&im.doc.skipLayers, im.qat() ? &im.doc.quantSkipLayers : nullptr})
    if (list)
      for (const Entry &e : *list)
        names.push_back(&e);
  for (const auto *list : {&im.doc.skipLayerTypes, im.qat() ? &im.doc.quantSkipTypes : nullptr})
    if (list)
      for (const Entry &e : *list)
        types.push_back(&e);
}

bool selectsSomething(const Context &ctx, const std::string &name, bool type) {
  if (!ctx.inventory)
    return true;
  const ir::Inventory &inv = ctx.inventory->inventory;
  if (!type)
    return inv.find(name) != nullptr;
  for (const ir::Module &m : inv.modules)
    if (m.type == name)
      return true;
  return false;
}

void protects(AmctImport &im, ImportedSpec &out) {
  std::vector<const Entry *> names, types;
  skipLists(im, names, types);
  std::set<std::string> overriddenNames, overriddenTypes, seen;
  for (const amct::Override &o : im.doc.nameOverrides)
    overriddenNames.insert(o.key);
  for (const amct::Override &o : im.doc.typeOverrides)
    overriddenTypes.insert(o.key);
  // QAT: any override that applies to a skipped layer (its name's, or its type's) re-enables it.
  // skip_layers / skip_layer_types also skip pruning; quant_skip_* do not.
  auto prunesSkip = [&](const Entry *e) {
    for (const auto *list : {&im.doc.skipLayers, &im.doc.skipLayerTypes})
      if (!list->empty() && e >= &list->front() && e <= &list->back())
        return true;
    return false;
  };
  auto reenabled = [&](const std::string &name, const std::string &type) {
    return im.qat() &&
           (overriddenNames.count(name) || (!type.empty() && overriddenTypes.count(type)));
  };
  for (const Entry *e : names) {
    if (reenabled(e->text, im.typeOf(e->text))) {
      if (prunesSkip(e))
        im.reenabledNames.push_back(e->text);
      continue;
    }
    if (!seen.insert("n" + e->text).second)
      continue;
    for (const std::string &c : im.comments.take(e->line))
      out.protectComments.push_back(c);
    if (selectsSomething(im.ctx, e->text, false))
      out.protectNames.push_back(exactPattern(e->text));
    else
      im.ctx.notCarried(im.src, e->line, e->col, "skip_layers \"" + e->text + "\"",
                        "the inventory has no layer of that name (AMCT skips nothing with it)");
  }
  for (const Entry *e : types) {
    if (im.qat() && overriddenTypes.count(e->text)) {
      if (prunesSkip(e))
        im.reenabledTypes.push_back(e->text);
      continue;
    }
    if (!seen.insert("t" + e->text).second)
      continue;
    for (const std::string &c : im.comments.take(e->line))
      out.protectComments.push_back(c);
    std::vector<std::string>
        stay; // QAT on an inventory: the layers of the type no name override re-enables
    bool partly = false;
    if (im.qat() && im.ctx.inventory)
      for (const ir::Module &m : im.ctx.inventory->inventory.modules) {
        if (m.type != e->text)
          continue;
        if (reenabled(m.name, "")) {
          partly = true;
          if (prunesSkip(e))
            im.reenabledNames.push_back(m.name);
        } else
          stay.push_back(m.name);
      }
    if (partly) {
      out.protectComments.push_back(" skip_layer_types \"" + e->text +
                                    "\" except the layers a name override re-enables (AMCT QAT)");
      for (const std::string &p : namePatterns(im.ctx, stay))
        out.protectNames.push_back(p);
    } else if (selectsSomething(im.ctx, e->text, true))
      out.protectTypes.push_back(e->text);
    else
      im.ctx.notCarried(im.src, e->line, e->col, "skip_layer_types \"" + e->text + "\"",
                        "the inventory has no layer of that type (AMCT skips nothing with it)");
  }
}

void typeOverrides(AmctImport &im, ImportedSpec &out) {
  for (const amct::Override &o : im.doc.typeOverrides) {
    import::Override r;
    r.comments = im.comments.take(o.line - 1);
    for (const std::string &c : im.comments.take(o.line))
      r.comments.push_back(c);
    r.byType = true;
    r.selectors = {o.key};
    r.body = isPruneOnly(im.doc) ? im.pruneOnlyBody(o.recipe)
                                 : im.body(o.recipe, false, o.key, o.line, o.col);
    r.origin = SourceRange::point(im.src.file, o.line ? o.line : 1, o.col ? o.col : 1);
    out.overrides.push_back(std::move(r));
  }
}

void nameOverrides(AmctImport &im, ImportedSpec &out) {
  std::set<std::string> skipped;
  if (!im.qat())
    for (const Entry &e : im.doc.skipLayers)
      skipped.insert(e.text);
  // Entries with the same recipe share one rule, in the order of their first entry.
  std::vector<std::string> order;
  std::map<std::string, std::pair<import::Override, std::vector<std::string>>> byBody;
  for (const amct::Override &o : im.doc.nameOverrides) {
    if (skipped.count(o.key)) {
      im.ctx.notCarried(
          im.src, o.line, o.col, "the override of \"" + o.key + "\"",
          "the layer is in skip_layers, which wins in PTQ: AMCT never applies this entry");
      continue;
    }
    RuleBody b = isPruneOnly(im.doc) ? im.pruneOnlyBody(o.recipe)
                                     : im.body(o.recipe, false, im.typeOf(o.key), o.line, o.col);
    std::string key = b.text();
    auto [it, fresh] = byBody.try_emplace(key);
    if (fresh) {
      order.push_back(key);
      it->second.first.body = b;
      it->second.first.origin =
          SourceRange::point(im.src.file, o.line ? o.line : 1, o.col ? o.col : 1);
    }
    for (uint32_t line : {o.line - 1, o.line}) // the entry's `{` line, then its layer_name
      for (const std::string &c : im.comments.take(line))
        it->second.first.comments.push_back(c);
    it->second.second.push_back(o.key);
  }
  for (const std::string &key : order) {
    auto &[rule, names] = byBody[key];
    rule.selectors = namePatterns(im.ctx, names);
    out.overrides.push_back(std::move(rule));
  }
}

} // namespace

namespace {

// The file as AMCT for PyTorch checks it (the reading the import applies, vendors/amct): a
// config AMCT refuses on every model (a type it never quantizes, a duplicate entry) is refused
// at the construct, as the other importers refuse what their vendor refuses.
bool refusedByAmct(const Source &src, const Context &ctx, const AmctDocument &doc) {
  CheckOptions co;
  co.pytorchTypes = true;
  co.framework = Framework::PyTorch;
  bool bad = false;
  for (const Finding &f : checkDocument(doc, co))
    if (f.level == Finding::Error) {
      ctx.diags.report(DiagID::err_import_refused,
                       SourceRange::point(src.file, f.line ? f.line : 1, f.col ? f.col : 1),
                       {"AMCT", f.message + " (" + checkName(f.check) + ")"});
      bad = true;
    }
  return bad;
}

} // namespace

bool importAmct(const Source &src, const Context &ctx, ImportedSpec &out) {
  // Another AMCT API's config: refused at the field that makes it one, not as a parse error.
  if (std::optional<OtherConfig> other = otherAmctConfig(*src.text)) {
    bool distill = other->api == "distillation";
    ctx.diags.report(
        DiagID::err_import_unsupported,
        SourceRange::point(src.file, other->line ? other->line : 1, other->col ? other->col : 1),
        {src.path,
         "an AMCT " + other->api + " config ('" + other->field + "' is a field of AMCT's " +
             (distill ? "distillation API; qspec has no distillation target: its rules say how "
                        "each module is quantized, not how the quantized model is distilled)"
                      : "automatic search, which chooses each layer's prune ratio or bit width "
                        "itself; a spec states each module's setting, and qspec's own search is "
                        "qtune)")});
    return false;
  }
  AmctDocument doc;
  if (!parseAmctConfig(src.file, doc, ctx.diags) || refusedByAmct(src, ctx, doc))
    return false;
  if (doc.kind == ConfigKind::KVCache)
    return importAmctKv(src, ctx, doc, out);
  AmctImport im{src, ctx, doc, Comments(*src.text), {}, {}};
  out.header = im.comments.takeLeading();
  out.defaultsComments = im.comments.take(doc.global.line);
  out.header.insert(out.header.begin(), " Imported by 'qcc import' from " + src.path + " (AMCT " +
                                            (im.qat() ? "QAT" : "PTQ") + "). Review before use.");
  if (isPruneOnly(doc)) { // every layer float and pruned: the target's prune setting, and
                          // the entries' own prune in their rules
    out.defaults.tier = "float";
    typeOverrides(im, out);
    nameOverrides(im, out);
  } else {
    out.defaults = im.body(doc.global, true, "", doc.global.line, 1);
    protects(im, out);
    typeOverrides(im, out);
    nameOverrides(im, out);
  }
  out.targets.push_back(im.target());
  if (!doc.global.hasPrune && (!doc.pruneSkipLayers.empty() || !doc.pruneSkipTypes.empty())) {
    const Entry &e =
        doc.pruneSkipLayers.empty() ? doc.pruneSkipTypes.front() : doc.pruneSkipLayers.front();
    ctx.notCarried(src, e.line, e.col, "prune_skip_layers / prune_skip_types",
                   "the file has no global prune_config, and the amct target writes the skip lists "
                   "in its prune setting");
  }
  std::vector<std::string> rest = im.comments.rest();
  out.targets.back().comments = rest;
  return true;
}

} // namespace qspec::import
