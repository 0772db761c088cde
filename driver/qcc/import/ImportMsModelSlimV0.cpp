// `qcc import` of a `modelslim_v0` practice (vendors/msmodelslim/MsModelSlimV0.h). calib_cfg's
// one recipe becomes `defaults`; `disable_names` (exact names) and, with an inventory, the last
// Linear while `disable_last_linear` holds become `protect`; anti_cfg (m6 with flex_config, m4, m1;
// disable_anti_names), calib_cfg's use_kvcache_quant and sparse arguments (co_sparse, is_lowbit,
// use_sigma, fraction, sigma_factor, pr), calib_params.mix_cfg's entries (the Linears of float
// ones also join `protect`; those of w8a8, w8a16 and w8a8_dynamic ones, with an inventory, get
// a name override with the recipe Calibrator derives for them), calib_dataset, anti_dataset,
// calib_save_params.part_file_size and the metadata become the `target msmodelslim { apiversion
// modelslim_v0 ... }` block. A calib_cfg, mix_cfg entry or disable_level whose reading qspec cannot
// say is refused; every other key is reported not carried at its place.
#include "driver/qcc/import/ImportMsModelSlimV0.h"

#include "frontend/Parser.h"
#include "vendors/msmodelslim/MsModelSlimV0.h"

#include <algorithm>

namespace qspec::import {

namespace {

using frontend::qspecString;
using msmodelslim::YamlValue;

struct V0Import {
  const Source &src;
  const Context &ctx;
  const msmodelslim::PracticeDoc &doc;

  void notCarried(const YamlValue &v, const std::string &what, const std::string &why) const {
    ctx.notCarried(src, v.keyLine ? v.keyLine : v.line, v.keyLine ? v.keyCol : v.col, what, why);
  }
  SourceRange at(const YamlValue &v) const {
    uint32_t line = v.keyLine ? v.keyLine : v.line, col = v.keyLine ? v.keyCol : v.col;
    return SourceRange::point(src.file, line ? line : 1, col ? col : 1);
  }

  // The recipe words of a role reading.
  static std::vector<std::string> words(const vendors::RoleReading &r) {
    std::vector<std::string> w;
    for (const vendors::ReadingWord *x : {&r.dtype, &r.scope})
      if (*x)
        w.push_back(**x);
    if (r.symmetric)
      w.push_back(*r.symmetric ? "symmetric" : "asymmetric");
    if (r.method)
      w.push_back(*r.method);
    return w;
  }

  // calib_cfg: defaults and protect; keys the reading does not use are not carried.
  bool calib(ImportedSpec &out) const {
    msmodelslim::V0Calib c = msmodelslim::readV0Calib(doc.root);
    ir::Tier tier;
    vendors::RoleReading w, a;
    std::string why;
    if (!msmodelslim::v0Recipe(c, tier, w, a, why)) {
      ctx.diags.report(DiagID::err_import_unsupported, c.at ? at(*c.at) : at(doc.root),
                       {src.path, "a modelslim_v0 calib_cfg with " + why});
      return false;
    }
    // disable_level L<n> rolls back n layers the calibration run chooses: no reading knows which.
    if (const YamlValue *level = calibParam("disable_level");
        level && level->kind == YamlValue::Scalar && level->text != "L0") {
      ctx.diags.report(DiagID::err_import_unsupported, at(*level),
                       {src.path, "a modelslim_v0 calib_params.disable_level " + level->text +
                                      " (the calibration run rolls back layers it chooses, "
                                      "which no reading knows; L0, none, is the default)"});
      return false;
    }
    // mix_cfg gives the Linears it selects another config: float, or a recipe Calibrator derives.
    for (const msmodelslim::V0Mix &m : msmodelslim::readV0MixCfg(doc.root))
      if (std::string problem = mixProblem(c, m); !problem.empty()) {
        ctx.diags.report(DiagID::err_import_unsupported, at(*m.at),
                         {src.path, "a modelslim_v0 calib_params.mix_cfg entry '" + m.pattern +
                                        "': '" + m.at->text + "' (" + problem + ")"});
        return false;
      }
    out.defaults.weight = words(w);
    out.defaults.act = words(a);
    if (c.at)
      for (const auto &[k, v] : c.at->map) {
        const auto &keys = msmodelslim::v0CalibKeys();
        bool read = std::find(keys.begin(), keys.end(), k) != keys.end();
        if (!v0Setting(k, v) && (!read || settingKey(k)))
          notCarried(v, "calib_cfg." + k,
                     settingKey(k) ? "the v0 setting of that name takes " +
                                         std::string(boolSetting(k) ? "true or false" : "a number")
                                   : "the modelslim_v0 target writes " + keyList());
      }
    protect(c, out);
    mixRules(c, out);
    return true;
  }

