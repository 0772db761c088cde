// amct::checkDocument: the whole-document checks of AmctRules.h on a parsed AMCT config, each
// finding tagged with its check (AmctChecks.def). The per-value checks and AMCT's wording they
// call are AmctRules.cpp's.
#include "vendors/amct/AmctConfig.h"
#include "vendors/amct/AmctRules.h"

#include <algorithm>
#include <cstdint>
#include <iterator>
#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

namespace qspec::amct {

const char *checkName(Check c) {
  static const char *const names[] = {
#define AMCT_CHECK(ENUM, ID) ID,
#include "vendors/amct/AmctChecks.def"
#undef AMCT_CHECK
  };
  return names[static_cast<unsigned>(c)];
}

namespace {

struct Checker {
  const AmctDocument &doc;
  const CheckOptions &opts;
  std::vector<Finding> out;
  // Hashed, and views into `opts`: with an inventory this holds every module (10^6 on a large
  // MoE model), and the emitter runs these checks on every config it writes.
  std::unordered_map<std::string_view, std::string_view> typeOf;

  void add(Finding::Level level, Check check, uint32_t line, uint32_t col, std::string msg) {
    out.push_back(Finding{level, check, line, col, std::move(msg)});
  }

  // Reports the entries that occur more than once (findDuplicates' order), at the first repeat.
  template <typename T, typename Text>
  void duplicates(const std::vector<T> &entries, Text text, std::string_view field, bool warnOnly) {
    // Strictly increasing (as the emitter writes every list) means no repeats; no set needed.
    bool increasing = true;
    for (size_t i = 1; i < entries.size() && increasing; ++i)
      increasing = text(entries[i - 1]) < text(entries[i]);
    if (increasing)
      return;
    std::unordered_set<std::string_view> seen, reported;
    seen.reserve(entries.size());
    std::vector<std::string> dups;
    const T *first = nullptr;
    for (const T &e : entries) {
      std::string_view t = text(e);
      if (seen.insert(t).second)
        continue;
      if (!first)
        first = &e;
      if (reported.insert(t).second)
        dups.emplace_back(t);
    }
    if (dups.empty())
      return;
    add(warnOnly ? Finding::Warning : Finding::Error, Check::Duplicate, first->line, first->col,
        repeatedItemsMessage(warnOnly ? ConfigKind::PTQ : doc.kind, field, dups));
  }
  void duplicates(const std::vector<Entry> &entries, std::string_view field, bool warnOnly) {
    duplicates(
        entries, [](const Entry &e) -> std::string_view { return e.text; }, field, warnOnly);
  }
  void overrideDuplicates(const std::vector<Override> &ovs, std::string_view field) {
    duplicates(
        ovs, [](const Override &o) -> std::string_view { return o.key; }, field, false);
  }

  // IFMR's search range and percentile (reference §4.4, KV-cache §4.7), with AMCT's defaults
  // for what the recipe does not write (an override replaces, never merges: §4.2).
  void ifmr(const Recipe &r, const std::string &layer, uint32_t line) {
    std::string msg;
    if (!checkIfmrSearch(doc.kind, r.searchStart.value_or(0.7), r.searchEnd.value_or(1.3),
                         r.searchStep.value_or(0.01), layer, msg))
      add(Finding::Error, Check::SearchRange, line, 0, msg);
    if (doc.kind == ConfigKind::PTQ && r.maxPercentile &&
        !checkMaxPercentile(*r.maxPercentile, layer, msg))
      add(Finding::Error, Check::Percentile, line, 0, msg);
  }

