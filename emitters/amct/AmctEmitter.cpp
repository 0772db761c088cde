// The AMCT simple-config emitter (docs/emitters/amct.md has the full mapping). Four steps:
//
// 1. Options: the target's settings (`target amct ptq|qat { version; framework; hardware; ... }`)
//    are parsed once into AmctOptions; the recipe-level ones (act_algo, clip_max, ...) into the
//    base LayerRecipe every module starts from.
// 2. Plan, from the resolution: every module AMCT quantizes gets its AMCT recipe (vendors/amct's
//    AmctIntent decides data types and algorithms); float modules (protected ∪ tuning) become
//    `skip_layers`. Per type, the most common recipe becomes an `override_layer_types` entry when
//    it differs from the global one (QAT: never for a type with a skipped layer, since a type
//    override re-enables it); every module whose recipe still differs gets an
//    `override_layer_configs` entry with its COMPLETE recipe (AMCT replaces, never merges).
//    Without an inventory: the rules as written, literal names only. Every recipe is checked
//    against AMCT's rules here, naming the module. With two graphs and `framework onnx`, the
//    layers are the ONNX graph's nodes (AmctOnnxNames.h lowers the spec to them first).
// 3. Lower: the plan becomes a vendors/amct AmctDocument (sorted lists, explicit fields only
//    where AMCT's default differs), printed by vendors/amct (TextFormat, field-number order).
// 4. Verify: the text is parsed back strictly and AMCT's document checks run on it; qcc then
//    reads it through vendors/amct's reader and compares the reading with the IR (emitTargets).
#include "emitters/amct/AmctEmitter.h"
#include "emitters/amct/AmctOnnxNames.h"
#include "ir/GraphNames.h"
#include "vendors/amct/AmctConfig.h"
#include "vendors/amct/AmctIntent.h"
#include "vendors/amct/AmctRules.h"

#include <algorithm>
#include <cmath>
#include <deque>
#include <map>
#include <set>
#include <string_view>
#include <tuple>
#include <unordered_map>

namespace qspec::emit {

namespace {

using namespace qspec::amct;

// One layer's AMCT recipe, as AMCT will resolve it. `channelWise` is the effective value for
// the layer's type (or, for a recipe not tied to a type, the value asked for, nullopt = unset).
struct LayerRecipe {
  DataType act = DataType::Int8;
  DataType weight = DataType::Int8;  // QAT dst_type; PTQ: Int4 -> quant_bits 4
  std::optional<uint32_t> quantBits; // PTQ 6/7 (explicit option)
  std::optional<bool> channelWise;
  std::optional<bool> asymmetric; // PTQ
  std::string actAlgo = "ifmr";   // ifmr | hfmg | ulq
  std::string wtsAlgo = "arq";    // arq | ada | ulq
  std::optional<double> clipMax, clipMin;
  std::optional<bool> fixedMin;
  std::optional<uint32_t> numOfBins;
  std::optional<double> dmq;

  auto tie() const {
    return std::tie(act, weight, quantBits, channelWise, asymmetric, actAlgo, wtsAlgo, clipMax,
                    clipMin, fixedMin, numOfBins, dmq);
  }
  bool operator==(const LayerRecipe &o) const { return tie() == o.tie(); }
  bool operator<(const LayerRecipe &o) const { return tie() < o.tie(); }
};

// A role's resolved fields, wherever they came from (resolution, or settings as written).
struct RoleView {
  std::optional<std::string> dtype, scope, method;
  std::optional<bool> symmetric;
  SourceRange at;
  int dtypeRank = 0; // how specific the rule that set `dtype` is (amct::decisionRank)
};

RoleView viewOf(const ir::ResolvedRecipe &r) {
  RoleView v;
  if (!r.dtype.value.empty()) {
    v.dtype = r.dtype.value;
    v.dtypeRank = decisionRank(r.dtype.from.source);
  }
  if (!r.scope.value.empty())
    v.scope = r.scope.value;
  if (!r.method.value.empty())
    v.method = r.method.value;
  if (r.symmetric.from.source != ir::Decision::BuiltIn)
    v.symmetric = r.symmetric.value;
  return v;
}

RoleView viewOf(const ir::Recipe &base, const ir::Recipe *top, int topRank = 3) {
  RoleView v;
  v.dtype = base.dtype;
  v.dtypeRank = 1;
  v.scope = base.scope;
  v.method = base.method;
  v.symmetric = base.symmetric;
  v.at = base.range;
  if (top) {
    if (top->dtype) {
      v.dtype = top->dtype;
      v.dtypeRank = topRank;
    }
    if (top->scope)
      v.scope = top->scope;
    if (top->method)
      v.method = top->method;
    if (top->symmetric)
      v.symmetric = top->symmetric;
    if (top->range.valid())
      v.at = top->range;
  }
  return v;
}

// Everything buildRecipe's result depends on for one inventory module, as views into the
// resolution. The layer name and the source ranges reach only diagnostics, so modules with equal
// keys get equal recipes; that is what lets run() build a recipe once per distinct key instead
// of once per module (a large MoE inventory has ~10^6 modules and a handful of keys).
struct RecipeKey {
  ir::Tier tier = ir::Tier::Int8;
  int tierRank = 0;
  std::string_view dtype[2], scope[2], method[2]; // weight, act; "" = unset (as in viewOf)
  int dtypeRank[2] = {0, 0};
  int symmetric[2] = {-1, -1};                             // -1 = unset
  const std::vector<const ir::Option *> *blocks = nullptr; // compared by content
  uint32_t type = 0;                                       // interned module type
  bool fromDefaults = false;
  bool noBias = false; // a Linear the inventory knows has no bias

