// The msmodelslim target under `apiversion modelslim_v0`: msModelSlim's older schema, whose
// `spec.calib_cfg` holds the arguments of one llm_ptq QuantConfig (vendors/msmodelslim/
// MsModelSlimV0.h). Steps:
// 1. Options: the settings shared with modelslim_v1 (config_id, score, label,
//    verified_model_types, dataset, part_file_size, anti_outlier) are parsed by
//    parsePracticeOptions; save, runner and include have no v0 field and are refused; the
//    v0-only settings anti_dataset, disable_anti_names, use_kvcache_quant and the sparse scheme's
//    co_sparse, is_lowbit, use_sigma, fraction, sigma_factor, pr and mix_cfg are checked here (the
//    sparse scheme against the recipe once it is planned: checkSparse).
// 2. Plan: one recipe for every quantized nn.Linear (v0 has one calib_cfg), and the float Linears
//    as exact names (`disable_names` has no patterns): with an inventory its names; without one
//    the names the spec writes, each literal (a pattern is err_emit_needs_inventory). mix_cfg's
//    entries decide the Linears they select (LayerConfigManager: rollback first, an exact name,
//    else the first match): a float entry's float Linears leave disable_names, a w8a8, w8a16 or
//    w8a8_dynamic entry's quantized Linears must have the recipe Calibrator derives from
//    calib_cfg's (checkMixed; such entries need an inventory). A second recipe, a recipe v0 has
//    no keys for, or an anti-outlier setting v0 cannot say is
//    err_msmodelslim_v0_not_expressible at the rule or setting.
// 3. Write: calib_cfg (w_bit, a_bit, mm_tensor, w_sym, w_method, act_method, is_dynamic, pdmix,
//    the sparse arguments, use_kvcache_quant, disable_last_linear where the last Linear is
//    quantized, disable_names), calib_params.mix_cfg,
//    anti_cfg (with disable_anti_names), calib_dataset, anti_dataset, calib_save_params.
//    emit::emitTargets then reads the bytes back through vendors/msmodelslim (readMsModelSlimV0)
//    and compares the reading with the IR.
#include "emitters/msmodelslim/PracticeYaml.h"

#include "ir/Pattern.h"
#include "ir/Suggest.h"
#include "vendors/msmodelslim/MsModelSlimBraces.h"
#include "vendors/msmodelslim/MsModelSlimV0.h"

#include <algorithm>
#include <optional>
#include <set>
#include <tuple>

namespace qspec::emit {

namespace {

// The QuantConfig arguments of one recipe.
struct V0Recipe {
  int wBit = 8, aBit = 16, actMethod = 1;
  std::string wMethod = "MinMax";
  bool mmTensor = false, wSym = true, isDynamic = false, pdmix = false;
  bool operator==(const V0Recipe &o) const {
    return wBit == o.wBit && aBit == o.aBit && actMethod == o.actMethod && wMethod == o.wMethod &&
           mmTensor == o.mmTensor && wSym == o.wSym && isDynamic == o.isDynamic && pdmix == o.pdmix;
  }
  std::string describe() const {
    std::string s = "w" + std::to_string(wBit) + "a" + std::to_string(aBit) +
                    (mmTensor ? " per_tensor" : " per_channel") +
                    (wSym ? " symmetric " : " asymmetric ") + wMethod;
    if (aBit == 8)
      s += std::string(isDynamic ? ", per_token"
                       : pdmix   ? ", pd_mix"
                                 : ", per_tensor") +
           " act_method " + std::to_string(actMethod);
    return s;
  }
};

class V0Writer {
public:
  V0Writer(const ir::Spec &spec, const ir::Target &target, DiagnosticEngine &diags)
      : spec_(spec), target_(target), diags_(diags) {}
  bool run(OutputContext &out);

private:
  const ir::Spec &spec_;
  const ir::Target &target_;
  DiagnosticEngine &diags_;
  bool ok_ = true;
  PracticeOptions options_;
  std::optional<V0Recipe> recipe_;
  std::string recipeOf_; // the module (or "the default") that set recipe_
  std::vector<std::string> disable_;
  bool lastLinearQuantized_ = true;
  SourceRange recipeAt_; // the rule that set recipe_
  // The v0-only settings: anti_dataset, disable_anti_names, use_kvcache_quant, and the sparse
  // scheme's co_sparse, is_lowbit, use_sigma, fraction, sigma_factor, pr.
  const ir::Value *antiDataset_ = nullptr;
  std::vector<std::string> disableAnti_;
  bool kvcache_ = false, coSparse_ = false, isLowbit_ = false, useSigma_ = false;
  const ir::Value *fraction_ = nullptr, *sigmaFactor_ = nullptr, *pr_ = nullptr;
  // mix_cfg { float "PATTERN", ...; w8a8_dynamic "PATTERN", ... }: Calibrator's entries in the
  // order written, and the quantized Linears a w8a8, w8a16 or w8a8_dynamic entry selects (checked
  // against the recipe Calibrator derives for them once calib_cfg's is known: checkMixed).
  struct MixEntry {
    std::string type;
    const ir::Value *pattern;
  };
  std::vector<MixEntry> mix_;
  struct MixedLinear {
    const MixEntry *entry;
    const ir::ResolvedModule *module;
    std::string name;
  };
  std::vector<MixedLinear> mixed_;