  // The recipe a layer of `type` named `name` gets, for checks that need the resolved value.
  // PTQ features a layer type does not support (§4.4). In `common_config` AMCT silently rewrites
  // them (§4.6), so only an override (of a known type) is an error.
  void typeFeatures(const Recipe &r, std::string_view type, std::string_view name, uint32_t line) {
    std::string t(type), n(name);
    if (r.asymmetric == true && isSymmetricOnlyType(type))
      add(Finding::Error, Check::Conv3dAsymmetric, line, 0,
          n.empty() ? "Layer type " + t + " can only set asymmetric be False "
                    : "Layer " + n + " can only set asymmetric be False ");
    if (r.hasDmq && !isDmqType(type))
      add(Finding::Error, Check::DmqType, line, 0,
          n.empty() ? "dmq_balancer not support for " + t + " type"
                    : "dmq_balancer not support for " + n + " layer");
    if (r.wtsAlgo == "ada" && !isAdaType(type))
      add(Finding::Error, Check::AdaType, line, 0,
          "ada_quantizable not support for " + (n.empty() ? t : n) + " layer");
  }

  void recipe(const Recipe &r, std::string_view type, std::string_view name, uint32_t line,
              bool isOverride) {
    std::string msg;
    // AMCT checks resolved values per layer and names it ("for layer conv1"); without a name
    // (the global recipe, a type override) the message says which layers it stands for.
    std::string layer(name);
    if (layer.empty())
      layer = type.empty() ? std::string("(every layer ") +
                                 (doc.kind == ConfigKind::QAT ? "the retrain configs apply"
                                                              : "common_config applies") +
                                 " to)"
                           : "(every " + std::string(type) + " layer)";
    if (doc.kind == ConfigKind::QAT) {
      if (r.hasClip && !checkClip(r.clipMax, r.clipMin, layer, msg))
        add(Finding::Error, Check::Clip, line, 0, msg);
      if (r.present) {
        DataType a = r.actType.value_or(DataType::Int8), w = r.weightType.value_or(DataType::Int8);
        if (!checkQatPair(a, w, opts.version, msg))
          add(Finding::Error, Check::QatPair, line, 0, msg);
      }
      uint32_t pruneLine = r.pruneLine ? r.pruneLine : line;
      if (r.hasPrune && !r.pruner.empty() && !r.prunerAlgoPresent)
        add(Finding::Error, Check::PruneAlgo, pruneLine, 0,
            r.pruner == "filter"
                ? "only balanced_l2_norm_filter_prune is support,  but "
                  "balanced_l2_norm_filter_prune is not found."
                : "only l1_selective_prune is support,  but l1_selective_prune is not found.");
      if (r.pruneRatio && !checkPruneRatio(*r.pruneRatio, layer, msg))
        add(Finding::Error, Check::PruneRatio, pruneLine, 0, msg);
      if (r.pruner == "n_out_of_m" && !opts.hardware.empty() &&
          !checkNOutOfMHardware(opts.hardware, msg))
        add(Finding::Error, Check::HardwareSparsity, pruneLine, 0, msg);
    }
    if (doc.kind != ConfigKind::QAT && r.actAlgo == "ifmr")
      ifmr(r, layer, line);
    if (doc.kind == ConfigKind::PTQ && r.wtsAlgo == "ada" &&
        !checkAda(r.adaBetaStart.value_or(20), r.adaBetaEnd.value_or(2),
                  r.adaWarmStart.value_or(0.2), r.adaRegParam.value_or(0.01), layer, msg))
      add(Finding::Error, Check::Ada, line, 0, msg);
    if (doc.kind == ConfigKind::PTQ && isOverride && !type.empty())
      typeFeatures(r, type, name, line);
    if (doc.kind == ConfigKind::PTQ) {
      if (r.quantBits && !checkQuantBits(*r.quantBits, type, name, msg))
        add(Finding::Error, Check::QuantBits, line, 0,
            msg.size() > 9 && msg.compare(msg.size() - 9, 9, "in layer ") == 0 ? msg + layer : msg);
      if (r.numOfBins && !checkNumOfBins(*r.numOfBins, layer, msg))
        add(Finding::Error, Check::NumOfBins, line, 0, msg);
      if (r.dmqStrength && !checkDmqStrength(*r.dmqStrength, layer, msg))
        add(Finding::Error, Check::Dmq, line, 0, msg);
      if (r.actType == DataType::Int16 && !checkPtqInt16(opts.version, msg))
        add(Finding::Error, Check::Version, line, 0, msg);
    }
    if (r.channelWise == true && !type.empty() && !checkChannelWise(doc.kind, type, name, msg))
      add(Finding::Error, Check::ChannelWise, line, 0, msg);
    if (doc.kind == ConfigKind::PTQ && r.actType == DataType::Int16 && !type.empty() &&
        !checkInt16Type(type, name, opts.version, msg))
      add(Finding::Error, Check::Int16Type, line, 0, msg);
  }