  bool operator==(const RecipeKey &o) const {
    for (int i = 0; i < 2; ++i)
      if (dtype[i] != o.dtype[i] || scope[i] != o.scope[i] || method[i] != o.method[i] ||
          dtypeRank[i] != o.dtypeRank[i] || symmetric[i] != o.symmetric[i])
        return false;
    return tier == o.tier && tierRank == o.tierRank && type == o.type &&
           fromDefaults == o.fromDefaults && noBias == o.noBias && *blocks == *o.blocks;
  }
};

struct RecipeKeyHash {
  size_t operator()(const RecipeKey &k) const {
    uint64_t h = 14695981039346656037ull; // FNV-1a: the fields are a few short words
    auto mix = [&h](uint64_t v) { h = (h ^ v) * 1099511628211ull; };
    auto text = [&](std::string_view s) {
      for (char c : s)
        mix(static_cast<unsigned char>(c));
      mix(0x100 + s.size());
    };
    for (int i = 0; i < 2; ++i) {
      text(k.dtype[i]);
      text(k.scope[i]);
      text(k.method[i]);
      mix(static_cast<uint64_t>(k.dtypeRank[i] * 4 + k.symmetric[i] + 1));
    }
    mix(static_cast<uint64_t>(k.tier));
    mix(static_cast<uint64_t>(k.tierRank));
    mix(k.type);
    mix(k.fromDefaults);
    mix(k.noBias);
    for (const ir::Option *o : *k.blocks)
      mix(reinterpret_cast<uintptr_t>(o));
    return static_cast<size_t>(h ^ (h >> 32));
  }
};

RecipeKey keyOf(const ir::ResolvedModule &rm, uint32_t type, bool fromDefaults, bool noBias) {
  RecipeKey k;
  k.tier = rm.tier.value;
  k.tierRank = decisionRank(rm.tier.from.source);
  const ir::ResolvedRecipe *roles[2] = {&rm.weight, &rm.act};
  for (int i = 0; i < 2; ++i) {
    const ir::ResolvedRecipe &r = *roles[i];
    k.dtype[i] = r.dtype.value.str();
    k.dtypeRank[i] = r.dtype.value.empty() ? 0 : decisionRank(r.dtype.from.source);
    k.scope[i] = r.scope.value.str();
    k.method[i] = r.method.value.str();
    k.symmetric[i] = r.symmetric.from.source != ir::Decision::BuiltIn ? r.symmetric.value : -1;
  }
  k.blocks = &rm.targetOptions;
  k.type = type;
  k.fromDefaults = fromDefaults;
  k.noBias = noBias;
  return k;
}

// The target's settings, parsed once (step 1).
struct AmctOptions {
  ConfigKind kind = ConfigKind::PTQ;
  Version version;
  std::string versionText = "9.2.0";
  std::string hardware;
  std::string framework = "pytorch";
  std::optional<uint32_t> batchNum;
  std::optional<bool> activationOffset, doFusion;
  bool forceFp16 = false;
  std::vector<std::pair<std::string, SourceRange>> skipFusion;
  struct Prune {
    bool present = false;
    std::string type; // filter | n_out_of_m
    double ratio = 0;
    std::optional<bool> ascendOptimized;
    std::optional<uint32_t> updateFreq;
    std::vector<std::string> skipLayers, skipTypes; // regular_prune_skip_layers / _types
  } prune;
  // The target's act_algo / weight_algo: the algorithm for methods AMCT has no word for ("" none).
  std::string actAlgo, wtsAlgo;
  LayerRecipe base; // the target's recipe options (clip_max, num_of_bins, ...) applied
};

// A module (or, without an inventory, a literal name) with its own override entry.
struct NameEntry {
  std::string_view name, type;
  const LayerRecipe *recipe;
  SourceRange at;
};

// What the file says, before it is lowered to AMCT's document (step 2). Names and recipes are
// held by view / pointer: an entry per module of a large inventory must not copy its name, and
// recipes are shared by every module that resolves to them.
struct Plan {
  LayerRecipe global;
  std::vector<std::pair<std::string_view, SourceRange>> skips, skipTypes;
  std::map<std::string, LayerRecipe> typeEntries;
  std::vector<NameEntry> nameEntries;
  std::deque<std::string> ownedNames; // names that are not in the spec or inventory (literalName)
  std::deque<LayerRecipe> recipes;    // stable addresses for NameEntry::recipe
  std::string_view keep(std::string s) { return ownedNames.emplace_back(std::move(s)); }
};

using ir::literalName;

// The modules of the inventory by type, as planFromResolution collects them.
struct TypeInfo {
  std::string_view name;
  bool quantizable = false, channelWise = false;
  bool hasSkips = false, warnedNotQuantizable = false, cwWarned = false;
  std::vector<uint32_t> members; // quantized modules, in inventory order
};
struct Collected {
  std::vector<TypeInfo> types;
  std::vector<uint32_t> recipeOf; // per module: index into Plan::recipes (quantized modules)
};

class AmctWriter {
public:
  AmctWriter(const ir::Spec &spec, const ir::Target &target, DiagnosticEngine &diags)
      : spec_(spec), target_(target), diags_(diags) {}

  bool run(std::string &out);

private:
  const ir::Spec &spec_;
  const ir::Target &target_;
  DiagnosticEngine &diags_;
  AmctOptions opts_;
  bool ok_ = true;

  bool qat() const { return opts_.kind == ConfigKind::QAT; }
  std::string modeName() const { return qat() ? "QAT" : "PTQ"; }

  // One report per (diagnostic, location): a rule that breaks AMCT's rules on many modules is
  // reported once, naming the first module (in inventory order).
  std::set<std::tuple<unsigned, FileID, uint32_t, uint32_t>> reported_;
  void error(DiagID id, SourceRange at, std::vector<std::string> args) {
    ok_ = false;
    if (!at.valid())
      at = target_.range;
    if (!reported_.insert({static_cast<unsigned>(id), at.file, at.begin.line, at.begin.col}).second)
      return;
    diags_.report(id, at, std::move(args));
  }
  SourceRange optionAt(const char *key, SourceRange fallback) const {
    const ir::Option *o = target_.option(key);
    return o ? o->range : fallback;
  }

  // ---- option values -------------------------------------------------------------------
  bool number(const ir::Option &o, double &v) {
    if (o.values.size() != 1 || o.values[0].kind != ir::Value::Number ||
        !std::isfinite(o.values[0].number)) {
      error(DiagID::err_amct_option_value, o.range,
            {o.values.empty() ? "" : o.values[0].text, o.key, "expected a number"});
      return false;
    }
    v = o.values[0].number;
    return true;
  }
  bool integer(const ir::Option &o, uint32_t &v) {
    double d;
    if (!number(o, d))
      return false;
    if (!o.values[0].isInteger || d < 0 || d > 4294967295.0) {
      error(DiagID::err_amct_option_value, o.range,
            {o.values[0].text, o.key, "expected a non-negative integer"});
      return false;
    }
    v = static_cast<uint32_t>(d);
    return true;
  }
  bool boolean(const ir::Option &o, bool &v) {
    if (o.values.size() == 1 && o.values[0].kind == ir::Value::Ident &&
        (o.values[0].text == "true" || o.values[0].text == "false")) {
      v = o.values[0].text == "true";
      return true;
    }
    error(DiagID::err_amct_option_value, o.range,
          {o.values.empty() ? "" : o.values[0].text, o.key, "expected true or false"});
    return false;
  }
  bool word(const ir::Option &o, std::string &v) {
    if (o.values.size() == 1 && o.values[0].kind != ir::Value::Number) {
      v = o.values[0].text;
      return true;
    }
    error(DiagID::err_amct_option_value, o.range,
          {o.values.empty() ? "" : o.values[0].text, o.key, "expected one word or string"});
    return false;
  }
  bool onlyFor(const ir::Option &o, ConfigKind k) {
    if (opts_.kind == k)
      return true;
    error(DiagID::err_amct_option_variant, o.keyRange.valid() ? o.keyRange : o.range,
          {o.key, configKindName(k)});
    return false;
  }

