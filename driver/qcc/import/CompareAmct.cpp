// The honest half of `qcc import --roundtrip` for AMCT (Importer.h compareAmct): what AMCT
// applies to each layer beyond the module readings (the calibration parameters of the layer's
// activation and weight algorithms, its prune recipe) and the file's global fields, compared
// between the original and the re-emitted config with AMCT's defaults filled in. Each difference
// is reported not carried at the original's deciding entry.
#include "driver/qcc/import/Importer.h"

#include "vendors/amct/AmctReader.h"

#include <algorithm>
#include <set>

namespace qspec::import {

namespace {

using namespace qspec::amct;

// AMCT's numbers are protobuf floats: compared as floats.
std::string num(const std::optional<double> &v, double dflt) { return floatText(v.value_or(dflt)); }

// The calibration and weight parameters of recipe `r` as AMCT fills them (reference §2: IFMR
// 0.7/1.3/0.01/0.999999, HFMG 4096 bins, ADA 20->2/0.2/0.01), one "name value" per parameter.
std::vector<std::string> parameters(const Recipe &r, ConfigKind kind) {
  std::vector<std::string> p;
  std::string act = r.actAlgo.empty() ? (kind == ConfigKind::QAT ? "ulq" : "ifmr") : r.actAlgo;
  if (act == "ifmr") {
    p.push_back("search_range_start " + num(r.searchStart, 0.7));
    p.push_back("search_range_end " + num(r.searchEnd, 1.3));
    p.push_back("search_step " + num(r.searchStep, 0.01));
    p.push_back("max_percentile " + num(r.maxPercentile, 0.999999));
  } else if (act == "hfmg") {
    p.push_back("num_of_bins " + std::to_string(r.numOfBins.value_or(4096)));
  } else if (act == "ulq") {
    p.push_back("clip_max_min " +
                (r.hasClip ? num(r.clipMax, 0) + " " + num(r.clipMin, 0) : std::string("none")));
    p.push_back("fixed_min " + std::string(r.fixedMin.value_or(false) ? "true" : "false"));
  }
  if (r.wtsAlgo == "ada") {
    p.push_back("beta_range " + num(r.adaBetaStart, 20) + " " + num(r.adaBetaEnd, 2));
    p.push_back("warm_start " + num(r.adaWarmStart, 0.2));
    p.push_back("reg_param " + num(r.adaRegParam, 0.01));
  }
  p.push_back("dmq_balancer " + (r.hasDmq ? num(r.dmqStrength, 0.5) : std::string("none")));
  return p;
}

// The recipe AMCT applies to `m` (name entry ▸ type entry ▸ global; the first of repeated
// entries), and whether the module is skipped for quantization (its prune: amct::pruneReading).
struct Effective {
  const Recipe *recipe = nullptr;
  const amct::Override *entry = nullptr;
  bool quantSkipped = false;
};

bool listed(const std::vector<amct::Entry> &list, const std::string &s) {
  for (const amct::Entry &e : list)
    if (e.text == s)
      return true;
  return false;
}

Effective effective(const AmctDocument &doc, const ir::Module &m) {
  Effective e;
  for (const auto *list : {&doc.nameOverrides, &doc.typeOverrides})
    for (const amct::Override &o : *list)
      if (!e.entry && o.key == (list == &doc.nameOverrides ? m.name : m.type) && !o.key.empty())
        e.entry = &o;
  e.recipe = e.entry ? &e.entry->recipe : &doc.global;
  if (doc.kind == ConfigKind::KVCache) { // quantized when listed or overridden
    e.quantSkipped = !e.entry && !listed(doc.kvQuantLayers, m.name);
    return e;
  }
  bool qat = doc.kind == ConfigKind::QAT;
  bool skipName = listed(doc.skipLayers, m.name), skipType = listed(doc.skipLayerTypes, m.type);
  e.quantSkipped =
      skipName || skipType ||
      (qat && (listed(doc.quantSkipLayers, m.name) || listed(doc.quantSkipTypes, m.type)));
  if (qat && e.entry)
    e.quantSkipped = false; // AMCT's retrain_enable: an override re-enables
  return e;
}

struct AmctComparer {
  const Source &src;
  const Context &ctx;
  const AmctDocument &a, &b;
  std::set<std::pair<uint32_t, std::string>> seen;