  // Without layer types, a type named in a skip list stands for layers the model has:
  // common_config's channel_wise: true reaches them too, since AMCT checks resolved values on
  // skipped layers (reference §4.4; QAT's quant_skip_types does not exempt either). Only
  // PyTorch/ONNX type names AMCT quantizes are judged; a type override of the type replaces the
  // global recipe.
  void skippedTypeChannelWise(const std::unordered_set<std::string_view> &typeOverridden) {
    if (doc.global.channelWise != true)
      return;
    std::vector<const Entry *> types;
    for (const Entry &e : doc.skipLayerTypes)
      types.push_back(&e);
    for (const Entry &e : doc.quantSkipTypes)
      types.push_back(&e);
    std::unordered_set<std::string_view> done;
    std::string msg;
    for (const Entry *e : types) {
      if (typeOverridden.count(e->text) || !done.insert(e->text).second ||
          !isQuantizableType(e->text, doc.kind, opts.version) ||
          checkChannelWise(doc.kind, e->text, "", msg))
        continue;
      add(Finding::Warning, Check::ChannelWise, doc.global.line, 0,
          msg + " (skipping the type does not exempt its layers from the global channel_wise: "
                "true; AMCT refuses "
                "the config if the model has one)");
    }
  }

  // QAT pruning: a type (or a layer of a known type) the override's pruner cannot prune
  // (reference §4.1, §4.5: filter Conv2d, Linear; 4:2 Conv2d, Linear, ConvTranspose2d). Type
  // names are judged when they are PyTorch's (or ONNX's) or the caller says every name is.
  void pruneTypes() {
    auto check = [&](const Override &o, std::string_view type, bool byName) {
      const Recipe &r = o.recipe;
      if (!r.hasPrune || r.pruner.empty() || type.empty())
        return;
      if (!opts.pytorchTypes && !isQatType(type, opts.version))
        return;
      bool filter = r.pruner == "filter";
      if (filter ? isFilterPruneType(type) : isSelectivePruneType(type))
        return;
      std::string what = filter ? "filter prune" : "selective prune";
      std::string amctMsg = byName ? "some override_layer not in valid_layers for " + what
                                   : std::string("some override_types not supported for ") +
                                         (filter ? "filter" : "selective") + " prune";
      add(Finding::Error, Check::PruneType, o.line, o.col,
          amctMsg + " (" + std::string(type) + " cannot be " +
              (filter ? "filter-pruned: only Conv2d and Linear can"
                      : "4:2-pruned: only Conv2d, Linear and ConvTranspose2d can") +
              ")");
    };
    for (const Override &o : doc.typeOverrides)
      check(o, o.key, false);
    for (const Override &o : doc.nameOverrides) {
      auto it = typeOf.find(o.key);
      if (it != typeOf.end())
        check(o, it->second, true);
    }
  }