  static bool isBool(const YamlValue &v) { return v.scalarType() == "bool"; }

  const YamlValue *calibParam(const char *key) const {
    const YamlValue *spec = doc.root.get("spec");
    const YamlValue *p = spec ? spec->get("calib_params") : nullptr;
    return p && p->kind == YamlValue::Mapping ? p->get(key) : nullptr;
  }

  // The calib_cfg arguments the target says as v0 settings of the same name: switches, and the
  // sparse scheme's floats.
  static bool boolSetting(const std::string &k) {
    return k == "use_kvcache_quant" || k == "co_sparse" || k == "is_lowbit" || k == "use_sigma";
  }
  static bool settingKey(const std::string &k) {
    return boolSetting(k) || k == "fraction" || k == "sigma_factor" || k == "pr";
  }
  // Whether `v` is a value the setting `k` carries.
  static bool v0Setting(const std::string &k, const YamlValue &v) {
    if (!settingKey(k))
      return false;
    return boolSetting(k) ? isBool(v) : v.scalarType() == "float" || v.scalarType() == "int";
  }

  static std::string keyList() {
    std::string s;
    for (const std::string &k : msmodelslim::v0CalibKeys())
      s += (s.empty() ? "" : ", ") + k;
    return s;
  }

  // Why the entry `m` of calib_params.mix_cfg has no words in the v0 setting `mix_cfg { CONFIG
  // "PATTERN", ... }` ("" when it has): a pattern fnmatch and qspec read differently (braces,
  // `\`), a config Calibrator does not derive from calib_cfg (w4a8_dynamic, or any for a calib_cfg
  // whose w_bit is not 8) or whose recipe qspec has no words for, or, without an inventory, a
  // config other than float (which Linears take its recipe is the inventory's).
  std::string mixProblem(const msmodelslim::V0Calib &c, const msmodelslim::V0Mix &m) const {
    if (m.pattern.empty() || m.pattern.find_first_of("{}\\") != std::string::npos)
      return "the target writes fnmatch patterns without braces or backslashes";
    if (m.type == "float")
      return "";
    msmodelslim::V0Calib d;
    ir::Tier tier;
    vendors::RoleReading w, a;
    std::string why;
    if (!msmodelslim::v0MixCalib(c, m.type, d, why) || !msmodelslim::v0Recipe(d, tier, w, a, why))
      return why;
    if (!ctx.inventory)
      return "which Linears take the recipe of a " + m.type + " entry needs --inventory";
    return "";
  }
  bool mixCarried() const {
    msmodelslim::V0Calib c = msmodelslim::readV0Calib(doc.root);
    std::vector<msmodelslim::V0Mix> mix = msmodelslim::readV0MixCfg(doc.root);
    for (const msmodelslim::V0Mix &m : mix)
      if (!mixProblem(c, m).empty())
        return false;
    return !mix.empty();
  }

