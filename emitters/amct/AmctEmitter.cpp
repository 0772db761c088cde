// The AMCT simple-config emitter (docs/emitters/amct.md has the full mapping).
//
// 1. Read the target: `target amct ptq|qat { version; framework; hardware; ... }` picks the root
//    message (AMCTConfig / AMCTRetrainConfig) and the version rules (AmctRules).
// 2. Build the global recipe from `defaults` + the target's recipe options.
// 3. With an inventory: every module AMCT quantizes gets its resolved AMCT recipe; float modules
//    (protected ∪ tuning) go to `skip_layers`. Per type, the most common recipe becomes an
//    `override_layer_types` entry when it differs from the global one (QAT: never for a type
//    with a skipped layer, since a type override re-enables it); every module whose recipe
//    still differs gets an `override_layer_configs` entry with its COMPLETE recipe (AMCT
//    replaces, never merges). Without one: rules as written, literal names only.
// 4. Check every recipe against AMCT's rules at compile time, naming the module.
// 5. Print with TextFormat (field-number order, sorted lists), parse the text back strictly and
//    run AmctRules' document checks on what is about to be written.
#include "emitters/amct/AmctEmitter.h"
#include "emitters/amct/AmctConfig.h"
#include "emitters/amct/AmctProto.h"
#include "emitters/amct/AmctRules.h"

#include <google/protobuf/text_format.h>

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
namespace P = AMCTPytorchProto;

// One layer's AMCT recipe, as AMCT will resolve it. `channelWise` is the effective value for
// the layer's type (or, for a recipe not tied to a type, the value asked for, nullopt = unset).
struct LayerRecipe {
  DataType act = DataType::Int8;
  DataType weight = DataType::Int8;   // QAT dst_type; PTQ: Int4 -> quant_bits 4
  std::optional<uint32_t> quantBits;  // PTQ 6/7 (explicit option)
  std::optional<bool> channelWise;
  std::optional<bool> asymmetric;     // PTQ
  std::string actAlgo = "ifmr";       // ifmr | hfmg | ulq
  std::string wtsAlgo = "arq";        // arq | ada | ulq
  std::optional<double> clipMax, clipMin;
  std::optional<bool> fixedMin;
  std::optional<uint32_t> numOfBins;
  std::optional<double> dmq;

  auto tie() const {
    return std::tie(act, weight, quantBits, channelWise, asymmetric, actAlgo, wtsAlgo, clipMax, clipMin, fixedMin,
                    numOfBins, dmq);
  }
  bool operator==(const LayerRecipe &o) const { return tie() == o.tie(); }
  bool operator<(const LayerRecipe &o) const { return tie() < o.tie(); }
};

// A role's resolved fields, wherever they came from (resolution, or settings as written).
struct RoleView {
  std::optional<std::string> dtype, scope, method;
  std::optional<bool> symmetric;
  SourceRange at;
  int dtypeRank = 0; // how specific the rule that set `dtype` is (see rankOf)
};

// Specificity of a decision: an explicit role dtype beats the tier only when it was written at
// least as specifically as the tier (`defaults { act int8 }` does not undo a name override's
// `tier int16`).
int rankOf(ir::Decision::Source s) {
  switch (s) {
  case ir::Decision::BuiltIn: return 0;
  case ir::Decision::Default: return 1;
  case ir::Decision::TypeOverride: return 2;
  case ir::Decision::NameOverride:
  case ir::Decision::Group: return 3;
  default: return 4;
  }
}