  // Names AMCT looks up in the graph (reference §4.4, §4.5), judged only when the layers are known
  // (an inventory): PTQ refuses a skip_fusion_layers entry the graph lacks; QAT refuses a skip list
  // (skip_layers, quant_skip_layers, regular_prune_skip_layers) with a name outside valid_layers,
  // which a name the graph lacks never is. One pass over the layers marks the names asked for.
  void missingLayers() {
    std::vector<std::pair<const Entry *, const char *>> asked;
    // Override names, as entries (their line and column), for the same search.
    std::vector<Entry> overrideNames;
    if (doc.kind != ConfigKind::KVCache)
      for (const Override &o : doc.nameOverrides)
        overrideNames.push_back(Entry{o.key, o.line, o.col});
    if (doc.kind == ConfigKind::PTQ) {
      for (const Entry &e : doc.skipFusionLayers)
        asked.emplace_back(&e, "skip_fusion_layers");
      for (const Entry &e : doc.skipLayers)
        asked.emplace_back(&e, "skip_layers");
    }
    for (const Entry &e : overrideNames)
      asked.emplace_back(&e, "override_layer_configs");
    if (doc.kind == ConfigKind::QAT)
      for (auto [list, field] : {std::pair{&doc.skipLayers, "skip_layers"},
                                 {&doc.quantSkipLayers, "quant_skip_layers"},
                                 {&doc.pruneSkipLayers, "regular_prune_skip_layers"}})
        for (const Entry &e : *list)
          asked.emplace_back(&e, field);
    if (asked.empty() || opts.layerTypes.empty())
      return;
    std::unordered_map<std::string_view, bool> found;
    found.reserve(asked.size());
    for (auto &a : asked)
      found.emplace(a.first->text, false);
    for (auto &[name, type] : opts.layerTypes) {
      auto it = found.find(name);
      if (it != found.end())
        it->second = true;
    }
    for (auto &[e, field] : asked) {
      if (found[e->text])
        continue;
      // AMCT's words (amct.md 4.4, 4.5): PTQ names the layer; QAT names the list.
      std::string_view f = field;
      std::string amctMsg =
          doc.kind == ConfigKind::QAT
              ? (f == "override_layer_configs"
                     ? std::string("some override_layer not in valid_layers for quant")
                     : std::string("some ") + field + " not in valid_layers")
          : f == "skip_fusion_layers"
              ? "Layer \"" + e->text + "\" in skip_fusion_layers does not exist in the graph."
              : "Layer " + e->text + " does not exist in the graph.";
      if (doc.kind == ConfigKind::QAT)
        amctMsg += " (\"" + e->text + "\" is not a layer of the graph)";
      add(Finding::Error, Check::LayerMissing, e->line, e->col, amctMsg);
    }
  }

  // QAT: an override with only prune_config in a file that quantizes still counts as a quant
  // override (reference §4.2): the layer's quantization resets to AMCT's defaults, not the global
  // recipe, and retrain_enable is true even if the layer is skipped.
  // A type override of a type the file skips, and (PTQ) a name override of a skipped layer or of
  // a layer of a skipped type (its type known from an inventory). amct.md 4.2, skip vs override:
  // in PTQ the skip wins, so the override is dead; in QAT the override wins and sets
  // retrain_enable back to true for every layer of that type (the name case is the run()'s).
  void skippedOverrides(bool qat) {
    if (doc.kind == ConfigKind::KVCache)
      return;
    std::unordered_set<std::string_view> types;
    for (const Entry &e : doc.skipLayerTypes)
      types.insert(e.text);
    if (qat)
      for (const Entry &e : doc.quantSkipTypes)
        types.insert(e.text);
    for (const Override &o : doc.typeOverrides) {
      if (!types.count(o.key))
        continue;
      if (qat)
        add(Finding::Warning, Check::QatSkipIneffective, o.line, o.col,
            "layer type '" + o.key + "' is skipped, but its type override sets retrain_enable " +
                "back to true for every " + o.key + " layer");
      else
        add(Finding::Warning, Check::DeadOverride, o.line, o.col,
            "the " + o.key + " type override has no effect: skip_layer_types skips every " + o.key +
                " layer, and in PTQ the skip wins");
    }
    if (qat)
      return;
    std::unordered_set<std::string_view> names;
    for (const Entry &e : doc.skipLayers)
      names.insert(e.text);
    for (const Override &o : doc.nameOverrides) {
      auto it = typeOf.find(o.key);
      if (names.count(o.key))
        add(Finding::Warning, Check::DeadOverride, o.line, o.col,
            "the override of layer '" + o.key +
                "' has no effect: skip_layers skips it, and in PTQ the skip wins");
      else if (it != typeOf.end() && types.count(it->second))
        add(Finding::Warning, Check::DeadOverride, o.line, o.col,
            "the override of layer '" + o.key + "' has no effect: it is a " +
                std::string(it->second) +
                ", which skip_layer_types skips, and in PTQ the skip wins");
    }
  }

