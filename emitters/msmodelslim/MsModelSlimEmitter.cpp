// The msmodelslim-yaml emitter: a practice YAML for `msmodelslim quant`.
//
// 1. Read the target settings (apiversion, config_id, metadata, save, dataset, runner,
//    anti_outlier, default_text, include) and check each against msModelSlim's rules
//    (MsModelSlimRules.h); the file name is `<config_id>.yaml`.
// 2. With an inventory: group the quantized modules (tier int4/int8) by their resolved qconfig;
//    one `linear_quant` per group. The excluded set is every module whose tier is float
//    (protected ∪ tuning). Each group's `include` and the shared `exclude` are compressed into
//    patterns (subtree `prefix.*`, numeric brace ranges) and verified with ir::Pattern, which has
//    msModelSlim's matching: an include may select only its own modules, float modules (the
//    exclude wins) or modules msModelSlim does not quantize (non-Linear); an exclude only float or
//    non-Linear modules. A failed verification falls back to the verified exact names.
// 3. Without an inventory: the rules as written. The default recipe becomes a `linear_quant` with
//    include ["*"] (or the target's include); each name override with an int4/int8 recipe its own
//    entry before it; the later entries exclude the earlier entries' patterns so no module is in
//    two entries; float overrides, protects and tuning excludes go into every exclude.
// 4. Every qconfig is checked against the registered-quantizer table, every written string
//    against the character whitelist; then yaml-cpp writes the document (strings double-quoted).
#include "emitters/msmodelslim/MsModelSlimEmitter.h"

#include "vendors/msmodelslim/MsModelSlimRules.h"
#include "ir/Select.h"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <set>

namespace qspec::emit {

namespace {

using msmodelslim::QConfig;
using msmodelslim::Want;

} // namespace

namespace {

// ---- Emission -----------------------------------------------------------------------------------

struct Entry {
  QConfig weight;
  std::optional<QConfig> act;
  std::map<std::string, std::string> weightExt;
  ir::Tier tier = ir::Tier::Int8;
  std::vector<uint32_t> members;         // with an inventory
  std::vector<std::string> include;      // patterns
  std::vector<std::string> extraExclude; // without inventory: earlier entries' includes
  std::string key() const {
    std::string k = weight.dtype + "/" + weight.scope + "/" + (weight.symmetric ? "s" : "a") + "/" +
                    weight.method;
    if (act)
      k += "|" + act->dtype + "/" + act->scope + "/" + (act->symmetric ? "s" : "a") + "/" +
           act->method;
    for (const auto &[a, b] : weightExt)
      k += "|" + a + "=" + b;
    return k;
  }
};

class Builder {
public:
  Builder(const ir::Spec &spec, const ir::Target &target, DiagnosticEngine &diags)
      : spec_(spec), target_(target), diags_(diags) {}

  bool run(OutputContext &out);

private:
  const ir::Spec &spec_;
  const ir::Target &target_;
  DiagnosticEngine &diags_;
  bool ok_ = true;

  std::string apiversion_ = "modelslim_v1";
  std::string configId_;
  std::vector<Entry> entries_;
  std::vector<std::string> exclude_;

  SourceRange at(const ir::Option *o) const { return o ? o->range : target_.range; }
  SourceRange valueAt(const ir::Option *o) const {
    return o && !o->values.empty() ? o->values.front().range : at(o);
  }
  void bad(const ir::Option *o, const std::string &why) {
    diags_.report(DiagID::err_msmodelslim_bad_option, valueAt(o), {o ? o->key : "", why});
    ok_ = false;
  }
  std::optional<std::string> single(const char *key) {
    const ir::Option *o = target_.option(key);
    if (!o)
      return std::nullopt;
    if (o->isBlock || o->values.size() != 1) {
      bad(o, "expects one value");
      return std::nullopt;
    }
    return o->values.front().text;
  }
  void whitelist(const std::string &what, const std::string &text, SourceRange where) {
    size_t bad = msmodelslim::firstNonWhitelisted(text);
    if (bad == std::string::npos)
      return;
    diags_.report(DiagID::err_msmodelslim_not_whitelisted, where,
                  {what, text, msmodelslim::describeByte(static_cast<unsigned char>(text[bad]))});
    ok_ = false;
  }

