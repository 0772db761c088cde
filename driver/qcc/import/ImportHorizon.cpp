// `qcc import` of a Horizon QconfigSetter module (Python), parsed with vendors/horizon's document
// model (parseQconfigSetter: a small parser of the setter subset, nothing else is guessed at),
// checked with the plugin's hard rules (checkQconfigSetter) and read on the inventory with the
// plugin's template rules (SetterReading: list order, name-prefix keys, frozen templates). The
// global ModuleNameTemplate({"": D}) becomes `defaults { tier }`; every module the templates give
// another dtype one `override name` per tier (float32 `protect`), its names compressed; a
// threshold `horizon { fixed_scale S }`; march, observer, fix_scale, enable_optimize, save_dir and
// the SensitivityTemplate the `target horizon` block. The templates need module names and types to
// be read, so the import needs --inventory.
#include "driver/qcc/import/Importer.h"

#include "frontend/Parser.h"
#include "vendors/horizon/HorizonReader.h"
#include "vendors/horizon/HorizonRules.h"

#include <cstdlib>
#include <map>

namespace qspec::import {

namespace {

using frontend::qspecString;
using horizon::PyValue;

struct SetterImport {
  const Source &src;
  const Context &ctx;
  const horizon::QconfigSetterDoc &doc;
  ImportedSpec &out;

  void notCarried(const PyValue &v, const std::string &what, const std::string &why) const {
    ctx.notCarried(src, v.line, v.column, what, why);
  }
  TargetBlock &target() { return out.targets.back(); }

  // get_qconfig(observer=..., fix_scale=...) and QconfigSetter's own keyword arguments.
  void settings() {
    if (!doc.march.empty())
      target().settings.push_back("march " + qspecString(doc.march));
    horizon::SetterReading reading(doc);
    if (!reading.actMethod().empty())
      target().settings.push_back("observer " + reading.actMethod());
    for (const auto &[key, v] : doc.setter.kwargs) {
      if (key == "reference_qconfig") {
        for (const auto &[k, x] : v.kwargs)
          if (k == "fix_scale" && x.kind == PyValue::Bool)
            target().settings.push_back(std::string("fix_scale ") +
                                        (x.text == "True" ? "true" : "false"));
          else if (k != "observer")
            notCarried(x, "get_qconfig argument '" + k + "'",
                       "the horizon target has no setting for it");
      } else if (key == "enable_optimize" && v.kind == PyValue::Bool) {
        target().settings.push_back(std::string("enable_optimize ") +
                                    (v.text == "True" ? "true" : "false"));
      } else if (key == "save_dir" && v.kind == PyValue::String) {
        target().settings.push_back("save_dir " + qspecString(v.text));
      } else if (key != "templates") {
        notCarried(v, "QconfigSetter argument '" + key + "'",
                   "the horizon target has no setting for it");
      }
    }
  }

  void sensitivity(const PyValue &t) {
    for (const auto &[k, v] : t.kwargs) {
      const PyValue *path = v.kind == PyValue::Call && v.text == "torch.load" && v.items.size() == 1
                                ? &v.items[0]
                                : nullptr;
      if (k == "sensitive_table" && path && path->kind == PyValue::String)
        target().settings.push_back("sensitivity " + qspecString(path->text));
      else if (k == "topk_or_ratio" && v.kind == PyValue::Number)
        target().settings.push_back("topk_or_ratio " +
                                    numberText(std::strtod(v.text.c_str(), nullptr)));
      else if (k == "sensitive_type" && v.kind == PyValue::String)
        target().settings.push_back("sensitive_type " + qspecString(v.text));
      else if ((k == "low_precision_dtype" || k == "high_precision_dtype") &&
               v.kind == PyValue::Name)
        continue; // the emitter writes the defaults' dtype and qint16 (compared by the reading)
      else
        notCarried(v, "SensitivityTemplate argument '" + k + "'",
                   "the horizon target writes the table, topk_or_ratio and sensitive_type");
    }
  }

  // The dict values of every ModuleNameTemplate by position (the reading names the deciding one).
  std::map<std::pair<uint32_t, uint32_t>, const PyValue *> entries() {
    std::map<std::pair<uint32_t, uint32_t>, const PyValue *> at;
    for (const PyValue &t : doc.templates()) {
      if (t.kind == PyValue::Call && t.text == "SensitivityTemplate")
        sensitivity(t);
      if (t.kind == PyValue::Call && t.text == "ModuleNameTemplate" && !t.items.empty())
        for (const auto &[k, v] : t.items[0].entries)
          at[{v.line, v.column}] = &v;
    }
    return at;
  }