  void pruneOnlyOverrides() {
    bool quantizes = doc.global.present;
    for (const auto *list : {&doc.typeOverrides, &doc.nameOverrides})
      for (const Override &o : *list)
        quantizes = quantizes || o.recipe.present;
    if (!quantizes)
      return;
    for (const auto *list : {&doc.typeOverrides, &doc.nameOverrides})
      for (const Override &o : *list)
        if (o.recipe.hasPrune && !o.recipe.present)
          add(Finding::Warning, Check::PruneOnlyOverride, o.line, o.col,
              "the override of '" + o.key +
                  "' has only prune_config, but AMCT still counts it as a quant override: its "
                  "quantization is "
                  "reset to AMCT's defaults (INT8 ULQ activations, INT8 ARQ weights, no clip), not "
                  "the global "
                  "retrain configs, and retrain_enable is true even where the layer is skipped");
  }

  // typeOf: the known type of each layer name the checks look up (with unique layer names, only
  // those, filled in one pass over the layers). Returns whether some layer has a known type.
  bool knownTypes() {
    bool qat = doc.kind == ConfigKind::QAT;
    bool anyKnown = false; // some layer has a known type
    if (opts.uniqueLayerNames) {
      // typeOf holds only the names the checks look up, filled in one pass over the layers.
      typeOf.reserve(doc.skipFusionLayers.size() + doc.nameOverrides.size() +
                     (qat && !doc.typeOverrides.empty()
                          ? doc.skipLayers.size() + doc.quantSkipLayers.size()
                          : 0));
      for (const Entry &e : doc.skipFusionLayers)
        typeOf.emplace(e.text, std::string_view());
      for (const Override &o : doc.nameOverrides)
        typeOf.emplace(o.key, std::string_view());
      if (qat && !doc.typeOverrides.empty()) {
        for (const Entry &e : doc.skipLayers)
          typeOf.emplace(e.text, std::string_view());
        for (const Entry &e : doc.quantSkipLayers)
          typeOf.emplace(e.text, std::string_view());
      }
      for (auto &[n, t] : opts.layerTypes) {
        if (t.empty())
          continue;
        anyKnown = true;
        if (typeOf.empty())
          break;
        auto it = typeOf.find(n);
        if (it != typeOf.end())
          it->second = t;
      }
      for (auto it = typeOf.begin(); it != typeOf.end();)
        it = it->second.empty() ? typeOf.erase(it) : std::next(it);
    } else {
      typeOf.reserve(opts.layerTypes.size());
      for (auto &[n, t] : opts.layerTypes)
        if (!t.empty())
          typeOf[n] = t;
      anyKnown = !typeOf.empty();
    }
    return anyKnown;
  }

