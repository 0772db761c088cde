// `target amct kv`: the AMCT KV-cache calibration config (AMCTQuantCaliConfig). Its reading of the
// spec: a Linear module whose tier is int8 has its K/V output quantized (quant_layers); a float
// one is not listed; the act method picks the calibration (histogram = hfmg, ifmr), with the
// rule's `amct { ... }` settings (num_of_bins, search_range_*, search_step, max_percentile) and
// the act scope as quant_granularity. The recipe most quantized layers share is
// calibration_config; a layer with another one gets an override_layers_configs entry. Layers
// AMCT does not quantize here (not Linear) are skipped by the target reading pass with
// warn_amct_not_quantizable; other tiers are refused by TargetInfo::canExpress.
#include "emitters/amct/AmctEmitter.h"
#include "vendors/amct/AmctConfig.h"
#include "vendors/amct/AmctIntent.h"
#include "vendors/amct/AmctReader.h"

#include <map>

namespace qspec::emit {

namespace {

using namespace qspec::amct;

bool optionNumber(const ir::Option *o, double &out) {
  if (!o || o->values.size() != 1 || o->values[0].kind != ir::Value::Number)
    return false;
  out = o->values[0].number;
  return true;
}

// The key a recipe is grouped by (the most shared one becomes calibration_config).
std::string recipeKey(const Recipe &r) {
  auto num = [](const std::optional<double> &d) { return d ? std::to_string(*d) : "-"; };
  return r.actAlgo + "|" + (r.perChannelAct ? (*r.perChannelAct ? "c" : "t") : "-") + "|" +
         (r.asymmetric ? (*r.asymmetric ? "a" : "s") : "-") + "|" +
         (r.numOfBins ? std::to_string(*r.numOfBins) : "-") + "|" + num(r.searchStart) + "|" +
         num(r.searchEnd) + "|" + num(r.searchStep) + "|" + num(r.maxPercentile);
}

class KvWriter {
public:
  KvWriter(const ir::Spec &spec, const ir::Target &target, DiagnosticEngine &diags)
      : spec_(spec), target_(target), diags_(diags) {}

  bool run(std::string &text);

private:
  bool options(AmctDocument &doc);
  bool recipeOf(const ir::Module &m, const ir::ResolvedModule &rm, Recipe &r);
  bool symbolicLayers(std::vector<ir::Module> &mods, std::vector<ir::ResolvedModule> &rms);