  std::set<std::tuple<FileID, uint32_t, uint32_t, std::string>> reported_;

  // Reported once per place and reason (a rule's recipe is every module's it decides).
  void cannot(SourceRange at, const std::string &what, const std::string &why) {
    ok_ = false;
    if (!at.valid())
      at = target_.range;
    if (!reported_.emplace(at.file, at.begin.line, at.begin.col, why).second)
      return;
    diags_.report(DiagID::err_msmodelslim_v0_not_expressible, at, {what, why});
  }
  void checkOptions();
  void checkV0Settings();
  void badOption(const ir::Option &o, const std::string &why);
  bool boolSetting(const char *key);
  const ir::Value *numberSetting(const char *key, double lo, double hi);
  void checkSparse();
  void checkMixCfg();
  // LayerConfigManager's choice for a Linear: the entry named exactly so, else the first whose
  // pattern matches (null: none, calib_cfg's recipe).
  const MixEntry *mixFor(const std::string &name) const;
  // Whether mix_cfg decides the Linear `name`: float Linears a float entry selects leave
  // disable_names (a quantized one is refused); quantized Linears another entry selects join
  // mixed_. Float Linears another entry selects stay in disable_names (rolled back first).
  bool coveredByMix(const ir::ResolvedModule &rm, const std::string &name);
  void checkMixed();
  bool recipeFor(const ir::ResolvedModule &rm, const std::string &name, V0Recipe &r);
  void useRecipe(const ir::ResolvedModule &rm, const std::string &name);
  void planWithInventory();
  void planSymbolic();
  void writeAnti(YAML::Emitter &y);
  void write(OutputContext &out);
};

void V0Writer::checkOptions() {
  for (const char *key : {"save", "runner", "include"})
    if (const ir::Option *o = target_.option(key)) {
      diags_.report(DiagID::err_msmodelslim_bad_option,
                    o->values.empty() ? o->range : o->values.front().range,
                    {key, std::string("apiversion modelslim_v0 has no '") + key +
                              "' (its saver, runner and scope are fixed); remove it or use "
                              "modelslim_v1"});
      ok_ = false;
    }
  checkV0Settings();
  const ir::Option *anti = options_.antiOutlier;
  if (!anti)
    return;
  size_t n = anti->values.size() + anti->children.size();
  if (n > 1)
    cannot(anti->range, "anti_outlier with " + std::to_string(n) + " processors",
           "anti_cfg runs one anti_method");
  for (const ir::Value &v : anti->values)
    if (msmodelslim::v0AntiMethod(v.text).empty())
      cannot(v.range, "anti-outlier processor '" + v.text + "'", msmodelslim::v0AntiMethodList());
  for (const ir::Option &c : anti->children) {
    if (msmodelslim::v0AntiMethod(c.key).empty()) {
      cannot(c.keyRange, "anti-outlier processor '" + c.key + "'", msmodelslim::v0AntiMethodList());
      continue;
    }
    for (const ir::Option &p : c.children)
      if (c.key != "flex_smooth_quant" || (p.key != "alpha" && p.key != "beta"))
        cannot(p.keyRange, "setting '" + p.key + "' of " + c.key,
               c.key == "flex_smooth_quant"
                   ? "anti_cfg.flex_config takes alpha and beta"
                   : "anti_cfg " + msmodelslim::v0AntiMethod(c.key) +
                         " takes no settings (AntiOutlierConfig fixes them)");
  }
}

void V0Writer::badOption(const ir::Option &o, const std::string &why) {
  diags_.report(DiagID::err_msmodelslim_bad_option,
                o.values.empty() ? o.range : o.values.front().range, {o.key, why});
  ok_ = false;
}

// A QuantConfig switch: `true` or `false` (false, its default, writes nothing).
bool V0Writer::boolSetting(const char *key) {
  const ir::Option *o = target_.option(key);
  if (!o)
    return false;
  if (o->isBlock || o->values.size() != 1 ||
      (o->values[0].text != "true" && o->values[0].text != "false")) {
    badOption(*o, std::string(key) + " is true or false");
    return false;
  }
  return o->values[0].text == "true";
}

// A QuantConfig float in [lo, hi], the range its check_number applies.
const ir::Value *V0Writer::numberSetting(const char *key, double lo, double hi) {
  const ir::Option *o = target_.option(key);
  if (!o)
    return nullptr;
  if (o->isBlock || o->values.size() != 1 || o->values[0].kind != ir::Value::Number ||
      !(o->values[0].number >= lo && o->values[0].number <= hi)) {
    ir::Value bound;
    bound.kind = ir::Value::Number;
    bound.number = lo;
    std::string range = "[" + practiceNumber(bound) + ", ";
    bound.number = hi;
    badOption(*o, std::string(key) + " is a number in " + range + practiceNumber(bound) + "]");
    return nullptr;
  }
  return &o->values[0];
}

// anti_dataset (AntiOutlier's calibration data), disable_anti_names (the Linears the anti-outlier
// step leaves alone, exact names), use_kvcache_quant (QuantConfig's int8 KV cache) and the sparse
// scheme's arguments (their combination with the recipe: checkSparse).
void V0Writer::checkV0Settings() {
  auto bad = [&](const ir::Option &o, const std::string &why) { badOption(o, why); };
  for (const char *key : {"anti_dataset", "disable_anti_names"})
    if (const ir::Option *o = target_.option(key); o && !options_.antiOutlier)
      bad(*o, std::string(key) + " configures anti_cfg; it needs an anti_outlier setting");
  if (const ir::Option *o = target_.option("anti_dataset")) {
    if (o->isBlock || o->values.size() != 1 || o->values[0].kind != ir::Value::String ||
        o->values[0].text.empty() || o->values[0].text.size() > 4096)
      bad(*o, "anti_dataset is one non-empty path of at most 4096 characters");
    else if (checkWhitelisted(diags_, "anti_dataset", o->values[0].text, o->values[0].range))
      antiDataset_ = &o->values[0];
    else
      ok_ = false;
  }
  if (const ir::Option *o = target_.option("disable_anti_names")) {
    if (o->isBlock || o->values.empty())
      bad(*o, "disable_anti_names is one or more module names");
    for (const ir::Value &v : o->values) {
      if (v.kind != ir::Value::String || v.text.empty() || hasGlobSyntax(v.text) ||
          !msmodelslim::literalBraceVariable(v.text).empty()) {
        diags_.report(DiagID::err_msmodelslim_bad_option, v.range,
                      {o->key, "disable_anti_names takes exact module names, not '" + v.text +
                                   "' (AntiOutlierConfig matches no patterns)"});
        ok_ = false;
      } else if (checkWhitelisted(diags_, "module name", v.text, v.range)) {
        disableAnti_.push_back(v.text);
      } else {
        ok_ = false;
      }
    }
  }
  kvcache_ = boolSetting("use_kvcache_quant");
  coSparse_ = boolSetting("co_sparse");
  isLowbit_ = boolSetting("is_lowbit");
  useSigma_ = boolSetting("use_sigma");
  // QuantConfig checks fraction and sigma_factor whatever the scheme; pr only in the low-bit one,
  // where [0, 1] applies (qspec applies it always: pr is a probability).
  fraction_ = numberSetting("fraction", 0.01, 0.1);
  sigmaFactor_ = numberSetting("sigma_factor", 3.0, 4.0);
  pr_ = numberSetting("pr", 0.0, 1.0);
  checkMixCfg();
}

// mix_cfg { CONFIG "PATTERN", ... }: Calibrator's mix_cfg entries, an fnmatch pattern or exact
// name each (no braces or backslashes: fnmatch has neither, qspec's patterns have both), in the
// order written (the first matching entry decides). The configs are ALLOWED_MIX_TYPES';
// w4a8_dynamic is one Calibrator does not derive from calib_cfg.
void V0Writer::checkMixCfg() {
  const ir::Option *o = target_.option("mix_cfg");
  if (!o)
    return;
  if (!o->isBlock || o->children.empty())
    return badOption(*o, "mix_cfg is a block: mix_cfg { float \"PATTERN\", ... }");
  std::set<std::string> seen;
  for (const ir::Option &c : o->children) {
    if (c.key == "w4a8_dynamic") {
      cannot(c.keyRange, "mix_cfg entries of config 'w4a8_dynamic'",
             "Calibrator derives w8a8, w8a16 and w8a8_dynamic configs from calib_cfg, not "
             "w4a8_dynamic");
      continue;
    }
    if (c.key != "float" && c.key != "w8a8" && c.key != "w8a16" && c.key != "w8a8_dynamic") {
      badOption(c,
                "mix_cfg's configs are float, w8a8, w8a16 and w8a8_dynamic, not '" + c.key + "'");
      continue;
    }
    if (c.values.empty())
      badOption(c, "mix_cfg " + c.key + " takes one or more patterns");
    for (const ir::Value &v : c.values) {
      if (v.kind != ir::Value::String || v.text.empty() ||
          v.text.find_first_of("{}\\") != std::string::npos) {
        diags_.report(DiagID::err_msmodelslim_bad_option, v.range,
                      {"mix_cfg", "a mix_cfg entry is a name or an fnmatch pattern without "
                                  "braces or backslashes, not '" +
                                      v.text + "'"});
        ok_ = false;
      } else if (!seen.insert(v.text).second) {
        diags_.report(
            DiagID::err_msmodelslim_bad_option, v.range,
            {"mix_cfg", "mix_cfg has one entry per pattern; '" + v.text + "' is given twice"});
        ok_ = false;
      } else if (checkWhitelisted(diags_, "mix_cfg entry", v.text, v.range)) {
        mix_.push_back({c.key, &v});
      } else {
        ok_ = false;
      }
    }
  }
}

const V0Writer::MixEntry *V0Writer::mixFor(const std::string &name) const {
  for (const MixEntry &e : mix_)
    if (e.pattern->text == name)
      return &e;
  for (const MixEntry &e : mix_)
    if (msmodelslim::fnmatchCase(name, e.pattern->text))
      return &e;
  return nullptr;
}

bool V0Writer::coveredByMix(const ir::ResolvedModule &rm, const std::string &name) {
  const MixEntry *e = mixFor(name);
  bool isFloat = rm.tier.value == ir::Tier::Float;
  if (!e || (e->type != "float" && isFloat))
    return false;
  if (e->type != "float")
    mixed_.push_back({e, &rm, name});
  else if (!isFloat)
    cannot(e->pattern->range, "mix_cfg float entry '" + e->pattern->text + "'",
           "it selects '" + name + "', which the spec quantizes; protect it or narrow the entry");
  return true;
}

namespace {

msmodelslim::V0Calib calibOf(const V0Recipe &r, bool coSparse, bool isLowbit) {
  msmodelslim::V0Calib c;
  c.wBit = r.wBit;
  c.aBit = r.aBit;
  c.actMethod = r.actMethod;
  c.wMethod = r.wMethod;
  c.mmTensor = r.mmTensor;
  c.wSym = r.wSym;
  c.isDynamic = r.isDynamic;
  c.pdmix = r.pdmix;
  c.coSparse = coSparse;
  c.isLowbit = isLowbit;
  return c;
}

// A QuantConfig as the recipe recipeFor says (a_bit 16: no activation arguments).
V0Recipe recipeOf(const msmodelslim::V0Calib &c) {
  V0Recipe r;
  r.wBit = c.wBit;
  r.aBit = c.aBit;
  r.wMethod = c.wMethod;
  r.mmTensor = c.mmTensor;
  r.wSym = c.wSym;
  if (c.aBit != 16) {
    r.actMethod = c.actMethod;
    r.isDynamic = c.isDynamic;
    r.pdmix = c.pdmix;
  }
  return r;
}

} // namespace

// The quantized Linears a w8a8, w8a16 or w8a8_dynamic entry selects take the recipe Calibrator
// derives from calib_cfg's (v0MixCalib). calib_cfg's recipe is the one of the Linears no entry
// decides; when every quantized Linear is decided by an entry, it is the first such Linear's with
// static activations (a w8a8_dynamic entry's Linear gives its w8a8 recipe).
void V0Writer::checkMixed() {
  std::set<const MixEntry *> refused;
  for (const MixedLinear &x : mixed_) {
    V0Recipe r;
    if (!recipeFor(*x.module, x.name, r))
      continue;
    if (!recipe_) {
      recipe_ = r;
      recipe_->isDynamic = false;
      recipeOf_ = x.name;
      recipeAt_ = x.module->tier.from.range().valid() ? x.module->tier.from.range()
                                                      : x.entry->pattern->range;
    }
    if (refused.count(x.entry))
      continue;
    msmodelslim::V0Calib d;
    std::string why;
    std::string what =
        "mix_cfg entry '" + x.entry->pattern->text + "' of config '" + x.entry->type + "'";
    if (!msmodelslim::v0MixCalib(calibOf(*recipe_, coSparse_, isLowbit_), x.entry->type, d, why)) {
      refused.insert(x.entry);
      cannot(x.entry->pattern->range, what, why);
      continue;
    }
    V0Recipe derived = recipeOf(d);
    if (derived == r)
      continue;
    refused.insert(x.entry);
    cannot(x.entry->pattern->range, what,
           "it selects '" + x.name + "', which the spec gives " + r.describe() +
               "; Calibrator derives " + derived.describe() + " from calib_cfg's " +
               recipe_->describe());
  }
}

// The sparse scheme (QuantConfig's check_sparse_config and get_quant_type): co_sparse, or
// is_lowbit (which turns co_sparse off) with w_bit 4, quantizes w4a8 as W8A8S. co_sparse replaces
// w_bit and a_bit by 4 and 8 and pr by 1.0, so a spec that says another recipe or pr is refused
// rather than written to be changed; a w4a8 recipe without the scheme is W4A8_DYNAMIC, which
// needs per-group weights v0 cannot say.
void V0Writer::checkSparse() {
  const V0Recipe &r = *recipe_;
  bool w4a8 = r.wBit == 4 && r.aBit == 8;
  auto at = [&](const char *key) { return target_.option(key)->range; };
  if (isLowbit_ && !w4a8)
    cannot(at("is_lowbit"), "is_lowbit with a " + r.describe() + " recipe",
           "qspec writes is_lowbit for the w4a8 sparse scheme (weight int4, act int8) only");
  else if (coSparse_ && !isLowbit_ && !w4a8)
    cannot(at("co_sparse"), "co_sparse with a " + r.describe() + " recipe",
           "co_sparse makes QuantConfig's recipe w4a8 (it replaces w_bit and a_bit); say weight "
           "int4 and act int8");
  if (w4a8 && !coSparse_ && !isLowbit_)
    cannot(recipeAt_, "a " + r.describe() + " recipe without co_sparse or is_lowbit",
           "QuantConfig quantizes w_bit 4 with a_bit 8 as the sparse scheme (co_sparse or "
           "is_lowbit) or as W4A8_DYNAMIC, which needs per-group weights");
  if (!w4a8 || (!coSparse_ && !isLowbit_))
    return;
  const char *scheme = isLowbit_ ? "is_lowbit" : "co_sparse";
  if (r.isDynamic || r.pdmix)
    cannot(recipeAt_,
           std::string(r.isDynamic ? "per_token" : "pd_mix") + " activations with " + scheme,
           "the sparse scheme (W8A8S) quantizes activations per_tensor");
  if (r.wMethod != "MinMax")
    cannot(recipeAt_, "weight method " + r.wMethod + " with " + scheme,
           "the sparse scheme (W8A8S) takes MinMax weights");
  if (coSparse_ && !isLowbit_ && pr_ && pr_->number != 1.0)
    cannot(pr_->range, "pr " + pr_->text + " with co_sparse",
           "QuantConfig sets pr to 1.0 for co_sparse");
}

// The QuantConfig arguments of one quantized module, or false after reporting what v0 lacks.
bool V0Writer::recipeFor(const ir::ResolvedModule &rm, const std::string &name, V0Recipe &r) {
  auto at = [&](const ir::Decision &d) {
    return d.range().valid() ? d.range() : rm.tier.from.range();
  };
  std::string_view wd = vendors::effectiveWeightDtype(rm);
  if (wd == "int8" || wd == "int4" || wd.empty()) {
    r.wBit = wd == "int4" || (wd.empty() && rm.tier.value == ir::Tier::Int4) ? 4 : 8;
  } else {
    cannot(at(rm.weight.dtype.from), "weight dtype '" + std::string(wd) + "' of '" + name + "'",
           "w_bit is an integer width (8 or 4)");
    return false;
  }
  const std::string &ws = rm.weight.scope.value.str();
  if (!ws.empty() && ws != "per_channel" && ws != "per_tensor") {
    cannot(at(rm.weight.scope.from), "weight scope '" + ws + "' of '" + name + "'",
           "mm_tensor says per_tensor (true) or per_channel (false)");
    return false;
  }
  r.mmTensor = ws == "per_tensor";
  r.wSym = rm.weight.symmetric.from.source == ir::Decision::BuiltIn || rm.weight.symmetric.value;
  const std::string &wm = rm.weight.method.value.str();
  if (wm.empty() || wm == "minmax")
    r.wMethod = "MinMax";
  else if (wm == "gptq" || wm == "hqq")
    r.wMethod = wm == "gptq" ? "GPTQ" : "HQQ";
  else {
    cannot(at(rm.weight.method.from), "weight method '" + wm + "' of '" + name + "'",
           "w_method is MinMax, GPTQ or HQQ");
    return false;
  }
  const std::string &ad = rm.act.dtype.value.str();
  if (ad.empty() || ad == "float" || ad == "fp16" || ad == "bf16") {
    r.aBit = 16;
    return true;
  }
  if (ad != "int8") {
    cannot(at(rm.act.dtype.from), "act dtype '" + ad + "' of '" + name + "'",
           "a_bit is 8 (int8) or 16 (float)");
    return false;
  }
  r.aBit = 8;
  if (!r.wSym) {
    cannot(at(rm.weight.symmetric.from),
           "asymmetric weights of '" + name + "' with int8 activations",
           "QuantConfig requires w_sym true when a_bit is 8");
    return false;
  }
  const std::string &as = rm.act.scope.value.str();
  if (!as.empty() && as != "per_tensor" && as != "per_token" && as != "pd_mix") {
    cannot(at(rm.act.scope.from), "act scope '" + as + "' of '" + name + "'",
           "v0 activations are per_tensor, per_token (is_dynamic) or pd_mix (pdmix)");
    return false;
  }
  r.isDynamic = as == "per_token";
  r.pdmix = as == "pd_mix";
  if (rm.act.symmetric.from.source != ir::Decision::BuiltIn &&
      rm.act.symmetric.value != r.isDynamic) {
    cannot(at(rm.act.symmetric.from),
           std::string(rm.act.symmetric.value ? "symmetric" : "asymmetric") + " " +
               (as.empty() ? "per_tensor" : as) + " activations of '" + name + "'",
           "QuantConfig quantizes static activations asymmetrically and per_token ones "
           "symmetrically");
    return false;
  }
  const std::string &am = rm.act.method.value.str();
  if (!am.empty() && am != "minmax" && am != "histogram") {
    cannot(at(rm.act.method.from), "act method '" + am + "' of '" + name + "'",
           "act_method is 1 (minmax) or 2 (histogram)");
    return false;
  }
  r.actMethod = am == "histogram" ? 2 : 1;
  return true;
}

// The recipe of a quantized module: the first sets the practice's, every other must equal it.
void V0Writer::useRecipe(const ir::ResolvedModule &rm, const std::string &name) {
  V0Recipe r;
  if (!recipeFor(rm, name, r))
    return;
  if (!recipe_) {
    recipe_ = r;
    recipeOf_ = name;
    recipeAt_ = rm.tier.from.range().valid() ? rm.tier.from.range() : target_.range;
  } else if (!(*recipe_ == r) && ok_) {
    cannot(rm.tier.from.range(), "two recipes",
           "'" + recipeOf_ + "' is " + recipe_->describe() + " and '" + name + "' is " +
               r.describe() + "; calib_cfg has one recipe for every quantized Linear");
  }
}

bool linearLike(const ir::Module &m) { return m.type.empty() || m.type == "Linear"; }

void V0Writer::planWithInventory() {
  const ir::Inventory &inv = spec_.inventory;
  for (size_t m = 0; m < inv.modules.size(); ++m) {
    if (!linearLike(inv.modules[m]))
      continue; // QuantConfig quantizes nn.Linear only
    const ir::ResolvedModule &rm = spec_.resolution.modules[m];
    lastLinearQuantized_ = rm.tier.value != ir::Tier::Float;
    if (coveredByMix(rm, inv.modules[m].name))
      continue;
    if (rm.tier.value == ir::Tier::Float)
      disable_.push_back(inv.modules[m].name);
    else
      useRecipe(rm, inv.modules[m].name);
  }
  // A tied output head reuses the embedding's weight: never quantized, and not in the index.
  if (std::optional<std::string> head = ir::tiedHeadName(inv, spec_.modelConfig)) {
    if (std::find(disable_.begin(), disable_.end(), *head) == disable_.end())
      disable_.push_back(*head);
    lastLinearQuantized_ = true; // the head is the model's last Linear, not the index's
  }
}

// Without an inventory: the Linear type's recipe; float names written as they are (literal). An
// entry of another config than float gives a recipe to Linears no name of the spec may say.
void V0Writer::planSymbolic() {
  for (const MixEntry &e : mix_)
    if (e.type != "float")
      cannot(e.pattern->range, "mix_cfg entry '" + e.pattern->text + "' of config '" + e.type + "'",
             "which Linears it selects, and so which take its recipe, needs --inventory");
  const ir::TargetReading *reading = spec_.readingOf(target_);
  const std::vector<ir::SymbolicEntry> &entries =
      reading && !reading->symbolic.empty() ? reading->symbolic : spec_.resolution.symbolic;
  const ir::SymbolicEntry *linear = nullptr;
  for (const ir::SymbolicEntry &e : entries)
    if (e.isType && e.text == "Linear")
      linear = &e;
  if (linear && linear->module.tier.value != ir::Tier::Float)
    useRecipe(linear->module, "the default");
  for (const ir::SymbolicEntry &e : entries) {
    if (e.isType)
      continue;
    SourceRange at = e.selectors.empty() ? target_.range : e.selectors.front()->range;
    if (coveredByMix(e.module, e.text))
      continue;
    if (e.module.tier.value != ir::Tier::Float) {
      useRecipe(e.module, e.text);
      continue;
    }
    if (hasGlobSyntax(e.text) || !msmodelslim::literalBraceVariable(e.text).empty()) {
      diags_.report(DiagID::err_emit_needs_inventory, at, {"msmodelslim (modelslim_v0)", e.text});
      ok_ = false;
      continue;
    }
    ok_ = checkWhitelisted(diags_, "module name", e.text, at) && ok_;
    disable_.push_back(e.text);
  }
}

void writeNames(YAML::Emitter &y, const char *key, const std::vector<std::string> &names) {
  y << YAML::Key << key << YAML::Value;
  if (names.empty())
    y << YAML::Flow;
  y << YAML::BeginSeq;
  for (const std::string &n : names)
    y << YAML::DoubleQuoted << n;
  y << YAML::EndSeq;
}

void V0Writer::writeAnti(YAML::Emitter &y) {
  const ir::Option *anti = options_.antiOutlier;
  if (!anti)
    return;
  std::string type = !anti->values.empty() ? anti->values[0].text : anti->children[0].key;
  y << YAML::Key << "anti_cfg" << YAML::Value << YAML::BeginMap;
  y << YAML::Key << "anti_method" << YAML::Value << YAML::DoubleQuoted
    << msmodelslim::v0AntiMethod(type);
  // AntiOutlierConfig's own w_bit/a_bit/w_sym are left at 8/8/true, as msModelSlim's lab
  // practices leave them under w4a8 and w8a16 recipes too: besides m3 (AWQ, which qspec does not
  // write) it refuses a_bit 16 and w_sym false.
  if (anti->values.empty() && !anti->children[0].children.empty()) {
    y << YAML::Key << "flex_config" << YAML::Value << YAML::BeginMap;
    for (const ir::Option &p : anti->children[0].children) {
      y << YAML::Key << p.key << YAML::Value;
      writePracticeValue(y, p.values[0]);
    }
    y << YAML::EndMap;
  }
  if (!disableAnti_.empty())
    writeNames(y, "disable_anti_names", disableAnti_);
  y << YAML::EndMap;
}

void V0Writer::write(OutputContext &out) {
  const V0Recipe &r = *recipe_;
  YAML::Emitter y;
  y.SetIndent(2);
  y << YAML::BeginMap;
  y << YAML::Key << "apiversion" << YAML::Value << YAML::DoubleQuoted << "modelslim_v0";
  writePracticeMetadata(y, options_, r.wBit == 4 ? "int4" : "int8", r.aBit == 8 ? "int8" : "");
  y << YAML::Key << "spec" << YAML::Value << YAML::BeginMap;
  writeAnti(y);
  y << YAML::Key << "calib_cfg" << YAML::Value << YAML::BeginMap;
  y << YAML::Key << "w_bit" << YAML::Value << r.wBit;
  y << YAML::Key << "a_bit" << YAML::Value << r.aBit;
  y << YAML::Key << "mm_tensor" << YAML::Value << (r.mmTensor ? "true" : "false");
  y << YAML::Key << "w_sym" << YAML::Value << (r.wSym ? "true" : "false");
  if (r.wMethod != "MinMax")
    y << YAML::Key << "w_method" << YAML::Value << YAML::DoubleQuoted << r.wMethod;
  if (r.aBit == 8)
    y << YAML::Key << "act_method" << YAML::Value << r.actMethod;
  if (r.isDynamic)
    y << YAML::Key << "is_dynamic" << YAML::Value << "true";
  if (r.pdmix)
    y << YAML::Key << "pdmix" << YAML::Value << "true";
  for (const auto &[key, on] :
       {std::pair{"is_lowbit", isLowbit_}, std::pair{"co_sparse", coSparse_},
        std::pair{"use_sigma", useSigma_}})
    if (on)
      y << YAML::Key << key << YAML::Value << "true";
  // QuantConfig's check_number takes Python floats only: 4 is written 4.0.
  for (const auto &[key, v] : {std::pair{"fraction", fraction_},
                               std::pair{"sigma_factor", sigmaFactor_}, std::pair{"pr", pr_}})
    if (v) {
      ir::Value f = *v;
      f.isInteger = false;
      y << YAML::Key << key << YAML::Value << practiceNumber(f);
    }
  if (kvcache_)
    y << YAML::Key << "use_kvcache_quant" << YAML::Value << "true";
  // QuantConfig leaves the model's last Linear float unless told not to.
  if (lastLinearQuantized_)
    y << YAML::Key << "disable_last_linear" << YAML::Value << "false";
  writeNames(y, "disable_names", disable_);
  y << YAML::EndMap;
  if (!mix_.empty()) {
    y << YAML::Key << "calib_params" << YAML::Value << YAML::BeginMap << YAML::Key << "mix_cfg"
      << YAML::Value << YAML::BeginMap;
    for (const MixEntry &e : mix_)
      y << YAML::Key << YAML::DoubleQuoted << e.pattern->text << YAML::Value << YAML::DoubleQuoted
        << e.type;
    y << YAML::EndMap << YAML::EndMap;
  }
  if (options_.dataset)
    y << YAML::Key << "calib_dataset" << YAML::Value << YAML::DoubleQuoted
      << options_.dataset->text;
  if (antiDataset_)
    y << YAML::Key << "anti_dataset" << YAML::Value << YAML::DoubleQuoted << antiDataset_->text;
  if (options_.partFileSize)
    y << YAML::Key << "calib_save_params" << YAML::Value << YAML::BeginMap << YAML::Key
      << "part_file_size" << YAML::Value << practiceNumber(*options_.partFileSize) << YAML::EndMap;
  y << YAML::EndMap << YAML::EndMap;
  if (!finishPracticeYaml(y, target_, out, diags_))
    ok_ = false;
}

bool V0Writer::run(OutputContext &out) {
  if (!parsePracticeOptions(spec_, target_, options_, diags_))
    return false;
  checkOptions();
  if (spec_.resolution.done && spec_.inventory.present()) {
    planWithInventory();
    checkMixed();
  } else {
    planSymbolic();
  }
  if (ok_ && !recipe_)
    cannot(target_.range, "a spec with no quantized Linear",
           "calib_cfg always quantizes; use modelslim_v1");
  if (ok_)
    checkSparse();
  if (!ok_)
    return false;
  write(out);
  out.fileName = options_.configId + ".yaml";
  return ok_;
}

} // namespace

bool emitPracticeV0(const ir::Spec &spec, const ir::Target &target, OutputContext &out,
                    DiagnosticEngine &diags) {
  return V0Writer(spec, target, diags).run(out);
}

} // namespace qspec::emit