  // What needs no recipe: batch_num, duplicate entries, fields a framework lacks, unsupported
  // types, skip_fusion_layers' types and global parameters named as layers.
  void listChecks() {
    bool qat = doc.kind == ConfigKind::QAT;
    std::string msg;
    if (doc.batchNum && !checkBatchNum(doc.kind, *doc.batchNum, msg))
      add(Finding::Error, Check::BatchNum, doc.batchNumLine, doc.batchNumCol, msg);
    duplicates(doc.skipLayers, "skip_layers", qat);
    duplicates(doc.skipLayerTypes, "skip_layer_types", qat);
    duplicates(doc.skipFusionLayers, "skip_fusion_layers", false);
    duplicates(doc.quantSkipLayers, "quant_skip_layers", true);
    duplicates(doc.quantSkipTypes, "quant_skip_types", true);
    duplicates(doc.pruneSkipLayers, "regular_prune_skip_layers", true);
    duplicates(doc.pruneSkipTypes, "regular_prune_skip_types", true);
    overrideDuplicates(doc.nameOverrides,
                       qat ? "retrain_override_layers" : "override_layer_configs");
    overrideDuplicates(doc.typeOverrides, "override_layer_types");
    duplicates(doc.kvQuantLayers, "kv_cache_quant_layers", false);

    if (opts.framework == Framework::Caffe && doc.kind == ConfigKind::QAT)
      for (const Entry &e : doc.skipLayerTypes)
        add(Finding::Error, Check::FrameworkField, e.line, e.col,
            "AMCT for Caffe's retrain config has no skip_layer_types (skip the layers by name in "
            "skip_layers)");
    if (opts.pytorchTypes && doc.kind != ConfigKind::KVCache) {
      auto unsupported = [&](std::string_view type, uint32_t line, uint32_t col) {
        // AMCT for PyTorch names layers by their torch class: an ONNX op type (MatMul, Gemm,
        // Conv) is no type of its, and it refuses it like any other.
        bool onnxName = opts.framework == Framework::PyTorch && pytorchEquivalent(type) != type;
        if (onnxName || !isQuantizableType(type, doc.kind, opts.version))
          add(Finding::Error, Check::UnsupportedType, line, col,
              "Layer type " + std::string(type) + " does not support quantize.");
      };
      for (const Entry &e : doc.skipLayerTypes)
        unsupported(e.text, e.line, e.col);
      for (const Override &o : doc.typeOverrides)
        unsupported(o.key, o.line, o.col);
    }
    for (const Entry &e : doc.skipFusionLayers) {
      auto it = typeOf.find(e.text);
      if (it != typeOf.end() && !isFuseType(it->second))
        add(Finding::Error, Check::SkipFusion, e.line, e.col,
            "Skip fusion layer \"" + e.text +
                "\"'s type not in supported list ['Conv2d', 'Conv3d', 'Conv1d']");
    }
    if (doc.kind == ConfigKind::PTQ)
      for (const Override &o : doc.nameOverrides)
        if (isGlobalParameterName(o.key))
          add(Finding::Error, Check::LayerName, o.line, o.col,
              o.key + " is a global parameter, can not be a layer name");
  }

  // Recipes: the global one on every known layer it reaches (skipped ones included), then
  // each override entry. The global recipe is checked once per type, in the byte order of
  // the first name (not overridden by name, of a type not overridden) that has the type.
  void recipes(bool anyKnown) {
    std::unordered_set<std::string_view> typeOverridden, nameOverridden;
    nameOverridden.reserve(doc.nameOverrides.size());
    for (const Override &o : doc.typeOverrides)
      typeOverridden.insert(o.key);
    for (const Override &o : doc.nameOverrides)
      nameOverridden.insert(o.key);
    struct FirstOfType {
      std::string_view type, name;
      bool found = false;
    };
    std::vector<FirstOfType> firsts; // one per type, unordered
    std::unordered_map<std::string_view, size_t> slotOf;
    size_t last = SIZE_MAX; // names of one type tend to come together
    auto consider = [&](std::string_view n, std::string_view t) {
      size_t slot = last;
      if (slot == SIZE_MAX || firsts[slot].type != t) {
        auto [it, fresh] = slotOf.try_emplace(t, firsts.size());
        if (fresh)
          firsts.push_back({t, {}, false});
        slot = last = it->second;
      }
      FirstOfType &f = firsts[slot];
      // Most names lose the comparison; only a new first needs the override lookups.
      if ((!f.found || n < f.name) && !nameOverridden.count(n) && !typeOverridden.count(t)) {
        f.name = n;
        f.found = true;
      }
    };
    if (opts.uniqueLayerNames) {
      for (auto &[n, t] : opts.layerTypes)
        if (!t.empty())
          consider(n, t);
    } else {
      for (auto &[n, t] : typeOf)
        consider(n, t);
    }
    firsts.erase(
        std::remove_if(firsts.begin(), firsts.end(), [](const FirstOfType &f) { return !f.found; }),
        firsts.end());
    std::sort(firsts.begin(), firsts.end(),
              [](const FirstOfType &a, const FirstOfType &b) { return a.name < b.name; });
    for (const FirstOfType &f : firsts)
      if (isQuantizableType(f.type, doc.kind, opts.version))
        recipe(doc.global, f.type, "", doc.global.line, false);
    if (!anyKnown)
      recipe(doc.global, "", "", doc.global.line, false);
    for (const Override &o : doc.typeOverrides)
      recipe(o.recipe, o.key, "", o.line, true);
    for (const Override &o : doc.nameOverrides) {
      auto it = typeOf.find(o.key);
      recipe(o.recipe, it == typeOf.end() ? "" : it->second, o.key, o.line, true);
    }
    if (!anyKnown && doc.kind != ConfigKind::KVCache)
      skippedTypeChannelWise(typeOverridden);
  }