  // The Linears a w8a8, w8a16 or w8a8_dynamic entry decides (not rolled back first) as a name
  // override per config with the recipe Calibrator derives for it, where it differs from
  // calib_cfg's (the defaults). Protected Linears are left to either side of the patterns.
  void mixRules(const msmodelslim::V0Calib &c, ImportedSpec &out) const {
    const ir::Inventory *inv = ctx.inventory ? &ctx.inventory->inventory : nullptr;
    if (!inv || !mixCarried())
      return;
    std::vector<msmodelslim::V0Mix> mix = msmodelslim::readV0MixCfg(doc.root);
    auto linear = [](const ir::Module &m) { return m.type.empty() || m.type == "Linear"; };
    std::vector<bool> rolled(inv->modules.size(), false);
    for (const YamlValue *n : c.disableNames)
      if (const ir::Module *m = inv->find(n->text))
        rolled[static_cast<size_t>(m - inv->modules.data())] = true;
    if (c.disableLastLinear)
      for (size_t m = inv->modules.size(); m-- > 0;)
        if (linear(inv->modules[m])) {
          rolled[m] = true;
          break;
        }
    std::vector<const msmodelslim::V0Mix *> configs; // the first entry of each config
    for (const msmodelslim::V0Mix &m : mix)
      if (m.type != "float" &&
          std::none_of(configs.begin(), configs.end(), [&](auto *x) { return x->type == m.type; }))
        configs.push_back(&m);
    for (const msmodelslim::V0Mix *x : configs) {
      msmodelslim::V0Calib d;
      ir::Tier tier;
      vendors::RoleReading w, a;
      std::string why;
      msmodelslim::v0MixCalib(c, x->type, d, why);
      msmodelslim::v0Recipe(d, tier, w, a, why);
      Override o;
      if (words(w) != out.defaults.weight)
        o.body.weight = words(w);
      if (words(a) != out.defaults.act)
        o.body.act = words(a);
      if (o.body.empty())
        continue;
      std::vector<msmodelslim::Want> want(inv->modules.size(), msmodelslim::Want::DontCare);
      bool any = false;
      for (size_t m = 0; m < inv->modules.size(); ++m) {
        const msmodelslim::V0Mix *e = msmodelslim::v0MixFor(mix, inv->modules[m].name);
        if (!linear(inv->modules[m]) || rolled[m] || (e && e->type == "float"))
          continue;
        bool mine = e && e->type == x->type;
        want[m] = mine ? msmodelslim::Want::Must : msmodelslim::Want::Forbid;
        any = any || mine;
      }
      if (!any)
        continue;
      bool verified = true;
      o.selectors = msmodelslim::SelectionCompressor(*inv).compress(want, verified);
      o.comments = {" calib_params.mix_cfg " + x->type +
                    ": the recipe Calibrator derives from calib_cfg's for these Linears"};
      o.origin = at(*x->at);
      out.overrides.push_back(std::move(o));
    }
  }