  // The qconfig of module m (inventory) from its resolved recipe.
  bool qconfigOf(const ir::ResolvedModule &rm, const std::string &name, Entry &e);
  bool qconfigOfSettings(ir::Tier tier, const ir::Recipe &w, const ir::Recipe &a,
                         const std::string &name, SourceRange where, Entry &e);
  bool checkEntry(const Entry &e, const std::string &name, SourceRange wr, SourceRange ar);
  void resolveWithInventory();
  void resolveAsWritten();
  void writeYaml(OutputContext &out);
};

const std::map<std::string, std::string> *extOf(const ir::Spec &spec, const ir::Decision &d) {
  if (d.source == ir::Decision::Default)
    return &spec.defaults.weight.ext;
  if ((d.source == ir::Decision::TypeOverride || d.source == ir::Decision::NameOverride) &&
      d.index >= 0 && static_cast<size_t>(d.index) < spec.overrides.size())
    return &spec.overrides[d.index].settings.weight.ext;
  return nullptr;
}

std::string weightDtypeFor(ir::Tier tier, const std::string &dtype) {
  // The tier decides the integer width; a non-integer dtype (mxfp4, fp8_e4m3...) is kept.
  if (!dtype.empty() && dtype != "int4" && dtype != "int8")
    return dtype;
  return tier == ir::Tier::Int4 ? "int4" : "int8";
}

bool Builder::checkEntry(const Entry &e, const std::string &name, SourceRange wr, SourceRange ar) {
  bool good = true;
  std::string why;
  if (e.act && !msmodelslim::checkQConfig(msmodelslim::Role::Act, *e.act, why)) {
    Diagnostic &d = diags_.report(DiagID::err_msmodelslim_illegal_qconfig,
                                  ar.valid() ? ar : target_.range, {"act", name, why});
    (void)d;
    good = false;
  }
  if (!msmodelslim::checkQConfig(msmodelslim::Role::Weight, e.weight, why)) {
    diags_.report(DiagID::err_msmodelslim_illegal_qconfig, wr.valid() ? wr : target_.range,
                  {"weight", name, why});
    good = false;
  }
  for (const auto &[k, v] : e.weightExt) {
    whitelist("weight ext key", k, wr.valid() ? wr : target_.range);
    whitelist("weight ext value", v, wr.valid() ? wr : target_.range);
  }
  ok_ = ok_ && good;
  return good;
}

bool Builder::qconfigOf(const ir::ResolvedModule &rm, const std::string &name, Entry &e) {
  e.tier = rm.tier.value;
  const std::string &wd = rm.weight.dtype.value;
  if ((wd == "int4" || wd == "int8") && wd != ir::tierName(rm.tier.value) &&
      rm.weight.dtype.from.source != ir::Decision::BuiltIn &&
      rm.weight.dtype.from.source >= rm.tier.from.source &&
      rm.tier.from.source != ir::Decision::BuiltIn &&
      rm.weight.dtype.from.index == rm.tier.from.index &&
      rm.weight.dtype.from.source == rm.tier.from.source) {
    // The same rule says `tier int8` and `weight int4`.
    diags_.report(DiagID::err_msmodelslim_tier_dtype,
                  rm.weight.dtype.from.range().valid() ? rm.weight.dtype.from.range() : target_.range,
                  {name, ir::tierName(rm.tier.value), wd});
    ok_ = false;
    return false;
  }
  e.weight.dtype = weightDtypeFor(rm.tier.value, wd);
  e.weight.scope = rm.weight.scope.value.empty() ? "per_channel" : rm.weight.scope.value.str();
  e.weight.symmetric =
      rm.weight.symmetric.from.source == ir::Decision::BuiltIn ? true : rm.weight.symmetric.value;
  e.weight.method = rm.weight.method.value.empty() ? "minmax" : rm.weight.method.value.str();
  if (const auto *ext = extOf(spec_, rm.weight.scope.from))
    e.weightExt = *ext;
  else if (const auto *ext2 = extOf(spec_, rm.weight.dtype.from))
    e.weightExt = *ext2;
  const std::string &ad = rm.act.dtype.value;
  if (!ad.empty() && ad != "float" && ad != "fp16" && ad != "bf16") {
    QConfig a;
    a.dtype = ad;
    a.scope = rm.act.scope.value.empty() ? "per_tensor" : rm.act.scope.value.str();
    a.symmetric =
        rm.act.symmetric.from.source == ir::Decision::BuiltIn ? true : rm.act.symmetric.value;
    a.method = rm.act.method.value.empty() ? "minmax" : rm.act.method.value.str();
    e.act = a;
  }
  return true;
}

bool Builder::qconfigOfSettings(ir::Tier tier, const ir::Recipe &w, const ir::Recipe &a,
                                const std::string &name, SourceRange where, Entry &e) {
  (void)where;
  e.tier = tier;
  e.weight.dtype = weightDtypeFor(tier, w.dtype.value_or(""));
  e.weight.scope = w.scope.value_or("per_channel");
  e.weight.symmetric = w.symmetric.value_or(true);
  e.weight.method = w.method.value_or("minmax");
  e.weightExt = w.ext;
  if (a.dtype && *a.dtype != "float" && *a.dtype != "fp16" && *a.dtype != "bf16") {
    QConfig q;
    q.dtype = *a.dtype;
    q.scope = a.scope.value_or("per_tensor");
    q.symmetric = a.symmetric.value_or(true);
    q.method = a.method.value_or("minmax");
    e.act = q;
  }
  return checkEntry(e, name, w.range, a.range);
}

bool quantizedByMsModelSlim(const ir::Module &m) { return m.type.empty() || m.type == "Linear"; }

void Builder::resolveWithInventory() {
  const ir::Inventory &inv = spec_.inventory;
  const auto &res = spec_.resolution;
  // The target's own include narrows the scope: modules it does not select stay unquantized.
  std::vector<bool> inScope(inv.modules.size(), true);
  if (const ir::Option *inc = target_.option("include")) {
    std::fill(inScope.begin(), inScope.end(), false);
    for (const ir::Value &v : inc->values) {
      std::string err;
      auto p = Pattern::compile(v.text, err);
      if (!p) {
        diags_.report(DiagID::err_msmodelslim_bad_option, v.range, {"include", err});
        ok_ = false;
        continue;
      }
      for (size_t m = 0; m < inv.modules.size(); ++m)
        inScope[m] = inScope[m] || inv.modules[m].name == v.text || p->matches(inv.modules[m].name);
    }
  }
  // Group modules by qconfig. Reports at most one illegal qconfig per distinct recipe.
  std::map<std::string, size_t> byKey;
  std::set<std::string> reported;
  std::vector<uint32_t> floats;
  for (uint32_t m = 0; m < inv.modules.size(); ++m) {
    const ir::ResolvedModule &rm = res.modules[m];
    if (rm.tier.value == ir::Tier::Float) {
      floats.push_back(m);
      continue;
    }
    if (!quantizedByMsModelSlim(inv.modules[m]) || !inScope[m])
      continue;
    Entry e;
    if (!qconfigOf(rm, inv.modules[m].name, e))
      continue;
    std::string k = e.key();
    if (!byKey.count(k)) {
      if (!reported.insert(k).second)
        continue;
      SourceRange wr = rm.weight.scope.from.range().valid() ? rm.weight.scope.from.range()
                                                          : rm.weight.dtype.from.range();
      SourceRange ar = rm.act.dtype.from.range();
      if (!checkEntry(e, inv.modules[m].name, wr.valid() ? wr : rm.tier.from.range(), ar))
        continue;
      byKey[k] = entries_.size();
      entries_.push_back(e);
    }
    entries_[byKey[k]].members.push_back(m);
  }
  // Entry order: the default tier's largest entry first, then by tier and qconfig (stable).
  std::sort(entries_.begin(), entries_.end(), [&](const Entry &a, const Entry &b) {
    bool da = a.tier == spec_.defaultTier(), db = b.tier == spec_.defaultTier();
    if (da != db)
      return da;
    if (a.tier != b.tier)
      return a.tier < b.tier;
    if (a.members.size() != b.members.size())
      return a.members.size() > b.members.size();
    return a.key() < b.key();
  });
  std::vector<int32_t> entryOf(inv.modules.size(), -1);
  for (size_t i = 0; i < entries_.size(); ++i)
    for (uint32_t m : entries_[i].members)
      entryOf[m] = static_cast<int32_t>(i);
  std::vector<bool> isFloat(inv.modules.size(), false);
  for (uint32_t m : floats)
    isFloat[m] = true;
  msmodelslim::SelectionCompressor compressor(inv, ir::sharedSelector(spec_));
  // Includes.
  for (size_t i = 0; i < entries_.size(); ++i) {
    std::vector<Want> want(inv.modules.size(), Want::DontCare);
    for (size_t m = 0; m < inv.modules.size(); ++m) {
      if (entryOf[m] == static_cast<int32_t>(i))
        want[m] = Want::Must;
      else if (isFloat[m] || !quantizedByMsModelSlim(inv.modules[m]))
        want[m] = Want::DontCare;
      else
        want[m] = Want::Forbid; // another entry's module, or out of the target's include
    }
    bool verified = false;
    entries_[i].include = compressor.compress(want, verified);
    if (!verified) {
      diags_.report(DiagID::err_internal, target_.range,
                    {"msmodelslim include patterns failed verification"});
      ok_ = false;
    }
  }
  // Exclude: protected ∪ tuning (every float module).
  std::vector<Want> want(inv.modules.size(), Want::DontCare);
  for (size_t m = 0; m < inv.modules.size(); ++m)
    want[m] = isFloat[m]                               ? Want::Must
              : quantizedByMsModelSlim(inv.modules[m]) ? Want::Forbid
                                                       : Want::DontCare;
  bool verified = false;
  exclude_ = compressor.compress(want, verified);
  if (!verified) {
    diags_.report(DiagID::err_internal, target_.range,
                  {"msmodelslim exclude patterns failed verification"});
    ok_ = false;
  }
  // Whitelist every written pattern; name a module it stands for.
  auto checkList = [&](const std::vector<std::string> &pats) {
    for (const auto &p : pats) {
      size_t bad = msmodelslim::firstNonWhitelisted(p);
      if (bad == std::string::npos)
        continue;
      std::string who = p;
      SourceRange where = target_.range;
      std::string err;
      if (auto cp = Pattern::compile(p, err))
        for (size_t m = 0; m < inv.modules.size(); ++m) {
          const ir::Module &mod = inv.modules[m];
          if ((mod.name == p || cp->matches(mod.name)) &&
              msmodelslim::firstNonWhitelisted(mod.name) != std::string::npos) {
            who = mod.name;
            // Point at the rule that decided the module's tier (why it is written here).
            if (res.modules[m].tier.from.range().valid())
              where = res.modules[m].tier.from.range();
            break;
          }
        }
      diags_.report(
          DiagID::err_msmodelslim_not_whitelisted, where,
          {"module name", who, msmodelslim::describeByte(static_cast<unsigned char>(p[bad]))});
      ok_ = false;
    }
  };
  for (const Entry &e : entries_)
    checkList(e.include);
  checkList(exclude_);
}

void Builder::resolveAsWritten() {
  // Exclude: protects, float name overrides, tuning excludes and raises to float.
  std::vector<std::string> excl;
  std::set<std::string> seen;
  auto addExcl = [&](const ir::Selector &s) {
    if (s.kind == ir::Selector::Type) {
      if (s.text != "Linear")
        return; // msModelSlim quantizes only nn.Linear: other types are excluded already
      diags_.report(DiagID::err_emit_needs_inventory, s.range, {"msmodelslim", "type " + s.text});
      ok_ = false;
      return;
    }
    whitelist("pattern", s.text, s.range);
    if (seen.insert(s.text).second)
      excl.push_back(s.text);
  };
  for (const ir::Protect &p : spec_.protects)
    addExcl(p.selector);
  for (const ir::Selector &s : spec_.tune.excludes)
    addExcl(s);
  for (const ir::TuningRaise &r : spec_.tune.raises)
    if (r.tier == ir::Tier::Float)
      for (const ir::Selector &s : r.selectors)
        addExcl(s);
  // Defaults, with a type override on Linear folded in (it applies to every quantized module).
  ir::Tier dtier = spec_.defaultTier();
  ir::Recipe w = spec_.defaults.weight, a = spec_.defaults.act;
  auto fold = [](ir::Recipe &into, const ir::Recipe &from) {
    if (from.dtype)
      into.dtype = from.dtype;
    if (from.scope)
      into.scope = from.scope;
    if (from.symmetric)
      into.symmetric = from.symmetric;
    if (from.method)
      into.method = from.method;
    for (const auto &kv : from.ext)
      into.ext[kv.first] = kv.second;
    if (from.range.valid())
      into.range = from.range;
  };
  std::vector<const ir::Override *> names;
  for (const ir::Override &o : spec_.overrides) {
    if (o.level == ir::Override::Type) {
      if (o.selectors.empty() || o.selectors.front().text != "Linear")
        continue;
      if (o.settings.tier)
        dtier = *o.settings.tier;
      fold(w, o.settings.weight);
      fold(a, o.settings.act);
    } else {
      names.push_back(&o);
    }
  }
  std::stable_sort(names.begin(), names.end(), [](const ir::Override *x, const ir::Override *y) {
    return x->priority > y->priority;
  });
  std::vector<std::string> earlier; // includes of earlier (higher-precedence) entries
  // Tuning raises to a quantized tier come first: the tuning state beats name overrides.
  for (const ir::TuningRaise &r : spec_.tune.raises) {
    if (r.tier == ir::Tier::Float)
      continue;
    Entry e;
    std::string label = r.selectors.empty() ? "" : r.selectors.front().text;
    ir::Recipe rw = w;
    if (!rw.range.valid())
      rw.range = r.range;
    if (!qconfigOfSettings(r.tier, rw, a, label, r.range, e))
      continue;
    for (const ir::Selector &sel : r.selectors) {
      whitelist("pattern", sel.text, sel.range);
      e.include.push_back(sel.text);
    }
    e.extraExclude = earlier;
    earlier.insert(earlier.end(), e.include.begin(), e.include.end());
    entries_.push_back(std::move(e));
  }
  for (const ir::Override *o : names) {
    ir::Tier t = o->settings.tier.value_or(dtier);
    if (t == ir::Tier::Float) {
      for (const ir::Selector &s : o->selectors)
        addExcl(s);
      continue;
    }
    if (o->settings.weight.empty() && o->settings.act.empty() && !o->settings.tier)
      continue; // only target options: nothing for msModelSlim
    ir::Recipe ow = w, oa = a;
    fold(ow, o->settings.weight);
    fold(oa, o->settings.act);
    if (!o->settings.weight.range.valid())
      ow.range = o->range;
    Entry e;
    std::string label = o->selectors.empty() ? "" : o->selectors.front().text;
    if (!qconfigOfSettings(t, ow, oa, label, o->range, e))
      continue;
    for (const ir::Selector &s : o->selectors) {
      if (s.kind == ir::Selector::Type)
        continue;
      whitelist("pattern", s.text, s.range);
      e.include.push_back(s.text);
    }
    e.extraExclude = earlier;
    earlier.insert(earlier.end(), e.include.begin(), e.include.end());
    entries_.push_back(std::move(e));
  }
  Entry d;
  if (dtier != ir::Tier::Float &&
      qconfigOfSettings(dtier, w, a, "the default", spec_.defaultsRange, d)) {
    if (const ir::Option *inc = target_.option("include")) {
      for (const ir::Value &v : inc->values) {
        whitelist("pattern", v.text, v.range);
        d.include.push_back(v.text);
      }
    } else {
      d.include = {"*"};
    }
    d.extraExclude = earlier;
    entries_.push_back(std::move(d));
  }
  exclude_ = excl;
}

bool Builder::run(OutputContext &out) {
  // 1. Target settings.
  if (auto v = single("apiversion")) {
    if (!msmodelslim::isEmittableApiVersion(*v)) {
      diags_.report(DiagID::err_msmodelslim_bad_apiversion, valueAt(target_.option("apiversion")),
                    {*v});
      ok_ = false;
    } else {
      apiversion_ = *v;
    }
  }
  bool vlm = apiversion_ == "multimodal_vlm_modelslim_v1";
  configId_ = std::filesystem::path(spec_.path).stem().string();
  SourceRange idAt = target_.range;
  if (auto v = single("config_id")) {
    configId_ = *v;
    idAt = valueAt(target_.option("config_id"));
  }
  std::string why;
  if (!msmodelslim::checkConfigId(configId_, why)) {
    diags_.report(DiagID::err_msmodelslim_bad_config_id, idAt, {configId_, why});
    ok_ = false;
  }
  if (const ir::Option *o = target_.option("score")) {
    if (o->values.size() != 1 || o->values[0].kind != ir::Value::Number || o->values[0].number < 0)
      bad(o, "score is a number >= 0");
  }
  if (const ir::Option *o = target_.option("save")) {
    if (o->values.size() != 1 || !msmodelslim::isKnownSaver(o->values[0].text, "modelslim_v1") ||
        (!vlm && o->values[0].text == "mindie_format_saver" && false))
      bad(o,
          "saver '" + (o->values.empty() ? std::string() : o->values[0].text) +
              "' is not one msModelSlim accepts here; use ascendv1_saver, mindie_format_saver or "
              "compressed_tensors (distributed savers are not emitted)");
  }
  if (const ir::Option *o = target_.option("part_file_size")) {
    if (o->values.size() != 1 || o->values[0].kind != ir::Value::Number ||
        !o->values[0].isInteger || o->values[0].number < 0)
      bad(o, "part_file_size is a whole number of GB >= 0 (0 = one file)");
  }
  if (const ir::Option *o = target_.option("runner")) {
    if (o->values.size() != 1 || !msmodelslim::isKnownRunner(o->values[0].text))
      bad(o, "runner is one of auto, model_wise, layer_wise, dp_layer_wise");
    else if (vlm && o->values[0].text != "layer_wise")
      bad(o, "multimodal_vlm_modelslim_v1 forces runner layer_wise");
  }
  if (const ir::Option *o = target_.option("dataset")) {
    if (o->values.size() != 1 || o->values[0].text.empty() || o->values[0].text.size() > 4096)
      bad(o, "dataset is one non-empty path of at most 4096 characters");
    else
      whitelist("dataset", o->values[0].text, o->values[0].range);
  }
  if (const ir::Option *o = target_.option("default_text")) {
    if (!vlm)
      bad(o, "default_text exists only under apiversion multimodal_vlm_modelslim_v1");
    else if (o->values.size() != 1 ||
             o->values[0].text.find_first_not_of(" \t") == std::string::npos)
      bad(o, "default_text must not be blank");
    else
      whitelist("default_text", o->values[0].text, o->values[0].range);
  }
  if (const ir::Option *o = target_.option("verified_model_types"))
    for (const ir::Value &v : o->values) {
      if (v.text.size() > 200)
        bad(o, "each model type has at most 200 characters");
      whitelist("verified_model_types entry", v.text, v.range);
    }
  if (const ir::Option *o = target_.option("label")) {
    static const std::set<std::string> kLabel = {"w_bit",    "a_bit",  "is_sparse",
                                                 "kv_cache", "fa_bit", "fa_quant"};
    if (!o->isBlock)
      bad(o, "label is a block such as 'label { w_bit 8; a_bit 8 }'");
    for (const ir::Option &c : o->children)
      if (!kLabel.count(c.key) || c.values.size() != 1) {
        diags_.report(
            DiagID::err_msmodelslim_bad_option, c.range,
            {"label." + c.key,
             "label keys are w_bit, a_bit, is_sparse, kv_cache, fa_bit, fa_quant, one value each"});
        ok_ = false;
      }
  }
  if (const ir::Option *o = target_.option("anti_outlier")) {
    for (const ir::Value &v : o->values)
      if (!msmodelslim::isAntiOutlierProcessor(v.text)) {
        diags_.report(DiagID::err_msmodelslim_unknown_processor, v.range,
                      {v.text, msmodelslim::antiOutlierList()});
        ok_ = false;
      }
    for (const ir::Option &c : o->children) {
      if (!msmodelslim::isAntiOutlierProcessor(c.key)) {
        diags_.report(DiagID::err_msmodelslim_unknown_processor, c.keyRange,
                      {c.key, msmodelslim::antiOutlierList()});
        ok_ = false;
        continue;
      }
      for (const ir::Option &p : c.children) {
        const ir::Value *v = p.values.size() == 1 ? &p.values[0] : nullptr;
        bool numeric = v && v->kind == ir::Value::Number;
        std::string k = c.key + "." + p.key;
        if ((p.key == "alpha" || p.key == "beta") &&
            (!numeric || !(v->number > 0 && v->number < 1))) {
          diags_.report(DiagID::err_msmodelslim_bad_option, p.range,
                        {k, p.key + " must be in the range (0, 1)"});
          ok_ = false;
        } else if (p.key == "scale_min" && (!numeric || !(v->number > 0 && v->number < 1))) {
          diags_.report(DiagID::err_msmodelslim_bad_option, p.range,
                        {k, "scale_min must be in the range (0, 1)"});
          ok_ = false;
        } else if (p.key == "block_size") {
          long long x = numeric && v->isInteger ? static_cast<long long>(v->number) : 0;
          if (x != -1 && (x <= 0 || (x & (x - 1)) != 0)) {
            diags_.report(DiagID::err_msmodelslim_bad_option, p.range,
                          {k, "block_size must be -1 or a positive power of 2, got " +
                                  (v ? v->text : std::string("nothing"))});
            ok_ = false;
          }
        } else if (p.key != "alpha" && p.key != "beta" && p.key != "scale_min" &&
                   p.key != "block_size" && p.key != "symmetric" && p.key != "online" &&
                   p.key != "max_tp_size") {
          diags_.report(DiagID::err_msmodelslim_bad_option, p.keyRange,
                        {k, "unknown processor setting; qspec writes alpha, beta, scale_min, "
                            "symmetric, block_size, online, max_tp_size"});
          ok_ = false;
        }
      }
    }
  }
  if (!ok_)
    return false;

  // 2./3. Entries and excludes.
  if (spec_.resolution.done && spec_.inventory.present())
    resolveWithInventory();
  else
    resolveAsWritten();
  if (!ok_)
    return false;
  writeYaml(out);
  out.fileName = configId_ + ".yaml";
  return ok_;
}

void emitQConfig(YAML::Emitter &y, const char *role, const QConfig &q,
                 const std::map<std::string, std::string> *ext) {
  y << YAML::Key << role << YAML::Value << YAML::BeginMap;
  y << YAML::Key << "scope" << YAML::Value << YAML::DoubleQuoted << q.scope;
  y << YAML::Key << "dtype" << YAML::Value << YAML::DoubleQuoted << q.dtype;
  y << YAML::Key << "symmetric" << YAML::Value << (q.symmetric ? "true" : "false");
  y << YAML::Key << "method" << YAML::Value << YAML::DoubleQuoted << q.method;
  if (ext && !ext->empty()) {
    y << YAML::Key << "ext" << YAML::Value << YAML::BeginMap;
    for (const auto &[k, v] : *ext) {
      y << YAML::Key << k << YAML::Value;
      bool number = !v.empty() && v.find_first_not_of("0123456789") == std::string::npos;
      if (number)
        y << v;
      else
        y << YAML::DoubleQuoted << v;
    }
    y << YAML::EndMap;
  }
  y << YAML::EndMap;
}

void emitStringList(YAML::Emitter &y, const char *key, const std::vector<std::string> &items) {
  y << YAML::Key << key << YAML::Value;
  if (items.empty())
    y << YAML::Flow;
  y << YAML::BeginSeq;
  for (const auto &s : items)
    y << YAML::DoubleQuoted << s;
  y << YAML::EndSeq;
}

// A number as PyYAML's SafeLoader reads it back: integers without leading zeros (007 would be
// octal), floats always with a '.' and a signed exponent (1e-5 alone loads as a string).
std::string yamlNumber(const ir::Value &v) {
  if (v.isInteger)
    return std::to_string(static_cast<long long>(v.number));
  char buf[40];
  for (int prec = 1; prec <= 17; ++prec) {
    std::snprintf(buf, sizeof buf, "%.*g", prec, v.number);
    if (std::strtod(buf, nullptr) == v.number)
      break;
  }
  std::string s = buf;
  size_t e = s.find_first_of("eE");
  std::string mant = e == std::string::npos ? s : s.substr(0, e);
  std::string exp = e == std::string::npos ? "" : s.substr(e);
  if (mant.find('.') == std::string::npos && mant.find("inf") == std::string::npos &&
      mant.find("nan") == std::string::npos)
    mant += ".0";
  return mant + exp;
}

void emitOptionValue(YAML::Emitter &y, const ir::Value &v) {
  if (v.kind == ir::Value::Number)
    y << yamlNumber(v);
  else if (v.kind == ir::Value::Ident && (v.text == "true" || v.text == "false"))
    y << v.text;
  else
    y << YAML::DoubleQuoted << v.text;
}

int bitsOf(const std::string &dtype) {
  if (dtype == "int4" || dtype == "mxfp4")
    return 4;
  if (dtype == "int8" || dtype == "fp8_e4m3" || dtype == "mxfp8")
    return 8;
  return 16;
}

void Builder::writeYaml(OutputContext &out) {
  YAML::Emitter y;
  y.SetIndent(2);
  y << YAML::BeginMap;
  y << YAML::Key << "apiversion" << YAML::Value << YAML::DoubleQuoted << apiversion_;
  // metadata: config_id, score, label, verified_model_types (five keys at most, 1.2).
  y << YAML::Key << "metadata" << YAML::Value << YAML::BeginMap;
  y << YAML::Key << "config_id" << YAML::Value << YAML::DoubleQuoted << configId_;
  if (const ir::Option *o = target_.option("score"))
    y << YAML::Key << "score" << YAML::Value << yamlNumber(o->values[0]);
  y << YAML::Key << "label" << YAML::Value << YAML::BeginMap;
  const Entry *main = entries_.empty() ? nullptr : &entries_.front();
  if (!spec_.resolution.done && !entries_.empty())
    main = &entries_.back(); // as written: the default entry is last
  std::map<std::string, const ir::Value *> given;
  if (const ir::Option *o = target_.option("label"))
    for (const ir::Option &c : o->children)
      given[c.key] = &c.values[0];
  auto labelKey = [&](const char *k, const std::string &dflt, bool isBool) {
    y << YAML::Key << k << YAML::Value;
    if (auto it = given.find(k); it != given.end())
      emitOptionValue(y, *it->second);
    else if (isBool)
      y << dflt;
    else
      y << dflt;
  };
  labelKey("w_bit", std::to_string(main ? bitsOf(main->weight.dtype) : 16), false);
  labelKey("a_bit", std::to_string(main && main->act ? bitsOf(main->act->dtype) : 16), false);
  labelKey("is_sparse", "false", true);
  labelKey("kv_cache", "false", true);
  for (const char *k : {"fa_bit", "fa_quant"})
    if (given.count(k)) {
      y << YAML::Key << k << YAML::Value;
      emitOptionValue(y, *given[k]);
    }
  y << YAML::EndMap;
  std::vector<std::string> types;
  if (const ir::Option *o = target_.option("verified_model_types"))
    for (const ir::Value &v : o->values)
      types.push_back(v.text);
  emitStringList(y, "verified_model_types", types);
  y << YAML::EndMap;

  y << YAML::Key << "spec" << YAML::Value << YAML::BeginMap;
  if (const ir::Option *o = target_.option("runner"))
    y << YAML::Key << "runner" << YAML::Value << YAML::DoubleQuoted << o->values[0].text;
  y << YAML::Key << "process" << YAML::Value << YAML::BeginSeq;
  // Suppression first (10.10), in the order written.
  if (const ir::Option *o = target_.option("anti_outlier")) {
    auto head = [&](const std::string &type) {
      y << YAML::BeginMap << YAML::Key << "type" << YAML::Value << YAML::DoubleQuoted << type;
      if (type == "flex_awq_ssz" && main) {
        y << YAML::Key << "qconfig" << YAML::Value << YAML::BeginMap;
        if (main->act)
          emitQConfig(y, "act", *main->act, nullptr);
        emitQConfig(y, "weight", main->weight, &main->weightExt);
        y << YAML::EndMap;
      }
    };
    for (const ir::Value &v : o->values) {
      head(v.text);
      y << YAML::EndMap;
    }
    for (const ir::Option &c : o->children) {
      head(c.key);
      for (const ir::Option &p : c.children) {
        y << YAML::Key << p.key << YAML::Value;
        emitOptionValue(y, p.values[0]);
      }
      y << YAML::EndMap;
    }
  }
  for (const Entry &e : entries_) {
    y << YAML::BeginMap;
    y << YAML::Key << "type" << YAML::Value << YAML::DoubleQuoted << "linear_quant";
    y << YAML::Key << "qconfig" << YAML::Value << YAML::BeginMap;
    if (e.act)
      emitQConfig(y, "act", *e.act, nullptr);
    emitQConfig(y, "weight", e.weight, &e.weightExt);
    y << YAML::EndMap;
    emitStringList(y, "include", e.include);
    std::vector<std::string> ex = exclude_;
    for (const auto &p : e.extraExclude)
      if (std::find(ex.begin(), ex.end(), p) == ex.end())
        ex.push_back(p);
    emitStringList(y, "exclude", ex);
    y << YAML::EndMap;
  }
  y << YAML::EndSeq;
  y << YAML::Key << "save" << YAML::Value << YAML::BeginSeq << YAML::BeginMap;
  std::string saver = "ascendv1_saver";
  if (const ir::Option *o = target_.option("save"))
    saver = o->values[0].text;
  y << YAML::Key << "type" << YAML::Value << YAML::DoubleQuoted << saver;
  std::string pfs = "4";
  if (const ir::Option *o = target_.option("part_file_size"))
    pfs = yamlNumber(o->values[0]);
  y << YAML::Key << "part_file_size" << YAML::Value << pfs;
  y << YAML::EndMap << YAML::EndSeq;
  if (const ir::Option *o = target_.option("dataset"))
    y << YAML::Key << "dataset" << YAML::Value << YAML::DoubleQuoted << o->values[0].text;
  if (const ir::Option *o = target_.option("default_text"))
    y << YAML::Key << "default_text" << YAML::Value << YAML::DoubleQuoted << o->values[0].text;
  y << YAML::EndMap;
  y << YAML::EndMap;
  if (!y.good()) {
    diags_.report(DiagID::err_internal, target_.range,
                  {std::string("yaml-cpp: ") + y.GetLastError()});
    ok_ = false;
    return;
  }
  out.buffer() = y.c_str();
  out.buffer() += "\n";
}

} // namespace

bool MsModelSlimEmitter::emit(const ir::Spec &spec, const ir::Target &target, OutputContext &out,
                              DiagnosticEngine &diags) {
  Builder b(spec, target, diags);
  return b.run(out);
}

} // namespace qspec::emit