  // QAT: an override (name, or type of a known layer) re-enables a skipped layer.
  void qatSkipIneffective() {
    // The skipped names, in byte order and distinct (the order of the type-override warnings).
    std::vector<std::string_view> skipped;
    skipped.reserve(doc.skipLayers.size() + doc.quantSkipLayers.size());
    for (const Entry &e : doc.skipLayers)
      skipped.push_back(e.text);
    for (const Entry &e : doc.quantSkipLayers)
      skipped.push_back(e.text);
    if (!std::is_sorted(skipped.begin(), skipped.end()))
      std::sort(skipped.begin(), skipped.end());
    skipped.erase(std::unique(skipped.begin(), skipped.end()), skipped.end());
    if (!doc.nameOverrides.empty()) {
      std::unordered_set<std::string_view> isSkipped(skipped.begin(), skipped.end());
      for (const Override &o : doc.nameOverrides)
        if (isSkipped.count(o.key))
          add(Finding::Warning, Check::QatSkipIneffective, o.line, o.col,
              "layer '" + o.key +
                  "' is skipped, but its override sets retrain_enable back to true");
    }
    if (!doc.typeOverrides.empty()) {
      std::vector<std::pair<std::string_view, std::string_view>> skippedTypes; // known types only
      for (std::string_view s : skipped) {
        auto it = typeOf.find(s);
        if (it != typeOf.end())
          skippedTypes.emplace_back(s, it->second);
      }
      for (const Override &o : doc.typeOverrides)
        for (auto &[s, t] : skippedTypes)
          if (t == o.key)
            add(Finding::Warning, Check::QatSkipIneffective, o.line, o.col,
                "layer '" + std::string(s) + "' is skipped, but the " + o.key +
                    " type override sets retrain_enable back to true");
    }
  }

  void run() {
    bool qat = doc.kind == ConfigKind::QAT;
    bool anyKnown = knownTypes();
    listChecks();
    recipes(anyKnown);
    if (qat) {
      pruneTypes();
      pruneOnlyOverrides();
    }
    missingLayers();
    skippedOverrides(qat);
    // AMCT quantizes quant_layers merged with the override entries' layers.
    if (doc.kind == ConfigKind::KVCache && doc.kvQuantLayers.empty() && doc.nameOverrides.empty())
      add(Finding::Error, Check::KvNoQuantLayers, doc.global.line, 0,
          "No quant enable layer in quant config file, please check the quant config file.");

    if (qat)
      qatSkipIneffective();
  }
};

} // namespace

std::vector<Finding> checkDocument(const AmctDocument &doc, const CheckOptions &opts) {
  Checker c{doc, opts, {}, {}};
  c.run();
  return std::move(c.out);
}

} // namespace qspec::amct