RoleView viewOf(const ir::ResolvedRecipe &r) {
  RoleView v;
  if (!r.dtype.value.empty()) {
    v.dtype = r.dtype.value;
    v.dtypeRank = rankOf(r.dtype.from.source);
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
  int symmetric[2] = {-1, -1};                    // -1 = unset
  const std::vector<const ir::Option *> *blocks = nullptr; // compared by content
  uint32_t type = 0;                              // interned module type
  bool fromDefaults = false;

  bool operator==(const RecipeKey &o) const {
    for (int i = 0; i < 2; ++i)
      if (dtype[i] != o.dtype[i] || scope[i] != o.scope[i] || method[i] != o.method[i] ||
          dtypeRank[i] != o.dtypeRank[i] || symmetric[i] != o.symmetric[i])
        return false;
    return tier == o.tier && tierRank == o.tierRank && type == o.type && fromDefaults == o.fromDefaults &&
           *blocks == *o.blocks;
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
    for (const ir::Option *o : *k.blocks)
      mix(reinterpret_cast<uintptr_t>(o));
    return static_cast<size_t>(h ^ (h >> 32));
  }
};

RecipeKey keyOf(const ir::ResolvedModule &rm, uint32_t type, bool fromDefaults) {
  RecipeKey k;
  k.tier = rm.tier.value;
  k.tierRank = rankOf(rm.tier.from.source);
  const ir::ResolvedRecipe *roles[2] = {&rm.weight, &rm.act};
  for (int i = 0; i < 2; ++i) {
    const ir::ResolvedRecipe &r = *roles[i];
    k.dtype[i] = r.dtype.value.str();
    k.dtypeRank[i] = r.dtype.value.empty() ? 0 : rankOf(r.dtype.from.source);
    k.scope[i] = r.scope.value.str();
    k.method[i] = r.method.value.str();
    k.symmetric[i] = r.symmetric.from.source != ir::Decision::BuiltIn ? r.symmetric.value : -1;
  }
  k.blocks = &rm.targetOptions;
  k.type = type;
  k.fromDefaults = fromDefaults;
  return k;
}

class AmctWriter {
public:
  AmctWriter(const ir::Spec &spec, const ir::Target &target, DiagnosticEngine &diags)
      : spec_(spec), target_(target), diags_(diags) {}

  bool run(std::string &out);

private:
  const ir::Spec &spec_;
  const ir::Target &target_;
  DiagnosticEngine &diags_;
  ConfigKind kind_ = ConfigKind::PTQ;
  Version version_;
  std::string versionText_ = "9.2.0";
  std::string hardware_;
  std::string framework_ = "pytorch";
  bool ok_ = true;

  // Global (target-level) settings.
  std::optional<uint32_t> batchNum_;
  std::optional<bool> activationOffset_, doFusion_;
  bool forceFp16_ = false;
  std::vector<std::pair<std::string, SourceRange>> skipFusion_;
  struct Prune {
    bool present = false;
    std::string type; // filter | n_out_of_m
    double ratio = 0;
    std::optional<bool> ascendOptimized;
    std::optional<uint32_t> updateFreq;
  } prune_;

  bool qat() const { return kind_ == ConfigKind::QAT; }
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
    if (o.values.size() != 1 || o.values[0].kind != ir::Value::Number || !std::isfinite(o.values[0].number)) {
      error(DiagID::err_amct_option_value, o.range, {o.values.empty() ? "" : o.values[0].text, o.key, "expected a number"});
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
      error(DiagID::err_amct_option_value, o.range, {o.values[0].text, o.key, "expected a non-negative integer"});
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
    error(DiagID::err_amct_option_value, o.range, {o.values.empty() ? "" : o.values[0].text, o.key, "expected true or false"});
    return false;
  }
  bool word(const ir::Option &o, std::string &v) {
    if (o.values.size() == 1 && o.values[0].kind != ir::Value::Number) {
      v = o.values[0].text;
      return true;
    }
    error(DiagID::err_amct_option_value, o.range, {o.values.empty() ? "" : o.values[0].text, o.key, "expected one word or string"});
    return false;
  }
  bool onlyFor(const ir::Option &o, ConfigKind k) {
    if (kind_ == k)
      return true;
    error(DiagID::err_amct_option_variant, o.keyRange.valid() ? o.keyRange : o.range, {o.key, configKindName(k)});
    return false;
  }

  bool readTarget();
  // Applies recipe-level options (target block or a rule's `amct { }` block) to `r`.
  void applyRecipeOptions(const std::vector<ir::Option> &opts, LayerRecipe &r, std::optional<std::string> &actAlgoOpt,
                          std::optional<std::string> &wtsAlgoOpt, const std::string &layer);
  // Builds the recipe of one layer (type "" = unknown / the global recipe).
  bool buildRecipe(ir::Tier tier, int tierRank, const RoleView &w, const RoleView &a,
                   const std::vector<const ir::Option *> &blocks, const std::string &layer, const std::string &type,
                   SourceRange at, bool fromDefaults, LayerRecipe &out);
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
  static std::optional<bool> effectiveChannelWise(std::optional<bool> asked, std::string_view type) {
    if (type.empty())
      return asked;
    return asked.value_or(isChannelWiseType(type));
  }

  void writePtq(P::CalibrationConfig &c, const LayerRecipe &r, std::string_view type) const;
  void writeQat(P::RetrainDataQuantConfig &d, P::RetrainWeightQuantConfig &w, const LayerRecipe &r,
                std::string_view type) const;
  bool checkName(std::string_view name, SourceRange at) {
    std::string why;
    if (checkLayerName(kind_, name, why))
      return true;
    error(DiagID::err_amct_layer_name, at, {std::string(name), why});
    return false;
  }
};

bool AmctWriter::readTarget() {
  kind_ = target_.variant == "qat" ? ConfigKind::QAT : ConfigKind::PTQ;
  for (const ir::Option &o : target_.options) {
    const std::string &k = o.key;
    if (k == "version") {
      std::string v;
      if (!word(o, v) && !(o.values.size() == 1 && (v = o.values[0].text, true)))
        continue;
      auto parsed = parseVersion(v);
      if (!parsed) {
        error(DiagID::err_amct_unknown_version, o.values.empty() ? o.range : o.values[0].range, {v, knownVersionList()});
        continue;
      }
      version_ = *parsed;
      versionText_ = v;
    } else if (k == "framework") {
      std::string v;
      if (word(o, v) && v != "pytorch" && v != "onnx")
        error(DiagID::err_amct_framework, o.values[0].range, {v});
      else if (!v.empty())
        framework_ = v;
    } else if (k == "hardware") {
      word(o, hardware_);
    } else if (k == "batch_num") {
      double d;
      if (!number(o, d))
        continue;
      std::string msg;
      if (!o.values[0].isInteger || !checkBatchNum(kind_, static_cast<int64_t>(d), msg)) {
        error(DiagID::err_amct_value, o.values[0].range,
              {"batch_num", o.values[0].text, msg.empty() ? "an integer is required" : msg});
        continue;
      }
      batchNum_ = static_cast<uint32_t>(d);
    } else if (k == "activation_offset") {
      bool b;
      if (onlyFor(o, ConfigKind::PTQ) && boolean(o, b))
        activationOffset_ = b;
    } else if (k == "do_fusion") {
      bool b;
      if (onlyFor(o, ConfigKind::PTQ) && boolean(o, b))
        doFusion_ = b;
    } else if (k == "skip_fusion_layers") {
      if (!onlyFor(o, ConfigKind::PTQ))
        continue;
      for (const ir::Value &v : o.values)
        skipFusion_.emplace_back(v.text, v.range);
    } else if (k == "fakequant_precision_mode") {
      std::string v;
      if (!word(o, v))
        continue;
      if (v != "FORCE_FP16_QUANT")
        error(DiagID::err_amct_option_value, o.values[0].range, {v, k, "the only value is FORCE_FP16_QUANT"});
      else
        forceFp16_ = true;
    } else if (k == "prune") {
      if (!onlyFor(o, ConfigKind::QAT))
        continue;
      prune_.present = true;
      prune_.type = "filter";
      bool haveRatio = false;
      for (const ir::Option &c : o.children) {
        if (c.key == "type") {
          if (word(c, prune_.type) && prune_.type != "filter" && prune_.type != "n_out_of_m")
            error(DiagID::err_amct_option_value, c.values[0].range, {prune_.type, "prune type", "use filter or n_out_of_m"});
        } else if (c.key == "ratio") {
          if (number(c, prune_.ratio))
            haveRatio = true;
        } else if (c.key == "ascend_optimized") {
          bool b;
          if (boolean(c, b))
            prune_.ascendOptimized = b;
        } else if (c.key == "update_freq") {
          uint32_t u;
          if (integer(c, u))
            prune_.updateFreq = u;
        } else {
          error(DiagID::err_amct_option_value, c.keyRange.valid() ? c.keyRange : c.range,
                {c.key, "prune", "known: type, ratio, ascend_optimized, update_freq"});
        }
      }
      std::string msg;
      if (prune_.type == "filter") {
        if (!haveRatio)
          error(DiagID::err_amct_value, o.range,
                {"prune ratio", "prune", "prune_ratio is required for balanced_l2_norm_filter_prune, please add it."});
        else if (!checkPruneRatio(prune_.ratio, "(global)", msg))
          error(DiagID::err_amct_value, o.range, {"prune ratio", "prune", msg});
      } else if (!checkNOutOfMHardware(hardware_, msg)) {
        error(DiagID::err_amct_sparsity_hardware, o.range, {hardware_});
      }
    }
    // Recipe options (act_algo, clip_max, ...) are read by buildRecipe.
  }
  // `hardware` may come after `prune`: check the pair again in order-independent form.
  std::string msg;
  if (prune_.present && prune_.type == "n_out_of_m" && ok_ && !checkNOutOfMHardware(hardware_, msg))
    error(DiagID::err_amct_sparsity_hardware, target_.option("prune")->range, {hardware_});
  return ok_;
}

void AmctWriter::applyRecipeOptions(const std::vector<ir::Option> &opts, LayerRecipe &r,
                                    std::optional<std::string> &actAlgo, std::optional<std::string> &wtsAlgo,
                                    const std::string &layer) {
  for (const ir::Option &o : opts) {
    const std::string &k = o.key;
    if (k == "act_algo") {
      std::string v;
      if (word(o, v))
        actAlgo = v;
    } else if (k == "weight_algo") {
      std::string v;
      if (word(o, v))
        wtsAlgo = v;
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

bool AmctWriter::buildRecipe(ir::Tier tier, int tierRank, const RoleView &w, const RoleView &a,
                             const std::vector<const ir::Option *> &blocks, const std::string &layer,
                             const std::string &type, SourceRange at, bool fromDefaults, LayerRecipe &r) {
  bool before = ok_;
  ok_ = true;
  std::string shown = layer.empty() ? "(global)" : layer;
  std::optional<std::string> actAlgo, wtsAlgo;
  applyRecipeOptions(target_.options, r, actAlgo, wtsAlgo, shown);
  for (const ir::Option *b : blocks)
    if (b->key == "amct")
      applyRecipeOptions(b->children, r, actAlgo, wtsAlgo, shown);

  // Data types: an explicit dtype of the role wins, else the tier decides.
  auto dtypeOf = [&](const RoleView &v, bool weight, DataType &out) {
    if (!v.dtype || v.dtypeRank < tierRank) {
      out = weight ? (tier == ir::Tier::Int4 ? DataType::Int4 : DataType::Int8)
                   : (tier == ir::Tier::Int16 ? DataType::Int16 : DataType::Int8);
      return;
    }
    const std::string &d = *v.dtype;
    if (d == "int8")
      out = DataType::Int8;
    else if (d == "int4")
      out = DataType::Int4;
    else if (d == "int16" && !weight)
      out = DataType::Int16;
    else
      error(DiagID::err_amct_option_value, v.at.valid() ? v.at : at,
            {d, weight ? "weight dtype" : "act dtype", weight ? "AMCT weights are int8 or int4" : "AMCT activations are int8 or int16"});
  };
  dtypeOf(w, true, r.weight);
  dtypeOf(a, false, r.act);

  // Algorithms: a method that names an AMCT algorithm is used; any other method needs the
  // target's (or the rule's) `act_algo` / `weight_algo`.
  auto algo = [&](const std::optional<std::string> &method, const std::optional<std::string> &opt, bool weight,
                  std::string &out) {
    // The legal names and their "a or b" text per [weight][qat]: constants, built once (a key
    // that reported an error is still built per module).
    static const std::vector<std::string> kLegal[2][2] = {{{"ifmr", "hfmg"}, {"ulq"}}, {{"arq", "ada"}, {"arq", "ulq"}}};
    static const std::string kLegalText[2][2] = {{"ifmr or hfmg", "ulq"}, {"arq or ada", "arq or ulq"}};
    const std::vector<std::string> &legal = kLegal[weight][qat()];
    const std::string &legalText = kLegalText[weight][qat()];
    auto canon = [&](const std::string &m) -> const std::string & {
      static const std::string kHfmg = "hfmg", kAda = "ada", kArq = "arq";
      if (m == "histogram")
        return kHfmg;
      if (m == "adaround")
        return kAda;
      if (weight && m == "minmax")
        return kArq; // ARQ is AMCT's min-max weight quantizer
      return m;
    };
    if (opt) {
      const std::string &m = canon(*opt);
      if (std::find(legal.begin(), legal.end(), m) == legal.end()) {
        error(DiagID::err_amct_method, at, {modeName(), weight ? "weight" : "activation", *opt, shown, legalText});
        return;
      }
      out = m;
      return;
    }
    if (!method) {
      out = legal.front();
      return;
    }
    const std::string &m = canon(*method);
    if (std::find(legal.begin(), legal.end(), m) == legal.end()) {
      error(DiagID::err_amct_method, (weight ? w.at : a.at).valid() ? (weight ? w.at : a.at) : at,
            {modeName(), weight ? "weight" : "activation", *method, shown,
             legalText + (weight ? " (or set weight_algo in the target)" : " (or set act_algo in the target)")});
      return;
    }
    out = m;
  };
  algo(w.method, wtsAlgo, true, r.wtsAlgo);
  algo(a.method, actAlgo, false, r.actAlgo);

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
    if (r.channelWise == true && !checkChannelWise(kind_, type, layer, msg)) {
      if (fromDefaults) {
        r.channelWise = std::nullopt; // reported once per type by the caller
      } else {
        error(DiagID::err_amct_channel_wise, w.at.valid() ? w.at : at, {shown, type, msg});
      }
    }
    r.channelWise = effectiveChannelWise(r.channelWise, type);
    if (isSymmetricOnlyType(type) && r.asymmetric == true)
      error(DiagID::err_amct_value, at, {"asymmetric activations", shown,
                                         "Layer " + layer + " can only set asymmetric be False "});
  }
  if (qat()) {
    if (!checkQatPair(r.act, r.weight, version_, msg))
      error(DiagID::err_amct_qat_pair, at, {shown, dataTypeName(r.act), dataTypeName(r.weight), versionText_, msg});
    if (!checkClip(r.clipMax, r.clipMin, shown, msg))
      error(DiagID::err_amct_clip, layer.empty() ? optionAt(r.clipMin ? "clip_min" : "clip_max", at) : at,
            {shown, msg});
  } else {
    if (r.act == DataType::Int4)
      error(DiagID::err_amct_option_value, a.at.valid() ? a.at : at,
            {"int4", "act dtype", "AMCT PTQ activations are int8 or int16"});
    if (r.act == DataType::Int16 && !checkPtqInt16(version_, msg))
      error(DiagID::err_amct_ptq_int16_version, at, {shown, versionText_, msg});
    if (r.act == DataType::Int16 && !type.empty() && !checkInt16Type(type, layer, version_, msg))
      error(DiagID::err_amct_value, at, {"INT16 activations", shown, msg});
    uint32_t bits = r.quantBits.value_or(r.weight == DataType::Int4 ? 4 : 8);
    if (r.quantBits && r.weight == DataType::Int4 && *r.quantBits != 4)
      error(DiagID::err_amct_option_value, at, {std::to_string(*r.quantBits), "quant_bits", "the weight dtype is int4"});
    if (!checkQuantBits(bits, type, layer, msg))
      error(DiagID::err_amct_value, at, {"quant_bits", shown, msg});
    if (r.wtsAlgo == "ada" && !type.empty() && !isAdaType(type))
      error(DiagID::err_amct_value, at, {"weight algorithm", shown, "ada_quantizable not support for " + type + " layer"});
    if (r.dmq && !type.empty() && !isDmqType(type))
      error(DiagID::err_amct_value, at, {"dmq_balancer", shown, "dmq_balancer not support for " + layer + " layer"});
    if (r.actAlgo != "hfmg" && r.numOfBins)
      error(DiagID::err_amct_option_variant, at, {"num_of_bins", "act_algo hfmg"});
  }
  bool good = ok_;
  ok_ = before && good;
  return good;
}

void AmctWriter::writePtq(P::CalibrationConfig &c, const LayerRecipe &r, std::string_view type) const {
  // channel_wise is written only where it differs from AMCT's per-type default.
  std::optional<bool> cw = r.channelWise;
  if (!type.empty() && cw && *cw == isChannelWiseType(type))
    cw = std::nullopt;
  if (type.empty() && cw == true)
    cw = std::nullopt; // global: absent = true on channel-wise types, false elsewhere
  uint32_t bits = r.quantBits.value_or(r.weight == DataType::Int4 ? 4 : 8);
  if (r.wtsAlgo == "ada") {
    auto *q = c.mutable_ada_quantize();
    if (cw)
      q->set_channel_wise(*cw);
  } else {
    auto *q = c.mutable_arq_quantize();
    if (cw)
      q->set_channel_wise(*cw);
    if (bits != 8)
      q->set_quant_bits(bits);
  }
  if (r.actAlgo == "hfmg") {
    auto *q = c.mutable_hfmg_quantize();
    if (r.numOfBins)
      q->set_num_of_bins(*r.numOfBins);
    if (r.asymmetric)
      q->set_asymmetric(*r.asymmetric);
    if (r.act == DataType::Int16)
      q->set_dst_type(P::HFMGQuantize::INT16);
  } else {
    auto *q = c.mutable_ifmr_quantize();
    if (r.asymmetric)
      q->set_asymmetric(*r.asymmetric);
    if (r.act == DataType::Int16)
      q->set_dst_type(P::FMRQuantize::INT16);
  }
  if (r.dmq)
    c.mutable_dmq_balancer()->set_migration_strength(static_cast<float>(*r.dmq));
}

static P::DataType toProto(DataType t) {
  return t == DataType::Int4 ? P::INT4 : t == DataType::Int16 ? P::INT16 : P::INT8;
}

void AmctWriter::writeQat(P::RetrainDataQuantConfig &d, P::RetrainWeightQuantConfig &w, const LayerRecipe &r,
                          std::string_view type) const {
  auto *u = d.mutable_ulq_quantize();
  if (r.clipMax && r.clipMin) {
    u->mutable_clip_max_min()->set_clip_max(static_cast<float>(*r.clipMax));
    u->mutable_clip_max_min()->set_clip_min(static_cast<float>(*r.clipMin));
  }
  if (r.fixedMin)
    u->set_fixed_min(*r.fixedMin);
  u->set_dst_type(toProto(r.act));
  std::optional<bool> cw = r.channelWise;
  if (!type.empty() && cw && *cw == isChannelWiseType(type))
    cw = std::nullopt;
  if (type.empty() && cw == true)
    cw = std::nullopt;
  if (r.wtsAlgo == "ulq") {
    auto *q = w.mutable_ulq_retrain();
    q->set_dst_type(toProto(r.weight));
    if (cw)
      q->set_channel_wise(*cw);
  } else {
    auto *q = w.mutable_arq_retrain();
    q->set_dst_type(toProto(r.weight));
    if (cw)
      q->set_channel_wise(*cw);
  }
}

// Which literal name a selector is, or nullopt (a glob, or a type selector).
std::optional<std::string> literalName(const ir::Selector &s) {
  if (s.kind != ir::Selector::Name)
    return std::nullopt;
  if (s.pattern && s.pattern->isLiteral())
    return s.pattern->literal();
  if (!s.pattern && !hasGlobSyntax(s.text))
    return s.text;
  return std::nullopt;
}

bool AmctWriter::run(std::string &text) {
  if (!readTarget())
    return false;

  // The global recipe.
  LayerRecipe global;
  RoleView gw = viewOf(spec_.defaults.weight, nullptr), ga = viewOf(spec_.defaults.act, nullptr);
  ir::Tier defaultTier = spec_.defaultTier();
  SourceRange defaultsAt = spec_.defaultsRange.valid() ? spec_.defaultsRange : target_.range;
  if (defaultTier == ir::Tier::Float)
    defaultTier = ir::Tier::Int8; // every layer is skipped; the recipe is never used
  if (!buildRecipe(defaultTier, 1, gw, ga, {}, "", "", defaultsAt, true, global))
    return false; // the target's settings are wrong for every layer: report them once

  // Names and recipes are held by view / pointer: an entry per module of a large inventory must
  // not copy its name, and recipes are shared by every module that resolves to them.
  struct NameEntry {
    std::string_view name, type;
    const LayerRecipe *recipe;
    SourceRange at;
  };
  std::deque<std::string> ownedNames; // names that are not in the spec or inventory (literalName)
  std::deque<LayerRecipe> recipes;    // stable addresses for NameEntry::recipe
  auto keep = [&](std::string s) -> std::string_view { return ownedNames.emplace_back(std::move(s)); };
  std::vector<std::pair<std::string_view, SourceRange>> skips, skipTypes;
  std::map<std::string, LayerRecipe> typeEntries;
  std::vector<NameEntry> nameEntries;

  if (spec_.resolution.done) {
    const auto &mods = spec_.inventory.modules;
    // Module types, interned: what AMCT does with a type is looked up once per type.
    struct TypeInfo {
      std::string_view name;
      bool quantizable = false, channelWise = false;
      bool hasSkips = false, warnedNotQuantizable = false, cwWarned = false;
      std::vector<uint32_t> members; // quantized modules, in inventory order
    };
    std::vector<TypeInfo> types;
    std::unordered_map<std::string_view, uint32_t> typeIds;
    uint32_t lastType = UINT32_MAX; // inventories list a block's modules together: most lookups repeat
    auto typeIdOf = [&](std::string_view t) {
      if (lastType != UINT32_MAX && types[lastType].name == t)
        return lastType;
      auto [it, fresh] = typeIds.try_emplace(t, static_cast<uint32_t>(types.size()));
      if (fresh) {
        TypeInfo ti;
        ti.name = t;
        ti.quantizable = isQuantizableType(t, kind_, version_);
        ti.channelWise = isChannelWiseType(t);
        types.push_back(std::move(ti));
      }
      return lastType = it->second;
    };
    // Distinct recipes; recipeOf[i] indexes `recipes` for a quantized module.
    std::map<LayerRecipe, uint32_t> recipeIds;
    auto intern = [&](const LayerRecipe &r) {
      auto [it, fresh] = recipeIds.try_emplace(r, static_cast<uint32_t>(recipes.size()));
      if (fresh)
        recipes.push_back(r);
      return it->second;
    };
    std::vector<uint32_t> recipeOf(mods.size(), 0);
    // buildRecipe once per key that built without error (-1: it reported one, so every module
    // with that key is built again and gets its own diagnostic, exactly as without the memo).
    std::unordered_map<RecipeKey, int64_t, RecipeKeyHash> memo;
    for (size_t i = 0; i < mods.size(); ++i) {
      const ir::Module &m = mods[i];
      const ir::ResolvedModule &rm = spec_.resolution.modules[i];
      SourceRange at = rm.tier.from.range().valid() ? rm.tier.from.range() : target_.range;
      uint32_t typeId = typeIdOf(m.type);
      TypeInfo &ti = types[typeId];
      if (!m.type.empty() && !ti.quantizable) {
        bool ruled = rm.tier.from.source != ir::Decision::BuiltIn && rm.tier.from.source != ir::Decision::Default;
        if (ruled && rm.tier.value != ir::Tier::Float && !ti.warnedNotQuantizable) {
          ti.warnedNotQuantizable = true;
          diags_.report(DiagID::warn_amct_not_quantizable, at,
                        {m.name, m.type, modeName() + " " + versionText_, ir::tierName(rm.tier.value)});
        }
        continue;
      }
      if (rm.tier.value == ir::Tier::Float) {
        if (checkName(m.name, at))
          skips.emplace_back(m.name, at);
        ti.hasSkips = true;
        continue;
      }
      bool fromDefaults = rm.weight.scope.from.source == ir::Decision::Default ||
                          rm.weight.scope.from.source == ir::Decision::BuiltIn;
      auto [slot, fresh] = memo.try_emplace(keyOf(rm, typeId, fromDefaults), -1);
      int64_t id = slot->second;
      if (id < 0) {
        RoleView w = viewOf(rm.weight), a = viewOf(rm.act);
        if (rm.weight.scope.from.range().valid())
          w.at = rm.weight.scope.from.range();
        LayerRecipe r;
        if (!buildRecipe(rm.tier.value, rankOf(rm.tier.from.source), w, a, rm.targetOptions, m.name, m.type, at,
                         fromDefaults, r))
          continue;
        id = intern(r);
        if (fresh)
          slot->second = id;
      }
      if (fromDefaults && rm.weight.scope.value == "per_channel" && !m.type.empty() && !ti.channelWise &&
          !ti.cwWarned) {
        ti.cwWarned = true;
        diags_.report(DiagID::warn_amct_channel_wise_default,
                      rm.weight.scope.from.range().valid() ? rm.weight.scope.from.range() : defaultsAt, {m.type, m.name});
      }
      recipeOf[i] = static_cast<uint32_t>(id);
      ti.members.push_back(static_cast<uint32_t>(i));
    }
    // Per type, in byte order of type names: the most common recipe (ties: the smallest) may
    // become the type's override; every member whose recipe still differs gets a name entry.
    std::vector<uint32_t> order;
    for (uint32_t t = 0; t < types.size(); ++t)
      if (!types[t].members.empty())
        order.push_back(t);
    std::sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) { return types[a].name < types[b].name; });
    std::vector<size_t> count(recipes.size(), 0);
    std::vector<char> differs(recipes.size(), 0);
    std::vector<uint32_t> used;
    for (uint32_t t : order) {
      const TypeInfo &ti = types[t];
      LayerRecipe g = globalFor(global, ti.name);
      used.clear();
      for (uint32_t i : ti.members)
        if (count[recipeOf[i]]++ == 0)
          used.push_back(recipeOf[i]);
      const LayerRecipe *best = nullptr;
      size_t bestCount = 0;
      for (uint32_t id : used)
        if (count[id] > bestCount || (count[id] == bestCount && recipes[id] < *best)) {
          best = &recipes[id];
          bestCount = count[id];
        }
      LayerRecipe base = g;
      // A type override needs a known type; in QAT it would re-enable the type's skipped layers.
      if (best && !(*best == g) && !ti.name.empty() && !(qat() && ti.hasSkips)) {
        typeEntries[std::string(ti.name)] = *best;
        base = *best;
      }
      for (uint32_t id : used) {
        differs[id] = !(recipes[id] == base);
        count[id] = 0;
      }
      for (uint32_t i : ti.members)
        if (differs[recipeOf[i]]) {
          const ir::ResolvedModule &rm = spec_.resolution.modules[i];
          SourceRange at = rm.tier.from.range().valid() ? rm.tier.from.range() : target_.range;
          if (checkName(mods[i].name, at))
            nameEntries.push_back({mods[i].name, ti.name, &recipes[recipeOf[i]], at});
        }
    }
  } else {
    // No inventory: the rules as written; exact names only.
    auto needNames = [&](const ir::Selector &s) {
      error(DiagID::err_emit_needs_inventory, s.range, {"AMCT", s.text});
    };
    auto addSkip = [&](const ir::Selector &s) {
      if (s.kind == ir::Selector::Type) {
        skipTypes.emplace_back(s.text, s.range);
        return;
      }
      auto name = literalName(s);
      if (!name)
        return needNames(s);
      if (checkName(*name, s.range))
        skips.emplace_back(keep(*name), s.range);
    };
    for (const ir::Protect &p : spec_.protects)
      addSkip(p.selector);
    for (const ir::Selector &s : spec_.tune.excludes)
      addSkip(s);
    std::set<std::string_view> skipped;
    for (auto &s : skips)
      skipped.insert(s.first);
    for (const ir::Override &o : spec_.overrides) {
      ir::Tier tier = o.settings.tier.value_or(defaultTier);
      std::vector<const ir::Option *> blocks;
      for (const ir::Option &b : o.settings.targetOptions)
        blocks.push_back(&b);
      int rank = o.level == ir::Override::Type ? 2 : 3;
      RoleView w = viewOf(spec_.defaults.weight, &o.settings.weight, rank),
               a = viewOf(spec_.defaults.act, &o.settings.act, rank);
      for (const ir::Selector &s : o.selectors) {
        if (o.level == ir::Override::Type) {
          if (qat() && !skips.empty()) {
            // It would re-enable skipped layers of this type; only names can tell.
            needNames(s);
            continue;
          }
          if (tier == ir::Tier::Float) {
            skipTypes.emplace_back(s.text, s.range);
            continue;
          }
          LayerRecipe r;
          if (buildRecipe(tier, o.settings.tier ? rank : 1, w, a, blocks, "", s.text, o.subjectRange, false, r))
            typeEntries[s.text] = r;
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
            skips.emplace_back(keep(*name), s.range);
          continue;
        }
        LayerRecipe r;
        if (buildRecipe(tier, o.settings.tier ? rank : 1, w, a, blocks, *name, "", o.subjectRange, false, r) && checkName(*name, s.range))
          nameEntries.push_back({keep(*name), "", &recipes.emplace_back(r), o.subjectRange});
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
            skips.emplace_back(keep(*name), s.range);
          continue;
        }
        LayerRecipe r;
        if (buildRecipe(raise.tier, 4, gw, ga, {}, *name, "", s.range, false, r) && checkName(*name, s.range)) {
          nameEntries.erase(std::remove_if(nameEntries.begin(), nameEntries.end(),
                                           [&](const NameEntry &e) { return e.name == *name; }),
                            nameEntries.end());
          nameEntries.push_back({keep(*name), "", &recipes.emplace_back(r), s.range});
        }
      }
  }
  if (!ok_ || diags_.hasErrors())
    return false;

  // Deterministic order: byte order of names and types; duplicates (one name from two rules)
  // collapse to one entry.
  auto byName = [](const auto &a, const auto &b) { return a.first < b.first; };
  std::stable_sort(skips.begin(), skips.end(), byName);
  skips.erase(std::unique(skips.begin(), skips.end(), [](auto &a, auto &b) { return a.first == b.first; }), skips.end());
  std::stable_sort(skipTypes.begin(), skipTypes.end(), byName);
  skipTypes.erase(std::unique(skipTypes.begin(), skipTypes.end(), [](auto &a, auto &b) { return a.first == b.first; }),
                  skipTypes.end());
  std::stable_sort(nameEntries.begin(), nameEntries.end(),
                   [](const NameEntry &a, const NameEntry &b) { return a.name < b.name; });
  for (size_t i = 1; i < nameEntries.size(); ++i)
    if (nameEntries[i].name == nameEntries[i - 1].name && !(*nameEntries[i].recipe == *nameEntries[i - 1].recipe)) {
      error(DiagID::err_amct_check, nameEntries[i].at,
            {"amct-duplicate", repeatedItemsMessage(kind_, qat() ? "retrain_override_layers" : "override_layer_configs",
                                                    {std::string(nameEntries[i].name)})});
      return false;
    }
  nameEntries.erase(std::unique(nameEntries.begin(), nameEntries.end(),
                                [](const NameEntry &a, const NameEntry &b) { return a.name == b.name; }),
                    nameEntries.end());

  // Build and print the message.
  google::protobuf::TextFormat::Printer printer;
  printer.SetUseUtf8StringEscaping(true);
  std::string body;
  if (qat()) {
    P::AMCTRetrainConfig m;
    if (batchNum_)
      m.set_batch_num(*batchNum_);
    writeQat(*m.mutable_retrain_data_quant_config(), *m.mutable_retrain_weight_quant_config(), global, "");
    for (auto &s : skips)
      m.add_skip_layers(s.first.data(), s.first.size());
    for (auto &e : nameEntries) {
      auto *o = m.add_override_layer_configs();
      o->set_layer_name(e.name.data(), e.name.size());
      writeQat(*o->mutable_retrain_data_quant_config(), *o->mutable_retrain_weight_quant_config(), *e.recipe, e.type);
    }
    for (auto &s : skipTypes)
      m.add_skip_layer_types(s.first.data(), s.first.size());
    for (auto &[type, r] : typeEntries) {
      auto *o = m.add_override_layer_types();
      o->set_layer_type(type);
      writeQat(*o->mutable_retrain_data_quant_config(), *o->mutable_retrain_weight_quant_config(), r, type);
    }
    if (prune_.present) {
      auto *p = m.mutable_prune_config();
      if (prune_.type == "filter") {
        auto *f = p->mutable_filter_pruner()->mutable_balanced_l2_norm_filter_prune();
        f->set_prune_ratio(static_cast<float>(prune_.ratio));
        if (prune_.ascendOptimized)
          f->set_ascend_optimized(*prune_.ascendOptimized);
      } else {
        auto *l = p->mutable_n_out_of_m_pruner()->mutable_l1_selective_prune();
        l->set_n_out_of_m_type(P::M4N2);
        if (prune_.updateFreq)
          l->set_update_freq(*prune_.updateFreq);
      }
    }
    if (forceFp16_)
      m.set_fakequant_precision_mode(P::AMCTRetrainConfig::FORCE_FP16_QUANT);
    printer.PrintToString(m, &body);
  } else {
    P::AMCTConfig m;
    if (batchNum_)
      m.set_batch_num(*batchNum_);
    if (activationOffset_)
      m.set_activation_offset(*activationOffset_);
    for (auto &s : skips)
      m.add_skip_layers(s.first.data(), s.first.size());
    for (auto &s : skipTypes)
      m.add_skip_layer_types(s.first.data(), s.first.size());
    if (forceFp16_)
      m.set_fakequant_precision_mode(P::FORCE_FP16_QUANT);
    writePtq(*m.mutable_common_config(), global, "");
    for (auto &[type, r] : typeEntries) {
      auto *o = m.add_override_layer_types();
      o->set_layer_type(type);
      writePtq(*o->mutable_calibration_config(), r, type);
    }
    for (auto &e : nameEntries) {
      auto *o = m.add_override_layer_configs();
      o->set_layer_name(e.name.data(), e.name.size());
      writePtq(*o->mutable_calibration_config(), *e.recipe, e.type);
    }
    if (doFusion_)
      m.set_do_fusion(*doFusion_);
    for (auto &s : skipFusion_)
      m.add_skip_fusion_layers(s.first);
    printer.PrintToString(m, &body);
  }

  // Round trip: the text must parse back strictly as the same message kind.
  AmctDocument doc;
  std::vector<ParseError> errors;
  // (No location tree: every finding is reported at the target, not at a line of the text.)
  if (!parseAmctConfigAs(body, kind_, doc, errors, /*locations=*/false)) {
    error(DiagID::err_amct_roundtrip, target_.range,
          {errors.empty() ? "unknown error" : std::to_string(errors[0].line) + ":" + std::to_string(errors[0].col) +
                                                  ": " + errors[0].message});
    return false;
  }
  // AMCT's document rules on exactly what is about to be written.
  CheckOptions co;
  co.version = version_;
  co.hardware = hardware_;
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
  if (!ok_)
    return false;

  text = "# AMCT " + std::string(qat() ? "QAT/prune (AMCTRetrainConfig)" : "PTQ (AMCTConfig)") + ", AMCT " +
         (versionText_ == "master" ? std::string("master") : std::to_string(version_.major) + "." +
                                                                 std::to_string(version_.minor)) +
         (framework_ == "onnx" ? ", ONNX" : ", PyTorch") + ". Generated by qcc; do not edit.\n" + body;
  return true;
}

} // namespace

bool AmctEmitter::emit(const ir::Spec &spec, const ir::Target &target, OutputContext &out,
                       DiagnosticEngine &diags) {
  AmctWriter w(spec, target, diags);
  return w.run(out.buffer());
}

} // namespace qspec::emit