  // Step 1.
  bool parseOptions();
  void parseVersion(const ir::Option &o);
  void parsePrune(const ir::Option &o);
  // Applies recipe-level options (the target's, or a rule's `amct { }` block) to `r`.
  void applyRecipeOptions(const std::vector<ir::Option> &opts, LayerRecipe &r,
                          std::optional<std::string> &actAlgo, std::optional<std::string> &wtsAlgo,
                          const std::string &layer);

  // Step 2.
  bool planGlobal(Plan &plan);
  void planFromResolution(Plan &plan);
  void chooseEntries(Plan &plan, const Collected &c);
  void planFromRules(Plan &plan);
  bool normalize(Plan &plan);
  // Builds the recipe of one layer (type "" = unknown / the global recipe).
  struct LayerFacts {
    std::string layer, type;
    bool fromDefaults = false;
    bool noBias = false; // a Linear the inventory knows has no bias
  };
  bool buildRecipe(ir::Tier tier, int tierRank, const RoleView &w, const RoleView &a,
                   const std::vector<const ir::Option *> &blocks, const LayerFacts &facts,
                   SourceRange at, LayerRecipe &out);
  void chooseAlgorithms(const RoleView &w, const RoleView &a,
                        const std::optional<std::string> &ruleAct,
                        const std::optional<std::string> &ruleWts, const std::string &shown,
                        SourceRange at, LayerRecipe &r);
  void checkRecipe(const LayerRecipe &r, const LayerFacts &facts, const RoleView &a,
                   SourceRange at);
  // The global recipe as it reaches a layer of `type`.
  LayerRecipe globalFor(const LayerRecipe &global, std::string_view type) const {
    LayerRecipe r = global;
    // The global channel_wise is written only as `false` (absent = AMCT's per-type default).
    std::optional<bool> written = global.channelWise == true ? std::nullopt : global.channelWise;
    r.channelWise = effectiveChannelWise(written, type);
    if (isSymmetricOnlyType(type) && !r.asymmetric)
      r.asymmetric = std::nullopt;
    return r;
  }
  static std::optional<bool> effectiveChannelWise(std::optional<bool> asked,
                                                  std::string_view type) {
    if (type.empty())
      return asked;
    return asked.value_or(isChannelWiseType(type));
  }
  bool checkName(std::string_view name, SourceRange at) {
    std::string why;
    if (checkLayerName(opts_.kind, name, why))
      return true;
    error(DiagID::err_amct_layer_name, at, {std::string(name), why});
    return false;
  }
  // A type selector AMCT can carry in skip_layer_types / override_layer_types: one it quantizes
  // (AMCT refuses any other: 'Layer type <type> does not support quantize.').
  bool typeEntryAllowed(const ir::Selector &s, ir::Tier tier);

