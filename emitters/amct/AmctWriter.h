// The AMCT emitter's writer (AmctEmitter.cpp has the four steps it takes): its options, plan and
// recipe types, shared by AmctEmitter.cpp (steps 1, 3 and 4) and AmctPlan.cpp (step 2). Private to
// emitters/amct/.
#pragma once

#include "ir/Diagnostics.h"
#include "ir/IR.h"
#include "passes/SymbolicResolution.h"
#include "vendors/amct/AmctConfig.h"
#include "vendors/amct/AmctIntent.h"
#include "vendors/amct/AmctRules.h"

#include <cmath>
#include <deque>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <tuple>
#include <vector>

namespace qspec::emit::amctwriter {

using namespace qspec::amct;

// A prune recipe (the target's `prune { }`, or a rule's own in its `amct { }` block).
struct PruneSetting {
  std::string type; // filter | n_out_of_m
  double ratio = 0;
  std::optional<bool> ascendOptimized;
  std::optional<uint32_t> updateFreq;
  SourceRange at; // where the spec writes it (not compared)
  auto tie() const { return std::tie(type, ratio, ascendOptimized, updateFreq); }
  bool operator==(const PruneSetting &o) const { return tie() == o.tie(); }
  bool operator<(const PruneSetting &o) const { return tie() < o.tie(); }
};

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
  // IFMR (PTQ): search range and step, max percentile; unset = AMCT's 0.7, 1.3, 0.01, 0.999999.
  std::optional<double> searchStart, searchEnd, searchStep, maxPercentile;
  // QAT: the rule's own prune (the entry's prune_config); unset = the target's prune applies.
  std::optional<PruneSetting> prune;

  auto tie() const {
    return std::tie(act, weight, quantBits, channelWise, asymmetric, actAlgo, wtsAlgo, clipMax,
                    clipMin, fixedMin, numOfBins, dmq, searchStart, searchEnd, searchStep,
                    maxPercentile, prune);
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
  struct Prune : PruneSetting {
    bool present = false;
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
  // Float layers (names; without an inventory also types) whose rule gives them a prune: in a
  // prune-only file (nothing quantized) entries with only that prune_config.
  std::vector<std::pair<std::string_view, PruneSetting>> pruneOnlyNames, pruneOnlyTypes;
  std::string_view keep(std::string s) { return ownedNames.emplace_back(std::move(s)); }
};

using ir::literalName;

// The modules of the inventory by type, as planFromResolution collects them.
struct TypeInfo {
  std::string_view name;
  bool quantizable = false, channelWise = false;
  bool hasSkips = false, cwWarned = false;
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
  bool anyRulePrune_ = false; // some rule has its own prune (planning saw it)

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
  // Reads a `prune { ... }` block (the target's, or a rule's: no skip lists there) into `p`.
  bool parsePruneBlock(const ir::Option &o, PruneSetting &p, std::vector<std::string> *skipLayers,
                       std::vector<std::string> *skipTypes, const std::string &layer);
  // A rule's own `amct { prune { ... } }` (the last one), parsed; unset when none.
  std::optional<PruneSetting> rulePrune(const std::vector<const ir::Option *> &blocks,
                                        const std::string &layer);
  // Whether the file is AMCT's prune-only configuration (QAT, something prunes, nothing is
  // quantized).
  bool pruneOnly(const Plan &plan) const;
  // Translation validation of the prune: AMCT's prune reading of `doc` on every module against
  // the spec's (the rule's own prune ▸ the target's; none on a skipped layer).
  void verifyPrune(const AmctDocument &doc);
  // Applies recipe-level options (the target's, or a rule's `amct { }` block) to `r`.
  void applyRecipeOptions(const std::vector<ir::Option> &opts, LayerRecipe &r,
                          std::optional<std::string> &actAlgo, std::optional<std::string> &wtsAlgo,
                          const std::string &layer);

  // Step 2.
  bool planGlobal(Plan &plan);
  void planFromResolution(Plan &plan);
  void chooseEntries(Plan &plan, const Collected &c);
  void planFromSymbolic(Plan &plan);
  void planTypeEntry(Plan &plan, const passes::SymbolicEntry &e, bool nameSkips);
  void planNameEntry(Plan &plan, const passes::SymbolicEntry &e);
  SourceRange entryAt(const passes::SymbolicEntry &e) const;
  RoleView roleOf(const ir::ResolvedRecipe &r, bool weight) const;
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
  void checkIfmr(const LayerRecipe &r, const std::string &shown, SourceRange at);
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

} // namespace qspec::emit::amctwriter
