// AMCT's reading (AmctReader.h): a parsed document applied to an inventory under AMCT's
// precedence, then named in the IR's words for translation validation.
#include "vendors/amct/AmctReader.h"
#include "vendors/amct/AmctIntent.h"
#include "vendors/ViewIndex.h"

#include <cstdio>

namespace qspec::amct {

namespace {

// The document's lists, indexed once: a large inventory is matched against them module by module.
// A repeated entry: the first one decides.
struct Index {
  vendors::ViewIndex<const Override *> byName, byType;
  vendors::ViewIndex<const Entry *> skipNames, skipTypes;

  explicit Index(const AmctDocument &doc)
      : byName(doc.nameOverrides.size()), byType(doc.typeOverrides.size()),
        skipNames(doc.skipLayers.size() + doc.quantSkipLayers.size()),
        skipTypes(doc.skipLayerTypes.size() + doc.quantSkipTypes.size()) {
    for (const Override &o : doc.nameOverrides)
      byName.add(o.key, &o);
    for (const Override &o : doc.typeOverrides)
      byType.add(o.key, &o);
    bool qat = doc.kind == ConfigKind::QAT;
    for (const auto *list : {&doc.skipLayers, qat ? &doc.quantSkipLayers : nullptr})
      if (list)
        for (const Entry &e : *list)
          skipNames.add(e.text, &e);
    for (const auto *list : {&doc.skipLayerTypes, qat ? &doc.quantSkipTypes : nullptr})
      if (list)
        for (const Entry &e : *list)
          skipTypes.add(e.text, &e);
  }
  template <typename V> static V find(const vendors::ViewIndex<V> &m, std::string_view key) {
    const V *v = m.find(key);
    return v ? *v : nullptr;
  }
};

// PTQ `asymmetric`: explicit in the chosen recipe ▸ common_config's (same algorithm) ▸
// activation_offset (default true); Conv3d is always symmetric.
std::optional<bool> ptqAsymmetric(const AmctDocument &doc, const Recipe &r, bool fromGlobal,
                                  std::string_view type) {
  if (isSymmetricOnlyType(type))
    return false;
  if (r.asymmetric)
    return r.asymmetric;
  std::string_view algo = r.actAlgo.empty() ? "ifmr" : std::string_view(r.actAlgo);
  std::string_view globalAlgo =
      doc.global.actAlgo.empty() ? "ifmr" : std::string_view(doc.global.actAlgo);
  if (!fromGlobal && doc.global.asymmetric && algo == globalAlgo)
    return doc.global.asymmetric;
  return doc.activationOffset.value_or(true);
}

void applyPtq(const AmctDocument &doc, const Recipe &r, bool fromGlobal, const ir::Module &m,
              Version v, Applied &a, std::vector<Finding> &refusals) {
  const std::string &type = m.type;
  bool known = !type.empty();
  a.actAlgo = r.actAlgo.empty() ? std::string_view("ifmr") : std::string_view(r.actAlgo);
  a.wtsAlgo = r.wtsAlgo.empty() ? std::string_view("arq") : std::string_view(r.wtsAlgo);
  a.act = r.actType.value_or(DataType::Int8);
  bool noBias = m.biasKnown && !m.hasBias;
  std::string msg;
  if (a.act == DataType::Int16 && known &&
      (!checkInt16Type(type, m.name, v, msg) || !checkInt16Bias(type, !noBias, m.name, msg))) {
    if (!fromGlobal)
      refusals.push_back(Finding{Finding::Error, Check::Int16Type, a.line, a.col, msg});
    a.act = DataType::Int8; // the global recipe: 'does not support int16_quantizable, set int8'
  }
  a.weightBits = r.quantBits.value_or(8);
  if (fromGlobal && known && (a.weightBits == 6 || a.weightBits == 7) && !isSixSevenBitType(type))
    a.weightBits = 8;
  if (fromGlobal && known && a.wtsAlgo == "ada" && !isAdaType(type))
    a.weightBits = 0; // weight_quant_params dropped, no log
  if (r.channelWise)
    a.channelWise = r.channelWise;
  else if (known)
    a.channelWise = isChannelWiseType(type);
  a.asymmetric = ptqAsymmetric(doc, r, fromGlobal, type);
}

void applyQat(const Recipe &r, const ir::Module &m, Applied &a) {
  a.actAlgo = "ulq";
  a.wtsAlgo = r.wtsAlgo.empty() ? std::string_view("arq") : std::string_view(r.wtsAlgo);
  a.act = r.actType.value_or(DataType::Int8);
  a.weightBits = r.weightType.value_or(DataType::Int8) == DataType::Int4 ? 4 : 8;
  if (r.channelWise)
    a.channelWise = r.channelWise;
  else if (!m.type.empty())
    a.channelWise = isChannelWiseType(m.type);
}

} // namespace

PruneApplied pruneOf(const Recipe &r) {
  PruneApplied p;
  if (!r.hasPrune)
    return p;
  if (r.pruner == "filter") {
    p.kind = PruneApplied::Filter;
    p.ratio = static_cast<float>(r.pruneRatio.value_or(0));
    p.ascendOptimized = r.ascendOptimized.value_or(true);
  } else if (r.pruner == "n_out_of_m") {
    p.kind = PruneApplied::NOutOfM;
    p.updateFreq = r.updateFreq.value_or(0);
  }
  p.line = r.pruneLine ? r.pruneLine : r.line;
  return p;
}

std::string pruneText(const PruneApplied &p) {
  switch (p.kind) {
  case PruneApplied::Filter: {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%g", static_cast<double>(p.ratio));
    return std::string("filter ratio ") + buf + " ascend_optimized " +
           (p.ascendOptimized ? "true" : "false");
  }
  case PruneApplied::NOutOfM:
    return "n_out_of_m update_freq " + std::to_string(p.updateFreq);
  case PruneApplied::Skipped:
    return "skipped";
  default:
    return "none";
  }
}

std::vector<PruneApplied> pruneReading(const AmctDocument &doc,
                                       const std::vector<ir::Module> &modules) {
  std::vector<PruneApplied> out(modules.size());
  if (doc.kind != ConfigKind::QAT)
    return out;
  Index index(doc);
  vendors::ViewIndex<const Entry *> skipNames(doc.skipLayers.size() + doc.pruneSkipLayers.size()),
      skipTypes(doc.skipLayerTypes.size() + doc.pruneSkipTypes.size());
  for (const auto *list : {&doc.skipLayers, &doc.pruneSkipLayers})
    for (const Entry &e : *list)
      skipNames.add(e.text, &e);
  for (const auto *list : {&doc.skipLayerTypes, &doc.pruneSkipTypes})
    for (const Entry &e : *list)
      skipTypes.add(e.text, &e);
  PruneApplied global = pruneOf(doc.global);
  for (size_t i = 0; i < modules.size(); ++i) {
    const ir::Module &m = modules[i];
    const Override *chosen = Index::find(index.byName, m.name);
    if (!chosen && !m.type.empty())
      chosen = Index::find(index.byType, m.type);
    PruneApplied &p = out[i];
    if (chosen && chosen->recipe.hasPrune) {
      p = pruneOf(chosen->recipe);
      p.line = chosen->line;
      p.col = chosen->col;
    } else {
      p = global;
      p.col = p.line ? 1 : 0;
    }
    if (p.kind != PruneApplied::None &&
        (Index::find(skipNames, m.name) || (!m.type.empty() && Index::find(skipTypes, m.type))))
      p = PruneApplied{PruneApplied::Skipped, 0, true, 0, p.line, p.col};
  }
  return out;
}

std::vector<Applied> applyDocument(const AmctDocument &doc, const std::vector<ir::Module> &modules,
                                   Version v, std::vector<Finding> &refusals) {
  Index index(doc);
  bool qat = doc.kind == ConfigKind::QAT;
  bool pruneOnly = isPruneOnly(doc); // every layer keeps float weights and activations
  std::vector<Applied> out(modules.size());
  for (size_t i = 0; i < modules.size(); ++i) {
    const ir::Module &m = modules[i];
    Applied &a = out[i];
    a.considered = m.type.empty() || isQuantizableType(m.type, doc.kind, v);
    if (!a.considered)
      continue;
    if (pruneOnly) {
      a.line = doc.global.pruneLine ? doc.global.pruneLine : doc.global.line;
      a.col = a.line ? 1 : 0;
      continue;
    }
    const Override *byName = Index::find(index.byName, m.name);
    const Override *byType = m.type.empty() ? nullptr : Index::find(index.byType, m.type);
    const Override *chosen = byName ? byName : byType;
    const Entry *skip = Index::find(index.skipNames, m.name);
    if (!skip && !m.type.empty())
      skip = Index::find(index.skipTypes, m.type);
    // PTQ: skip wins. QAT: any override sets retrain_enable back to true.
    a.enabled = !skip || (qat && chosen);
    if (!a.enabled) {
      a.line = skip->line;
      a.col = skip->col;
      continue;
    }
    const Recipe &r = chosen ? chosen->recipe : doc.global;
    a.line = chosen ? chosen->line : doc.global.line;
    a.col = chosen ? chosen->col : (doc.global.line ? 1 : 0);
    if (qat)
      applyQat(r, m, a);
    else
      applyPtq(doc, r, !chosen, m, v, a, refusals);
  }
  return out;
}

} // namespace qspec::amct