  // Step 3.
  Recipe lowerRecipe(const LayerRecipe &r, std::string_view type) const;
  AmctDocument lower(const Plan &plan) const;
  // Step 4.
  bool verify(const std::string &file);
};

bool AmctWriter::run(std::string &text) {
  if (!parseOptions())
    return false;
  Plan plan;
  if (!planGlobal(plan))
    return false; // the target's settings are wrong for every layer: report them once
  if (spec_.resolution.done)
    planFromResolution(plan);
  else
    planFromRules(plan);
  if (!ok_ || diags_.hasErrors() || !normalize(plan))
    return false;
  std::string file =
      "# AMCT " + std::string(qat() ? "QAT/prune (AMCTRetrainConfig)" : "PTQ (AMCTConfig)") +
      ", AMCT " +
      (opts_.versionText == "master"
           ? std::string("master")
           : std::to_string(opts_.version.major) + "." + std::to_string(opts_.version.minor)) +
      (opts_.framework == "onnx" ? ", ONNX" : ", PyTorch") + ". Generated by qcc; do not edit.\n";
  file += printAmctConfig(lower(plan));
  if (!verify(file))
    return false;
  text = std::move(file);
  return true;
}

// ---- Step 1: options -------------------------------------------------------------------------

void AmctWriter::parseVersion(const ir::Option &o) {
  std::string v;
  if (!word(o, v) && !(o.values.size() == 1 && (v = o.values[0].text, true)))
    return;
  auto parsed = amct::parseVersion(v);
  if (!parsed) {
    error(DiagID::err_amct_unknown_version, o.values.empty() ? o.range : o.values[0].range,
          {v, knownVersionList()});
    return;
  }
  opts_.version = *parsed;
  opts_.versionText = v;
}

void AmctWriter::parsePrune(const ir::Option &o) {
  if (!onlyFor(o, ConfigKind::QAT))
    return;
  AmctOptions::Prune &prune = opts_.prune;
  prune.present = true;
  prune.type = "filter";
  bool haveRatio = false;
  for (const ir::Option &c : o.children) {
    if (c.key == "type") {
      if (word(c, prune.type) && prune.type != "filter" && prune.type != "n_out_of_m")
        error(DiagID::err_amct_option_value, c.values[0].range,
              {prune.type, "prune type", "use filter or n_out_of_m"});
    } else if (c.key == "ratio") {
      if (number(c, prune.ratio))
        haveRatio = true;
    } else if (c.key == "ascend_optimized") {
      bool b;
      if (boolean(c, b))
        prune.ascendOptimized = b;
    } else if (c.key == "update_freq") {
      uint32_t u;
      if (integer(c, u))
        prune.updateFreq = u;
    } else if ((c.key == "skip_layers" || c.key == "skip_types") && !c.values.empty() &&
               c.children.empty()) {
      for (const ir::Value &v : c.values)
        (c.key == "skip_layers" ? prune.skipLayers : prune.skipTypes).push_back(v.text);
    } else {
      error(DiagID::err_amct_option_value, c.keyRange.valid() ? c.keyRange : c.range,
            {c.key, "prune",
             "known: type, ratio, ascend_optimized, update_freq, skip_layers, skip_types"});
    }
  }
  std::string msg;
  if (prune.type == "filter") {
    if (!haveRatio)
      error(DiagID::err_amct_value, o.range,
            {"prune ratio", "prune",
             "prune_ratio is required for balanced_l2_norm_filter_prune, please add it."});
    else if (!checkPruneRatio(prune.ratio, "(global)", msg))
      error(DiagID::err_amct_value, o.range, {"prune ratio", "prune", msg});
  }
}

bool AmctWriter::parseOptions() {
  opts_.kind = target_.variant == "qat" ? ConfigKind::QAT : ConfigKind::PTQ;
  for (const ir::Option &o : target_.options) {
    const std::string &k = o.key;
    if (k == "version") {
      parseVersion(o);
    } else if (k == "framework") {
      std::string v;
      if (word(o, v) && v != "pytorch" && v != "onnx")
        error(DiagID::err_amct_framework, o.values[0].range, {v});
      else if (!v.empty())
        opts_.framework = v;
    } else if (k == "hardware") {
      word(o, opts_.hardware);
    } else if (k == "batch_num") {
      double d;
      if (!number(o, d))
        continue;
      std::string msg;
      if (!o.values[0].isInteger || !checkBatchNum(opts_.kind, static_cast<int64_t>(d), msg)) {
        error(DiagID::err_amct_value, o.values[0].range,
              {"batch_num", o.values[0].text, msg.empty() ? "an integer is required" : msg});
        continue;
      }
      opts_.batchNum = static_cast<uint32_t>(d);
    } else if (k == "activation_offset" || k == "do_fusion") {
      bool b;
      if (onlyFor(o, ConfigKind::PTQ) && boolean(o, b))
        (k == "do_fusion" ? opts_.doFusion : opts_.activationOffset) = b;
    } else if (k == "skip_fusion_layers") {
      if (onlyFor(o, ConfigKind::PTQ))
        for (const ir::Value &v : o.values)
          opts_.skipFusion.emplace_back(v.text, v.range);
    } else if (k == "fakequant_precision_mode") {
      std::string v;
      if (!word(o, v))
        continue;
      if (v != "FORCE_FP16_QUANT")
        error(DiagID::err_amct_option_value, o.values[0].range,
              {v, k, "the only value is FORCE_FP16_QUANT"});
      else
        opts_.forceFp16 = true;
    } else if (k == "prune") {
      parsePrune(o);
    }
  }
  // The recipe options (act_algo, clip_max, num_of_bins, ...) once, into the base every recipe
  // starts from.
  std::optional<std::string> actAlgo, wtsAlgo;
  applyRecipeOptions(target_.options, opts_.base, actAlgo, wtsAlgo, "(global)");
  opts_.actAlgo = actAlgo.value_or("");
  opts_.wtsAlgo = wtsAlgo.value_or("");
  // `hardware` may come after `prune`: check the pair in order-independent form.
  std::string msg;
  if (opts_.prune.present && opts_.prune.type == "n_out_of_m" &&
      !checkNOutOfMHardware(opts_.hardware, msg))
    error(DiagID::err_amct_sparsity_hardware, target_.option("prune")->range, {opts_.hardware});
  return ok_;
}

void AmctWriter::applyRecipeOptions(const std::vector<ir::Option> &opts, LayerRecipe &r,
                                    std::optional<std::string> &actAlgo,
                                    std::optional<std::string> &wtsAlgo, const std::string &layer) {
  for (const ir::Option &o : opts) {
    const std::string &k = o.key;
    if (k == "act_algo" || k == "weight_algo") {
      bool weight = k == "weight_algo";
      std::string v;
      if (!word(o, v))
        continue;
      if (algorithmOf(v, weight, opts_.kind).empty())
        error(DiagID::err_amct_method, o.values[0].range,
              {modeName(), weight ? "weight" : "activation", v, layer,
               algorithmList(weight, opts_.kind)});
      else
        (weight ? wtsAlgo : actAlgo) = v;
    } else if (k == "channel_wise") {
      bool b;
      if (boolean(o, b))
        r.channelWise = b;
    } else if (k == "clip_max" || k == "clip_min") {
      double d;
      if (onlyFor(o, ConfigKind::QAT) && number(o, d))
        (k == "clip_max" ? r.clipMax : r.clipMin) = d;
    } else if (k == "fixed_min") {
      bool b;
      if (onlyFor(o, ConfigKind::QAT) && boolean(o, b))
        r.fixedMin = b;
    } else if (k == "num_of_bins") {
      uint32_t u;
      std::string msg;
      if (!onlyFor(o, ConfigKind::PTQ) || !integer(o, u))
        continue;
      if (!checkNumOfBins(u, layer, msg))
        error(DiagID::err_amct_value, o.values[0].range, {"num_of_bins", layer, msg});
      else
        r.numOfBins = u;
    } else if (k == "dmq_balancer") {
      double d;
      std::string msg;
      if (!onlyFor(o, ConfigKind::PTQ) || !number(o, d))
        continue;
      if (!checkDmqStrength(d, layer, msg))
        error(DiagID::err_amct_value, o.values[0].range, {"dmq_balancer", layer, msg});
      else
        r.dmq = d;
    } else if (k == "quant_bits") {
      uint32_t u;
      if (onlyFor(o, ConfigKind::PTQ) && integer(o, u))
        r.quantBits = u;
    }
  }
}

// ---- Step 2: plan ----------------------------------------------------------------------------

void AmctWriter::chooseAlgorithms(const RoleView &w, const RoleView &a,
                                  const std::optional<std::string> &ruleAct,
                                  const std::optional<std::string> &ruleWts,
                                  const std::string &shown, SourceRange at, LayerRecipe &r) {
  // The rule's own `amct { act_algo }` wins, then the method's AMCT word; the target's act_algo /
  // weight_algo only stands in for methods AMCT has no word for (amct::chooseAlgorithm).
  // A rule's choice was checked when its block was read (applyRecipeOptions).
  auto one = [&](const RoleView &v, const std::optional<std::string> &rule, bool weight,
                 std::string &out) {
    std::string chosen =
        chooseAlgorithm(v.method.value_or(""), rule.value_or(""),
                        weight ? opts_.wtsAlgo : opts_.actAlgo, weight, opts_.kind);
    if (chosen.empty()) {
      error(DiagID::err_amct_method, v.at.valid() ? v.at : at,
            {modeName(), weight ? "weight" : "activation", *v.method, shown,
             algorithmList(weight, opts_.kind) + (weight ? " (or set weight_algo in the target)"
                                                         : " (or set act_algo in the target)")});
      return;
    }
    out = chosen;
  };
  one(w, ruleWts, true, r.wtsAlgo);
  one(a, ruleAct, false, r.actAlgo);
}

bool AmctWriter::buildRecipe(ir::Tier tier, int tierRank, const RoleView &w, const RoleView &a,
                             const std::vector<const ir::Option *> &blocks, const LayerFacts &facts,
                             SourceRange at, LayerRecipe &r) {
  bool before = ok_;
  ok_ = true;
  const std::string &layer = facts.layer, &type = facts.type;
  std::string shown = layer.empty() ? "(global)" : layer;
  r = opts_.base;
  std::optional<std::string> ruleAct, ruleWts;
  for (const ir::Option *b : blocks)
    if (b->key == "amct")
      applyRecipeOptions(b->children, r, ruleAct, ruleWts, shown);

  // Data types: an explicit dtype of the role wins over the tier if written as specifically.
  auto dtypeOf = [&](const RoleView &v, bool weight, DataType &out) {
    std::optional<DataType> t =
        intendedType(tier, tierRank, v.dtype.value_or(""), v.dtypeRank, weight);
    if (t)
      out = *t;
    else
      error(DiagID::err_amct_option_value, v.at.valid() ? v.at : at,
            {*v.dtype, weight ? "weight dtype" : "act dtype",
             weight ? "AMCT weights are int8 or int4" : "AMCT activations are int8 or int16"});
  };
  dtypeOf(w, true, r.weight);
  dtypeOf(a, false, r.act);
  chooseAlgorithms(w, a, ruleAct, ruleWts, shown, at, r);

  // Granularity: per_channel / per_tensor; unset = AMCT's per-type default.
  if (w.scope && !r.channelWise) {
    if (*w.scope == "per_channel")
      r.channelWise = true;
    else if (*w.scope == "per_tensor")
      r.channelWise = false;
    else
      error(DiagID::err_amct_option_value, w.at.valid() ? w.at : at,
            {*w.scope, "weight scope", "AMCT weights are per_channel or per_tensor"});
  }
  if (!qat() && a.symmetric)
    r.asymmetric = !*a.symmetric;
  if (!qat() && a.scope && *a.scope != "per_tensor")
    error(DiagID::err_amct_option_value, a.at.valid() ? a.at : at,
          {*a.scope, "act scope", "AMCT activations are per_tensor"});

  std::string msg;
  if (!type.empty()) {
    if (r.channelWise == true && !checkChannelWise(opts_.kind, type, layer, msg)) {
      if (facts.fromDefaults)
        r.channelWise = std::nullopt; // reported once per type by the caller
      else
        error(DiagID::err_amct_channel_wise, w.at.valid() ? w.at : at, {shown, type, msg});
    }
    r.channelWise = effectiveChannelWise(r.channelWise, type);
    if (isSymmetricOnlyType(type) && r.asymmetric == true)
      error(DiagID::err_amct_value, at,
            {"asymmetric activations", shown,
             "Layer " + layer + " can only set asymmetric be False "});
  }
  checkRecipe(r, facts, a, at);
  bool good = ok_;
  ok_ = before && good;
  return good;
}

void AmctWriter::checkRecipe(const LayerRecipe &r, const LayerFacts &facts, const RoleView &a,
                             SourceRange at) {
  const std::string &layer = facts.layer, &type = facts.type;
  std::string shown = layer.empty() ? "(global)" : layer;
  std::string msg;
  if (qat()) {
    if (!checkQatPair(r.act, r.weight, opts_.version, msg))
      error(DiagID::err_amct_qat_pair, at,
            {shown, dataTypeName(r.act), dataTypeName(r.weight), opts_.versionText, msg});
    if (!checkClip(r.clipMax, r.clipMin, shown, msg))
      error(DiagID::err_amct_clip,
            layer.empty() ? optionAt(r.clipMin ? "clip_min" : "clip_max", at) : at, {shown, msg});
    return;
  }
  if (r.act == DataType::Int4)
    error(DiagID::err_amct_option_value, a.at.valid() ? a.at : at,
          {"int4", "act dtype", "AMCT PTQ activations are int8 or int16"});
  if (r.act == DataType::Int16 && !checkPtqInt16(opts_.version, msg))
    error(DiagID::err_amct_ptq_int16_version, at, {shown, opts_.versionText, msg});
  if (r.act == DataType::Int16 && !type.empty() && !checkInt16Type(type, layer, opts_.version, msg))
    error(DiagID::err_amct_value, at, {"INT16 activations", shown, msg});
  if (r.act == DataType::Int16 && facts.noBias && !checkInt16Bias(type, false, layer, msg))
    error(DiagID::err_amct_int16_bias, at, {shown, msg});
  uint32_t bits = r.quantBits.value_or(r.weight == DataType::Int4 ? 4 : 8);
  if (r.quantBits && r.weight == DataType::Int4 && *r.quantBits != 4)
    error(DiagID::err_amct_option_value, at,
          {std::to_string(*r.quantBits), "quant_bits", "the weight dtype is int4"});
  if (!checkQuantBits(bits, type, layer, msg))
    error(DiagID::err_amct_value, at, {"quant_bits", shown, msg});
  if (r.wtsAlgo == "ada" && !type.empty() && !isAdaType(type))
    error(DiagID::err_amct_value, at,
          {"weight algorithm", shown, "ada_quantizable not support for " + type + " layer"});
  if (r.dmq && !type.empty() && !isDmqType(type))
    error(DiagID::err_amct_value, at,
          {"dmq_balancer", shown, "dmq_balancer not support for " + layer + " layer"});
  if (r.actAlgo != "hfmg" && r.numOfBins)
    error(DiagID::err_amct_option_variant, at, {"num_of_bins", "act_algo hfmg"});
}

bool AmctWriter::planGlobal(Plan &plan) {
  RoleView gw = viewOf(spec_.defaults.weight, nullptr), ga = viewOf(spec_.defaults.act, nullptr);
  ir::Tier defaultTier = spec_.defaultTier();
  SourceRange defaultsAt = spec_.defaultsRange.valid() ? spec_.defaultsRange : target_.range;
  if (defaultTier == ir::Tier::Float)
    defaultTier = ir::Tier::Int8; // every layer is skipped; the recipe is never used
  LayerFacts facts;
  facts.fromDefaults = true;
  return buildRecipe(defaultTier, 1, gw, ga, {}, facts, defaultsAt, plan.global);
}

void AmctWriter::planFromResolution(Plan &plan) {
  const auto &mods = spec_.inventory.modules;
  Collected c;
  c.recipeOf.assign(mods.size(), 0);
  // Module types, interned: what AMCT does with a type is looked up once per type.
  std::unordered_map<std::string_view, uint32_t> typeIds;
  uint32_t lastType =
      UINT32_MAX; // inventories list a block's modules together: most lookups repeat
  auto typeIdOf = [&](std::string_view t) {
    if (lastType != UINT32_MAX && c.types[lastType].name == t)
      return lastType;
    auto [it, fresh] = typeIds.try_emplace(t, static_cast<uint32_t>(c.types.size()));
    if (fresh) {
      TypeInfo ti;
      ti.name = t;
      ti.quantizable = isQuantizableType(t, opts_.kind, opts_.version);
      ti.channelWise = isChannelWiseType(t);
      c.types.push_back(std::move(ti));
    }
    return lastType = it->second;
  };
  // Distinct recipes, interned into plan.recipes.
  std::map<LayerRecipe, uint32_t> recipeIds;
  auto intern = [&](const LayerRecipe &r) {
    auto [it, fresh] = recipeIds.try_emplace(r, static_cast<uint32_t>(plan.recipes.size()));
    if (fresh)
      plan.recipes.push_back(r);
    return it->second;
  };
  // buildRecipe once per key that built without error (-1: it reported one, so every module
  // with that key is built again and gets its own diagnostic, exactly as without the memo).
  std::unordered_map<RecipeKey, int64_t, RecipeKeyHash> memo;
  SourceRange defaultsAt = spec_.defaultsRange.valid() ? spec_.defaultsRange : target_.range;
  for (size_t i = 0; i < mods.size(); ++i) {
    const ir::Module &m = mods[i];
    const ir::ResolvedModule &rm = spec_.resolution.modules[i];
    SourceRange at = rm.tier.from.range().valid() ? rm.tier.from.range() : target_.range;
    uint32_t typeId = typeIdOf(m.type);
    TypeInfo &ti = c.types[typeId];
    if (!m.type.empty() && !ti.quantizable) {
      bool ruled = rm.tier.from.source != ir::Decision::BuiltIn &&
                   rm.tier.from.source != ir::Decision::Default;
      if (ruled && rm.tier.value != ir::Tier::Float && !ti.warnedNotQuantizable) {
        ti.warnedNotQuantizable = true;
        diags_.report(
            DiagID::warn_amct_not_quantizable, at,
            {m.name, m.type, modeName() + " " + opts_.versionText, ir::tierName(rm.tier.value)});
      }
      continue;
    }
    if (rm.tier.value == ir::Tier::Float) {
      if (checkName(m.name, at))
        plan.skips.emplace_back(m.name, at);
      ti.hasSkips = true;
      continue;
    }
    LayerFacts facts;
    facts.fromDefaults = rm.weight.scope.from.source == ir::Decision::Default ||
                         rm.weight.scope.from.source == ir::Decision::BuiltIn;
    facts.noBias = m.biasKnown && !m.hasBias && pytorchEquivalent(m.type) == "Linear";
    auto [slot, fresh] = memo.try_emplace(keyOf(rm, typeId, facts.fromDefaults, facts.noBias), -1);
    int64_t id = slot->second;
    if (id < 0) {
      RoleView w = viewOf(rm.weight), a = viewOf(rm.act);
      if (rm.weight.scope.from.range().valid())
        w.at = rm.weight.scope.from.range();
      facts.layer = m.name;
      facts.type = m.type;
      LayerRecipe r;
      if (!buildRecipe(rm.tier.value, decisionRank(rm.tier.from.source), w, a, rm.targetOptions,
                       facts, at, r))
        continue;
      id = intern(r);
      if (fresh)
        slot->second = id;
    }
    if (facts.fromDefaults && rm.weight.scope.value == "per_channel" && !m.type.empty() &&
        !ti.channelWise && !ti.cwWarned) {
      ti.cwWarned = true;
      diags_.report(DiagID::warn_amct_channel_wise_default,
                    rm.weight.scope.from.range().valid() ? rm.weight.scope.from.range()
                                                         : defaultsAt,
                    {m.type, m.name});
    }
    c.recipeOf[i] = static_cast<uint32_t>(id);
    ti.members.push_back(static_cast<uint32_t>(i));
  }
  chooseEntries(plan, c);
}

void AmctWriter::chooseEntries(Plan &plan, const Collected &c) {
  // Per type, in byte order of type names: the most common recipe (ties: the smallest) may
  // become the type's override; every member whose recipe still differs gets a name entry.
  const auto &mods = spec_.inventory.modules;
  std::vector<uint32_t> order;
  for (uint32_t t = 0; t < c.types.size(); ++t)
    if (!c.types[t].members.empty())
      order.push_back(t);
  std::sort(order.begin(), order.end(),
            [&](uint32_t a, uint32_t b) { return c.types[a].name < c.types[b].name; });
  std::vector<size_t> count(plan.recipes.size(), 0);
  std::vector<char> differs(plan.recipes.size(), 0);
  std::vector<uint32_t> used;
  for (uint32_t t : order) {
    const TypeInfo &ti = c.types[t];
    LayerRecipe g = globalFor(plan.global, ti.name);
    used.clear();
    for (uint32_t i : ti.members)
      if (count[c.recipeOf[i]]++ == 0)
        used.push_back(c.recipeOf[i]);
    const LayerRecipe *best = nullptr;
    size_t bestCount = 0;
    for (uint32_t id : used)
      if (count[id] > bestCount || (count[id] == bestCount && plan.recipes[id] < *best)) {
        best = &plan.recipes[id];
        bestCount = count[id];
      }
    LayerRecipe base = g;
    // A type override needs a known type; in QAT it would re-enable the type's skipped layers.
    if (best && !(*best == g) && !ti.name.empty() && !(qat() && ti.hasSkips)) {
      plan.typeEntries[std::string(ti.name)] = *best;
      base = *best;
    }
    for (uint32_t id : used) {
      differs[id] = !(plan.recipes[id] == base);
      count[id] = 0;
    }
    for (uint32_t i : ti.members)
      if (differs[c.recipeOf[i]]) {
        const ir::ResolvedModule &rm = spec_.resolution.modules[i];
        SourceRange at = rm.tier.from.range().valid() ? rm.tier.from.range() : target_.range;
        if (checkName(mods[i].name, at))
          plan.nameEntries.push_back({mods[i].name, ti.name, &plan.recipes[c.recipeOf[i]], at});
      }
  }
}

bool AmctWriter::typeEntryAllowed(const ir::Selector &s, ir::Tier tier) {
  if (isQuantizableType(s.text, opts_.kind, opts_.version))
    return true;
  // AMCT never quantizes the type, so a float rule (`protect type Embedding`) already holds;
  // any other tier cannot reach it.
  if (tier != ir::Tier::Float)
    diags_.report(DiagID::warn_amct_type_not_quantizable, s.range,
                  {s.text, modeName() + " " + opts_.versionText, ir::tierName(tier)});
  return false;
}

void AmctWriter::planFromRules(Plan &plan) {
  // No inventory: the rules as written; exact names only.
  ir::Tier defaultTier = spec_.defaultTier();
  if (defaultTier == ir::Tier::Float)
    defaultTier = ir::Tier::Int8;
  auto needNames = [&](const ir::Selector &s) {
    error(DiagID::err_emit_needs_inventory, s.range, {"AMCT", s.text});
  };
  auto addSkip = [&](const ir::Selector &s) {
    if (s.kind == ir::Selector::Type) {
      if (typeEntryAllowed(s, ir::Tier::Float))
        plan.skipTypes.emplace_back(s.text, s.range);
      return;
    }
    auto name = literalName(s);
    if (!name)
      return needNames(s);
    if (checkName(*name, s.range))
      plan.skips.emplace_back(plan.keep(*name), s.range);
  };
  for (const ir::Protect &p : spec_.protects)
    addSkip(p.selector);
  for (const ir::Selector &s : spec_.tune.excludes)
    addSkip(s);
  std::set<std::string_view> skipped;
  for (auto &s : plan.skips)
    skipped.insert(s.first);
  RoleView gw = viewOf(spec_.defaults.weight, nullptr), ga = viewOf(spec_.defaults.act, nullptr);
  for (const ir::Override &o : spec_.overrides) {
    ir::Tier tier = o.settings.tier.value_or(defaultTier);
    std::vector<const ir::Option *> blocks;
    for (const ir::Option &b : o.settings.targetOptions)
      blocks.push_back(&b);
    int rank = o.level == ir::Override::Type ? 2 : 3;
    RoleView w = viewOf(spec_.defaults.weight, &o.settings.weight, rank),
             a = viewOf(spec_.defaults.act, &o.settings.act, rank);
    for (const ir::Selector &s : o.selectors) {
      LayerFacts facts;
      if (o.level == ir::Override::Type) {
        if (qat() && !plan.skips.empty()) {
          // It would re-enable skipped layers of this type; only an inventory can tell which.
          error(DiagID::err_amct_qat_type_reenables, s.range, {s.text});
          continue;
        }
        if (!typeEntryAllowed(s, tier))
          continue;
        if (tier == ir::Tier::Float) {
          plan.skipTypes.emplace_back(s.text, s.range);
          continue;
        }
        facts.type = s.text;
        LayerRecipe r;
        if (buildRecipe(tier, o.settings.tier ? rank : 1, w, a, blocks, facts, o.subjectRange, r))
          plan.typeEntries[s.text] = r;
        continue;
      }
      auto name = literalName(s);
      if (!name) {
        needNames(s);
        continue;
      }
      if (skipped.count(*name))
        continue; // protected: float wins, and (QAT) an override would re-enable it
      if (tier == ir::Tier::Float) {
        if (checkName(*name, s.range))
          plan.skips.emplace_back(plan.keep(*name), s.range);
        continue;
      }
      facts.layer = *name;
      LayerRecipe r;
      if (buildRecipe(tier, o.settings.tier ? rank : 1, w, a, blocks, facts, o.subjectRange, r) &&
          checkName(*name, s.range))
        plan.nameEntries.push_back(
            {plan.keep(*name), "", &plan.recipes.emplace_back(r), o.subjectRange});
    }
  }
  for (const ir::TuningRaise &raise : spec_.tune.raises)
    for (const ir::Selector &s : raise.selectors) {
      auto name = literalName(s);
      if (!name) {
        needNames(s);
        continue;
      }
      if (raise.tier == ir::Tier::Float) {
        if (checkName(*name, s.range))
          plan.skips.emplace_back(plan.keep(*name), s.range);
        continue;
      }
      LayerFacts facts;
      facts.layer = *name;
      LayerRecipe r;
      if (buildRecipe(raise.tier, 4, gw, ga, {}, facts, s.range, r) && checkName(*name, s.range)) {
        plan.nameEntries.erase(std::remove_if(plan.nameEntries.begin(), plan.nameEntries.end(),
                                              [&](const NameEntry &e) { return e.name == *name; }),
                               plan.nameEntries.end());
        plan.nameEntries.push_back({plan.keep(*name), "", &plan.recipes.emplace_back(r), s.range});
      }
    }
}

bool AmctWriter::normalize(Plan &plan) {
  // Deterministic order: byte order of names and types; duplicates (one name from two rules)
  // collapse to one entry.
  auto byName = [](const auto &a, const auto &b) { return a.first < b.first; };
  auto sameName = [](const auto &a, const auto &b) { return a.first == b.first; };
  for (auto *list : {&plan.skips, &plan.skipTypes}) {
    std::stable_sort(list->begin(), list->end(), byName);
    list->erase(std::unique(list->begin(), list->end(), sameName), list->end());
  }
  auto &names = plan.nameEntries;
  std::stable_sort(names.begin(), names.end(),
                   [](const NameEntry &a, const NameEntry &b) { return a.name < b.name; });
  for (size_t i = 1; i < names.size(); ++i)
    if (names[i].name == names[i - 1].name && !(*names[i].recipe == *names[i - 1].recipe)) {
      error(DiagID::err_amct_check, names[i].at,
            {"amct-duplicate",
             repeatedItemsMessage(opts_.kind,
                                  qat() ? "retrain_override_layers" : "override_layer_configs",
                                  {std::string(names[i].name)})});
      return false;
    }
  names.erase(std::unique(names.begin(), names.end(),
                          [](const NameEntry &a, const NameEntry &b) { return a.name == b.name; }),
              names.end());
  return true;
}

// ---- Step 3: lower ---------------------------------------------------------------------------

Recipe AmctWriter::lowerRecipe(const LayerRecipe &r, std::string_view type) const {
  Recipe d;
  d.present = true;
  // channel_wise is written only where it differs from AMCT's per-type default; the global
  // recipe (no type) never writes `true` (absent = true on channel-wise types, false elsewhere).
  d.channelWise = r.channelWise;
  if (!type.empty() && d.channelWise && *d.channelWise == isChannelWiseType(type))
    d.channelWise = std::nullopt;
  if (type.empty() && d.channelWise == true)
    d.channelWise = std::nullopt;
  if (qat()) {
    d.actAlgo = "ulq";
    if (r.clipMax && r.clipMin) {
      d.hasClip = true;
      d.clipMax = r.clipMax;
      d.clipMin = r.clipMin;
    }
    d.fixedMin = r.fixedMin;
    d.actType = r.act;
    d.wtsAlgo = r.wtsAlgo == "ulq" ? "ulq" : "arq";
    d.weightType = r.weight;
    return d;
  }
  uint32_t bits = r.quantBits.value_or(r.weight == DataType::Int4 ? 4 : 8);
  d.wtsAlgo = r.wtsAlgo == "ada" ? "ada" : "arq";
  if (d.wtsAlgo == "arq" && bits != 8)
    d.quantBits = bits;
  d.actAlgo = r.actAlgo == "hfmg" ? "hfmg" : "ifmr";
  if (d.actAlgo == "hfmg")
    d.numOfBins = r.numOfBins;
  d.asymmetric = r.asymmetric;
  if (r.act == DataType::Int16)
    d.actType = DataType::Int16;
  if (r.dmq) {
    d.hasDmq = true;
    d.dmqStrength = r.dmq;
  }
  return d;
}

AmctDocument AmctWriter::lower(const Plan &plan) const {
  AmctDocument doc;
  doc.kind = opts_.kind;
  doc.batchNum = opts_.batchNum;
  doc.activationOffset = opts_.activationOffset;
  doc.doFusion = opts_.doFusion;
  doc.forceFp16 = opts_.forceFp16;
  for (auto &s : plan.skips)
    doc.skipLayers.push_back(Entry{std::string(s.first)});
  for (auto &s : plan.skipTypes)
    doc.skipLayerTypes.push_back(Entry{std::string(s.first)});
  for (auto &s : opts_.skipFusion)
    doc.skipFusionLayers.push_back(Entry{s.first});
  doc.global = lowerRecipe(plan.global, "");
  const AmctOptions::Prune &prune = opts_.prune;
  if (prune.present) {
    doc.global.hasPrune = true;
    doc.global.pruner = prune.type;
    doc.global.pruneRatio = prune.ratio;
    doc.global.ascendOptimized = prune.ascendOptimized;
    doc.global.updateFreq = prune.updateFreq;
    for (const std::string &n : prune.skipLayers)
      doc.pruneSkipLayers.push_back(Entry{n});
    for (const std::string &t : prune.skipTypes)
      doc.pruneSkipTypes.push_back(Entry{t});
  }
  for (auto &[type, r] : plan.typeEntries)
    doc.typeOverrides.push_back(Override{type, lowerRecipe(r, type)});
  for (const NameEntry &e : plan.nameEntries)
    doc.nameOverrides.push_back(Override{std::string(e.name), lowerRecipe(*e.recipe, e.type)});
  return doc;
}

// ---- Step 4: verify --------------------------------------------------------------------------

bool AmctWriter::verify(const std::string &file) {
  // Round trip: the file (its one comment line, then the printed body) must parse back strictly
  // as the same message kind. Parsed with locations, as the read-back parses it: the document is
  // handed to the read-back of these bytes (rememberParsed) instead of parsed a second time.
  AmctDocument doc;
  std::vector<ParseError> errors;
  if (!parseAmctConfigAs(file, opts_.kind, doc, errors)) {
    // Positions in the body, as printed (the comment line is not counted).
    uint32_t line = errors.empty() || errors[0].line == 0 ? 0 : errors[0].line - 1;
    error(DiagID::err_amct_roundtrip, target_.range,
          {errors.empty() ? "unknown error"
                          : std::to_string(line) + ":" + std::to_string(errors[0].col) + ": " +
                                errors[0].message});
    return false;
  }
  // AMCT's document rules on exactly what is about to be written.
  CheckOptions co;
  co.version = opts_.version;
  co.hardware = opts_.hardware;
  co.pytorchTypes = true;
  if (spec_.resolution.done) {
    co.layerTypes.reserve(spec_.inventory.modules.size());
    // The inventory's index has one entry per distinct name (readers reject repeats).
    co.uniqueLayerNames = spec_.inventory.index.size() == spec_.inventory.modules.size();
    for (const ir::Module &m : spec_.inventory.modules)
      co.layerTypes.emplace_back(m.name, m.type);
  }
  for (const Finding &f : checkDocument(doc, co)) {
    if (f.level == Finding::Error)
      error(DiagID::err_amct_check, target_.range, {f.rule, f.message});
    else
      diags_.report(DiagID::warn_amct_check, target_.range, {f.rule, f.message});
  }
  if (ok_)
    rememberParsed(file, opts_.kind, std::move(doc));
  return ok_;
}

} // namespace

bool AmctEmitter::emit(const ir::Spec &spec, const ir::Target &target, OutputContext &out,
                       DiagnosticEngine &diags) {
  if (spec.resolution.done && ir::namesOnnxNodes(spec, target)) {
    // Two graphs, framework onnx: the layers are ONNX nodes (AmctOnnxNames.h).
    ir::Spec lowered;
    if (!lowerToOnnxNames(spec, diags, lowered))
      return false;
    AmctWriter w(lowered, target, diags);
    return w.run(out.buffer());
  }
  AmctWriter w(spec, target, diags);
  return w.run(out.buffer());
}

} // namespace qspec::emit