  void report(uint32_t line, uint32_t col, const std::string &what, const std::string &emitted) {
    if (!seen.insert({line, what}).second)
      return;
    ctx.notCarried(src, line, col, what, "the re-emitted config reads " + emitted);
  }

  void globals() {
    uint32_t at = a.global.line ? a.global.line : 1;
    if (a.kind != b.kind)
      report(1, 1, std::string("the root message ") + rootMessageName(a.kind),
             rootMessageName(b.kind));
    if (a.batchNum.value_or(1) != b.batchNum.value_or(1))
      report(a.batchNumLine ? a.batchNumLine : 1, a.batchNumCol, "batch_num",
             std::to_string(b.batchNum.value_or(1)));
    if (a.doFusion.value_or(true) != b.doFusion.value_or(true))
      report(1, 1, "do_fusion", b.doFusion.value_or(true) ? "true" : "false");
    if (a.forceFp16 != b.forceFp16)
      report(1, 1, "fakequant_precision_mode", b.forceFp16 ? "FORCE_FP16_QUANT" : "its default");
    auto set = [](const std::vector<amct::Entry> &l) {
      std::set<std::string> s;
      for (const amct::Entry &e : l)
        s.insert(e.text);
      return s;
    };
    if (set(a.skipFusionLayers) != set(b.skipFusionLayers))
      report(a.skipFusionLayers.empty() ? 1 : a.skipFusionLayers[0].line,
             a.skipFusionLayers.empty() ? 1 : a.skipFusionLayers[0].col, "skip_fusion_layers",
             "other layers");
    if (isPruneOnly(a) != isPruneOnly(b))
      report(at, 1, isPruneOnly(a) ? "prune only (no quantization)" : "the quantization",
             isPruneOnly(b) ? "prune only" : "quantization of every layer");
  }

  void layers(const std::vector<ir::Module> &modules) {
    std::vector<PruneApplied> prA = pruneReading(a, modules), prB = pruneReading(b, modules);
    for (size_t i = 0; i < modules.size(); ++i) {
      const ir::Module &m = modules[i];
      if (!m.type.empty() && !isQuantizableType(m.type, a.kind, Version{}) &&
          !isFilterPruneType(m.type) && !isSelectivePruneType(m.type))
        continue;
      Effective ea = effective(a, m), eb = effective(b, m);
      uint32_t line = ea.entry ? ea.entry->line : a.global.line;
      uint32_t col = ea.entry ? ea.entry->col : 1;
      std::string from = ea.entry ? "entry '" + ea.entry->key + "'" : "the global recipe";
      if (!ea.quantSkipped && !eb.quantSkipped) {
        std::vector<std::string> pa = parameters(*ea.recipe, a.kind),
                                 pb = parameters(*eb.recipe, b.kind);
        for (size_t j = 0; j < pa.size(); ++j)
          if (std::find(pb.begin(), pb.end(), pa[j]) == pb.end())
            report(line ? line : 1, col, pa[j] + " (" + from + ")",
                   j < pb.size() ? pb[j] : "other parameters");
      }
      if (prA[i] != prB[i]) {
        bool own = ea.entry && ea.entry->recipe.hasPrune;
        uint32_t pl = own ? ea.entry->line : a.global.pruneLine ? a.global.pruneLine : line;
        report(pl ? pl : 1, 1,
               "prune " + pruneText(prA[i]) + " of '" + m.name + "' (" +
                   (own ? from : "the global prune_config") + ")",
               pruneText(prB[i]));
      }
    }
  }
};

} // namespace

void compareAmct(const Source &src, std::string_view emitted, const Context &ctx) {
  AmctDocument a, b;
  std::vector<ParseError> errors;
  if (!parseAmctConfig(*src.text, a, errors) || !parseAmctConfig(std::string(emitted), b, errors))
    return;
  AmctComparer c{src, ctx, a, b, {}};
  c.globals();
  if (ctx.inventory)
    c.layers(ctx.inventory->inventory.modules);
}

} // namespace qspec::import