  void protect(const msmodelslim::V0Calib &c, ImportedSpec &out) const {
    const ir::Inventory *inv = ctx.inventory ? &ctx.inventory->inventory : nullptr;
    std::vector<std::string> names;
    // The Linears mix_cfg's float entries leave float are protected too; without an inventory
    // the entries themselves, which the target then writes back to mix_cfg.
    std::vector<msmodelslim::V0Mix> mix;
    if (mixCarried())
      mix = msmodelslim::readV0MixCfg(doc.root);
    if (inv) {
      for (const ir::Module &m : inv->modules)
        if (const msmodelslim::V0Mix *x = msmodelslim::v0MixFor(mix, m.name);
            x && x->type == "float" && (m.type.empty() || m.type == "Linear"))
          names.push_back(m.name);
    } else {
      for (const msmodelslim::V0Mix &m : mix)
        if (m.type == "float")
          out.protectNames.push_back(m.pattern);
    }
    for (const YamlValue *n : c.disableNames) {
      if (inv && !inv->find(n->text)) {
        notCarried(*n, "disable_names entry \"" + n->text + "\"",
                   "it names no module of the inventory");
        continue;
      }
      if (std::find(names.begin(), names.end(), n->text) == names.end())
        names.push_back(n->text);
    }
    if (c.disableLastLinear) {
      const ir::Module *last = nullptr;
      if (inv)
        for (const ir::Module &m : inv->modules)
          if (m.type.empty() || m.type == "Linear")
            last = &m;
      if (last && std::find(names.begin(), names.end(), last->name) == names.end())
        names.push_back(last->name);
      else if (!inv && c.at)
        notCarried(c.at->get("disable_last_linear") ? *c.at->get("disable_last_linear") : *c.at,
                   "disable_last_linear (the last Linear stays float)",
                   "which Linear is last needs --inventory");
    }
    if (!inv || names.empty()) {
      for (const std::string &n : names)
        out.protectNames.push_back(exactPattern(n));
      return;
    }
    // With an inventory: the names as few patterns that select exactly them among the Linears.
    std::vector<msmodelslim::Want> want(inv->modules.size(), msmodelslim::Want::DontCare);
    for (size_t m = 0; m < inv->modules.size(); ++m)
      if (inv->modules[m].type.empty() || inv->modules[m].type == "Linear")
        want[m] = msmodelslim::Want::Forbid;
    for (const std::string &n : names)
      want[static_cast<size_t>(inv->find(n) - inv->modules.data())] = msmodelslim::Want::Must;
    bool verified = true;
    out.protectNames = msmodelslim::SelectionCompressor(*inv).compress(want, verified);
  }

  // anti_cfg as `anti_outlier { <processor> { alpha ..; beta .. } }`.
  void anti(const YamlValue &cfg, TargetBlock &t) const {
    if (cfg.kind != YamlValue::Mapping)
      return notCarried(cfg, "spec.anti_cfg", "it is not a mapping");
    const YamlValue *m = cfg.get("anti_method");
    std::string method = m && m->kind == YamlValue::Scalar ? m->text : "m2";
    std::string type = msmodelslim::v0AntiProcessor(method);
    if (type.empty())
      return notCarried(m ? *m : cfg, "anti_method " + method,
                        "the modelslim_v0 target writes m6 (flex_smooth_quant), m4 "
                        "(iter_smooth) and m1 (smooth_quant)");
    std::string s = "anti_outlier { " + type + " {";
    const YamlValue *skip = nullptr;
    for (const auto &[k, v] : cfg.map) {
      if (k == "anti_method")
        continue;
      if ((k == "w_bit" || k == "a_bit" || k == "w_sym") &&
          practiceScalar(v) == (k == "w_sym" ? "true" : "8"))
        continue; // AntiOutlierConfig's defaults, which the target writes by leaving them out
      if (k == "disable_anti_names") {
        skip = &v;
        continue;
      }
      if (k == "flex_config" && type == "flex_smooth_quant" && v.kind == YamlValue::Mapping) {
        for (const auto &[fk, fv] : v.map)
          if ((fk == "alpha" || fk == "beta") && fv.kind == YamlValue::Scalar)
            s += " " + fk + " " + practiceScalar(fv) + ";";
          else
            notCarried(fv, "anti_cfg.flex_config." + fk, "flex_config carries alpha and beta");
        continue;
      }
      notCarried(v, "anti_cfg." + k, "the msmodelslim target has no setting for it");
    }
    if (s.back() == ';')
      s.pop_back();
    t.settings.push_back(s + " } }");
    if (skip)
      antiNames(*skip, t);
  }

  // disable_anti_names as the v0 setting of the same name: exact names, each a string.
  void antiNames(const YamlValue &v, TargetBlock &t) const {
    std::string s;
    bool ok = v.kind == YamlValue::Sequence && !v.items.empty();
    for (const YamlValue &e : v.items)
      ok = ok && e.kind == YamlValue::Scalar && !e.text.empty();
    if (!ok)
      return notCarried(v, "anti_cfg.disable_anti_names", "it is not a list of module names");
    for (const YamlValue &e : v.items)
      s += (s.empty() ? "" : ", ") + qspecString(e.text);
    t.settings.push_back("disable_anti_names " + s);
  }