  const ir::Spec &spec_;
  const ir::Target &target_;
  DiagnosticEngine &diags_;
};

bool KvWriter::options(AmctDocument &doc) {
  bool ok = true;
  for (const ir::Option &o : target_.options) {
    const std::string &v = o.values.size() == 1 ? o.values[0].text : ir::kUnsetWord;
    if (o.key == "batch_num") {
      double n = 0;
      if (!optionNumber(&o, n) || !o.values[0].isInteger || n < 1 || n > 4294967295.0) {
        diags_.report(DiagID::err_amct_option_value, o.range,
                      {v, o.key, "a positive whole number"});
        ok = false;
      } else {
        doc.batchNum = static_cast<uint32_t>(n);
      }
    } else if (o.key == "activation_offset") {
      if (v != "true" && v != "false") {
        diags_.report(DiagID::err_amct_option_value, o.range, {v, o.key, "true or false"});
        ok = false;
      } else {
        doc.activationOffset = v == "true";
      }
    } else if (o.key != "framework" && o.key != "version" && o.key != "hardware" &&
               o.key != "act_algo") {
      diags_.report(DiagID::err_amct_option_variant, o.range, {o.key, "ptq or qat"});
      ok = false;
    }
  }
  return ok;
}

bool KvWriter::recipeOf(const ir::Module &m, const ir::ResolvedModule &rm, Recipe &r) {
  MethodChoice c = methodChoice(target_, rm, false, ConfigKind::KVCache);
  // No method named anywhere: AMCT's default, ifmr. A method AMCT has no word for: refused.
  std::string_view algo = c.word ? algorithmOf(*c.word, false, ConfigKind::KVCache)
                          : rm.act.method.value.empty() ? std::string_view("ifmr")
                                                        : std::string_view();
  if (algo.empty()) {
    diags_.report(DiagID::err_amct_method, rm.act.method.from.range(),
                  {"KV-cache", "activation", rm.act.method.value.str(), m.name,
                   algorithmList(false, ConfigKind::PTQ)});
    return false;
  }
  // A KV-cache config has no weight field: a rule's weight setting would be dropped.
  for (const ir::Decided<ir::Word> *w : {&rm.weight.dtype, &rm.weight.scope, &rm.weight.method})
    if (!w->value.empty() && decisionRank(w->from.source) > 1) {
      diags_.report(DiagID::err_amct_option_value, w->from.range(),
                    {w->value.str(), "weight",
                     "an AMCT KV-cache config quantizes a Linear's K/V output, not its weights "
                     "(module '" +
                         m.name + "')"});
      return false;
    }
  r.present = true;
  r.actAlgo = std::string(algo);
  const std::string &scope = rm.act.scope.value.str();
  if (scope == "per_channel" || scope == "per_tensor")
    r.perChannelAct = scope == "per_channel";
  else if (!scope.empty()) {
    diags_.report(DiagID::err_amct_option_value, rm.act.scope.from.range(),
                  {scope, "act scope",
                   "an AMCT KV-cache config quantizes per_tensor or "
                   "per_channel (quant_granularity)"});
    return false;
  }
  r.asymmetric = !rm.act.symmetric.value;
  double d = 0;
  const auto &blocks = rm.targetOptions;
  if (algo == "hfmg" && optionNumber(ruleSetting(blocks, "num_of_bins"), d))
    r.numOfBins = static_cast<uint32_t>(d);
  if (algo == "ifmr") {
    if (optionNumber(ruleSetting(blocks, "search_range_start"), d))
      r.searchStart = d;
    if (optionNumber(ruleSetting(blocks, "search_range_end"), d))
      r.searchEnd = d;
    if (optionNumber(ruleSetting(blocks, "search_step"), d))
      r.searchStep = d;
    if (optionNumber(ruleSetting(blocks, "max_percentile"), d))
      r.maxPercentile = d;
  }
  return true;
}

// Without an inventory: each exact name a rule writes, resolved symbolically, read as a Linear.
// quant_layers lists names, so what selects modules by pattern or by type (or the defaults)
// with tier int8 needs an inventory; a Linear type rule would reach names of unknown type.
bool KvWriter::symbolicLayers(std::vector<ir::Module> &mods, std::vector<ir::ResolvedModule> &rms) {
  if (spec_.defaultTier() == ir::Tier::Int8) {
    diags_.report(DiagID::err_emit_needs_inventory,
                  spec_.defaults.tier ? spec_.defaults.tierRange : target_.range,
                  {"an AMCT KV-cache config (quant_layers)", "*"});
    return false;
  }
  for (const ir::SymbolicEntry &e : spec_.resolution.symbolic) {
    const ir::Selector *sel = e.selectors.empty() ? nullptr : e.selectors.front();
    bool literal = sel && !e.isType && ir::literalName(*sel);
    if (!literal && (e.isType ? e.text == "Linear" : e.module.tier.value == ir::Tier::Int8)) {
      diags_.report(DiagID::err_emit_needs_inventory, sel ? sel->range : target_.range,
                    {"an AMCT KV-cache config (quant_layers)", e.text});
      return false;
    }
    if (!literal)
      continue;
    ir::Module m;
    m.name = e.text;
    mods.push_back(std::move(m));
    rms.push_back(e.module);
  }
  return true;
}

bool KvWriter::run(std::string &text) {
  AmctDocument doc;
  doc.kind = ConfigKind::KVCache;
  if (!options(doc))
    return false;
  std::vector<ir::Module> symbolic; // without an inventory: the names the rules write
  std::vector<ir::ResolvedModule> symbolicRm;
  if (!spec_.resolution.done && !symbolicLayers(symbolic, symbolicRm))
    return false;
  const auto &mods = spec_.resolution.done ? spec_.inventory.modules : symbolic;
  std::vector<std::pair<size_t, Recipe>> quantized;
  std::map<std::string, size_t> count;
  std::vector<std::string> order;
  bool ok = true;
  for (size_t i = 0; i < mods.size(); ++i) {
    ir::ResolvedModule rm =
        spec_.resolution.done ? spec_.expectedModule(target_, i) : symbolicRm[i];
    if ((spec_.resolution.done && mods[i].type != "Linear") || rm.tier.value != ir::Tier::Int8)
      continue; // float, or skipped by the target reading pass (warn_amct_not_quantizable)
    Recipe r;
    if (!recipeOf(mods[i], rm, r)) {
      ok = false;
      continue;
    }
    std::string key = recipeKey(r);
    if (count[key]++ == 0)
      order.push_back(key);
    quantized.emplace_back(i, std::move(r));
  }
  if (!ok)
    return false;
  std::string common;
  size_t best = 0;
  for (const std::string &k : order)
    if (count[k] > best) {
      best = count[k];
      common = k;
    }
  for (auto &[i, r] : quantized) {
    doc.kvQuantLayers.push_back(Entry{mods[i].name});
    if (!doc.global.present && recipeKey(r) == common)
      doc.global = r;
    else if (recipeKey(r) != common)
      doc.nameOverrides.push_back(Override{mods[i].name, std::move(r)});
  }
  std::string file = "# AMCT KV-cache (AMCTQuantCaliConfig). Generated by qcc; do not edit.\n" +
                     printAmctConfig(std::move(doc));
  AmctDocument back;
  std::vector<ParseError> errors;
  if (!parseAmctConfigAs(file, ConfigKind::KVCache, back, errors)) {
    diags_.report(DiagID::err_amct_roundtrip, target_.range,
                  {errors.empty() ? "unknown error" : errors[0].message});
    return false;
  }
  CheckOptions co;
  co.pytorchTypes = true;
  std::string tiedHead;
  if (spec_.resolution.done)
    amct::addInventoryLayers(spec_.inventory, spec_.modelConfig, co, tiedHead);
  for (const Finding &f : checkDocument(back, co)) {
    if (f.level == Finding::Error) {
      diags_.report(DiagID::err_amct_check, target_.range, {checkName(f.check), f.message});
      ok = false;
    } else {
      diags_.report(DiagID::warn_amct_check, target_.range, {checkName(f.check), f.message});
    }
  }
  if (!ok)
    return false;
  rememberParsed(file, ConfigKind::KVCache, std::move(back));
  text = std::move(file);
  return true;
}

} // namespace

bool emitAmctKv(const ir::Spec &spec, const ir::Target &target, DiagnosticEngine &diags,
                std::string &text) {
  KvWriter w(spec, target, diags);
  return w.run(text);
}

} // namespace qspec::emit