  // Every inventory module as the templates give it: defaults, protect, one rule per (tier, scale).
  void modules() {
    auto at = entries();
    std::optional<ir::Tier> global;
    const auto &templates = doc.templates();
    if (!templates.empty() && !templates[0].items.empty() && !templates[0].items[0].entries.empty())
      global = horizon::tierForDtype(templates[0].items[0].entries[0].second);
    if (global)
      out.defaults.tier = ir::tierName(*global);
    horizon::SetterReading reading(doc);
    std::vector<std::string> order, protects;
    std::map<std::string, std::pair<RuleBody, std::vector<std::string>>> rules;
    for (const ir::Module &m : ctx.inventory->inventory.modules) {
      horizon::SetterReading::Result r = reading.module(m.name, m.type);
      if (!r.tier) {
        out.undecided.push_back(m.name); // a SensitivityTemplate decides it at run time
        continue;
      }
      std::string scale;
      if (auto it = at.find({r.line, r.column});
          it != at.end() && it->second->kind == PyValue::Dict)
        if (const PyValue *th = it->second->dictGet("threshold"); th && th->kind == PyValue::Number)
          scale = numberText(std::strtod(th->text.c_str(), nullptr) /
                             (*r.tier == ir::Tier::Int16 ? 32768 : 128));
      if (*r.tier == ir::Tier::Float && scale.empty()) {
        protects.push_back(m.name);
        continue;
      }
      if (r.tier == global && scale.empty())
        continue;
      RuleBody b;
      if (r.tier != global)
        b.tier = ir::tierName(*r.tier);
      if (!scale.empty())
        b.targetBlocks.push_back("horizon { fixed_scale " + scale + " }");
      auto [it, fresh] = rules.try_emplace(b.text(), b, std::vector<std::string>{});
      if (fresh)
        order.push_back(b.text());
      it->second.second.push_back(m.name);
    }
    out.protectNames = namePatterns(ctx, protects);
    for (const std::string &key : order) {
      Override o;
      o.body = rules[key].first;
      o.selectors = namePatterns(ctx, rules[key].second);
      out.overrides.push_back(std::move(o));
    }
  }
};

} // namespace

bool importHorizon(const Source &src, const Context &ctx, ImportedSpec &out) {
  horizon::QconfigSetterDoc doc;
  std::string error;
  uint32_t line = 0, column = 0;
  if (!horizon::parseQconfigSetter(*src.text, doc, error, line, column)) {
    ctx.diags.report(DiagID::err_import_refused,
                     SourceRange::point(src.file, line ? line : 1, column ? column : 1),
                     {"qcc's QconfigSetter reader", error});
    return false;
  }
  bool bad = false;
  for (const horizon::SetterIssue &i : horizon::checkQconfigSetter(doc)) {
    ctx.diags.report(DiagID::err_import_refused,
                     SourceRange::point(src.file, i.line ? i.line : 1, i.column ? i.column : 1),
                     {"horizon_plugin_pytorch", i.message + " (" + i.check + ")"});
    bad = true;
  }
  if (bad)
    return false;
  if (!ctx.inventory) {
    ctx.diags.report(DiagID::err_import_needs_inventory, SourceRange::point(src.file, 1, 1),
                     {"QconfigSetter templates (module-name prefixes and Conv/Matmul types)"});
    return false;
  }
  out.header = {" Imported by 'qcc import' from " + src.path +
                " (Horizon QconfigSetter). Review before use."};
  out.targets.push_back(TargetBlock{{}, "horizon", "", {}});
  SetterImport im{src, ctx, doc, out};
  im.settings();
  im.modules();
  // The file's comments, but for the header qcc's horizon-py emitter writes (it writes it again).
  for (const std::string &c : Comments(*src.text).rest())
    if (c.find(": QconfigSetter for horizon_plugin_pytorch, generated by qcc") ==
            std::string::npos &&
        c.find(": Use: set_march is called by build_qconfig_setter()") == std::string::npos &&
        c.find(":   prepare(model, example_inputs, qconfig_setter=build_qconfig_setter()") ==
            std::string::npos)
      out.targets.back().comments.push_back(c);
  return true;
}

} // namespace qspec::import