  // Calibrator's keyword arguments: mix_cfg's float entries, disable_level L0 (its default, as
  // the target leaves it out; calib() refuses the others); the rest is not carried.
  void calibParams(const YamlValue &params, TargetBlock &t) const {
    for (const auto &[k, v] : params.map) {
      if (k == "disable_level" && v.kind == YamlValue::Scalar && v.text == "L0")
        continue;
      if (k != "mix_cfg" || !mixCarried()) {
        notCarried(v, "calib_params." + k,
                   k == "mix_cfg" ? "the target writes mix_cfg entries whose Linears it can say"
                                  : "the modelslim_v0 target writes calib_params.mix_cfg");
        continue;
      }
      // The entries in the file's order, consecutive ones of one config in one line.
      std::string s, type;
      for (const msmodelslim::V0Mix &m : msmodelslim::readV0MixCfg(doc.root)) {
        s += m.type == type ? ", " : (type.empty() ? " " : "; ") + m.type + " ";
        s += qspecString(m.pattern);
        type = m.type;
      }
      t.settings.push_back("mix_cfg {" + s + " }");
    }
  }

  void specKeys(const YamlValue &spec, TargetBlock &t) const {
    for (const auto &[k, v] : spec.map) {
      if (k == "calib_cfg") {
        if (v.kind == YamlValue::Mapping)
          for (const auto &[ck, cv] : v.map)
            if (v0Setting(ck, cv))
              t.settings.push_back(ck + " " + practiceScalar(cv));
        continue;
      }
      if (k == "anti_cfg" && v.kind != YamlValue::Null) {
        anti(v, t);
      } else if (k == "calib_dataset" && v.kind == YamlValue::Scalar) {
        t.settings.push_back("dataset " + qspecString(v.text));
      } else if (k == "anti_dataset" && v.kind == YamlValue::Scalar) {
        t.settings.push_back("anti_dataset " + qspecString(v.text));
      } else if (k == "calib_params" && v.kind == YamlValue::Mapping) {
        calibParams(v, t);
      } else if (k == "calib_save_params" && v.kind == YamlValue::Mapping) {
        for (const auto &[sk, sv] : v.map)
          if (sk == "part_file_size" && sv.scalarType() == "int")
            t.settings.push_back("part_file_size " + sv.text);
          else
            notCarried(sv, "calib_save_params." + sk, "the target writes part_file_size");
      } else {
        notCarried(v, "spec." + k, "the modelslim_v0 target has no setting for it");
      }
    }
  }
};

} // namespace

bool importMsModelSlimV0(const Source &src, const Context &ctx, const msmodelslim::PracticeDoc &doc,
                         ImportedSpec &out) {
  V0Import im{src, ctx, doc};
  const YamlValue *spec = doc.root.get("spec");
  if (doc.root.kind != YamlValue::Mapping || (spec && spec->kind != YamlValue::Mapping)) {
    ctx.diags.report(DiagID::err_import_refused, im.at(spec ? *spec : doc.root),
                     {"msModelSlim", "task spec must be dict"});
    return false;
  }
  Comments comments(*src.text);
  out.header = {" Imported by 'qcc import' from " + src.path +
                " (msModelSlim practice, modelslim_v0). Review before use."};
  for (const std::string &c : comments.takeLeading())
    out.header.push_back(c);
  if (!im.calib(out))
    return false;
  TargetBlock t;
  t.kind = "msmodelslim";
  t.settings.push_back("apiversion modelslim_v0");
  importPracticeMetadata(src, ctx, doc, t);
  if (spec)
    im.specKeys(*spec, t);
  t.comments = comments.rest();
  out.targets.push_back(std::move(t));
  return true;
}

} // namespace qspec::import
