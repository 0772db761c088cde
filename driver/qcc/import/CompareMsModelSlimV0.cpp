// `qcc import --roundtrip` of a modelslim_v0 practice: everything the v0 plugin reads besides the
// module readings (which Linear is quantized with which recipe), compared between the original
// and the re-emitted practice. calib_cfg, anti_cfg and calib_params are compared argument by
// argument, an absent argument being QuantConfig's, AntiOutlierConfig's or Calibrator's default;
// `disable_names` is part of the module readings (compared as a set without an inventory); every
// other spec key by value.
#include "driver/qcc/import/ImportMsModelSlimV0.h"

#include "vendors/msmodelslim/MsModelSlimV0.h"

#include <algorithm>
#include <map>

namespace qspec::import {

namespace {

using msmodelslim::YamlValue;

struct V0Comparer {
  const Source &src;
  const Context &ctx;

  void report(const YamlValue &at, const std::string &what, const std::string &emitted) const {
    reportPracticeDifference(src, ctx, at, what, emitted);
  }

  // The keyword arguments of mapping `key` of spec, each against `defaults` where absent.
  void arguments(const YamlValue &specA, const YamlValue &specB, const char *key,
                 const std::map<std::string, std::string> &defaults) const {
    const YamlValue *a = specA.get(key), *b = specB.get(key);
    if (!a || a->kind != YamlValue::Mapping) {
      if (b && (!a || canonicalPracticeValue(*a) != canonicalPracticeValue(*b)))
        report(a ? *a : specA, std::string(a ? "" : "the default of ") + "spec." + key,
               key + std::string(": ") + canonicalPracticeValue(*b));
      return;
    }
    YamlValue none;
    none.kind = YamlValue::Mapping;
    if (!b || b->kind != YamlValue::Mapping)
      b = &none;
    auto value = [&](const YamlValue &m, const std::string &k) {
      if (const YamlValue *v = m.get(k))
        return canonicalPracticeValue(*v);
      auto it = defaults.find(k);
      return it == defaults.end() ? std::string() : it->second;
    };
    for (const auto &[k, v] : a->map) {
      if (k == "disable_names")
        continue;
      std::string mine = value(*a, k), theirs = value(*b, k);
      if (mine != theirs)
        report(v, std::string(key) + "." + k, theirs.empty() ? "" : k + ": " + theirs);
    }
    for (const auto &[k, v] : b->map)
      if (!a->get(k) && k != "disable_names" && value(*a, k) != value(*b, k))
        report(*a, std::string("the default of ") + key + "." + k,
               k + ": " + canonicalPracticeValue(v));
  }

  // disable_names as a set, where no inventory reads them as modules.
  void disableNames(const YamlValue &specA, const YamlValue &specB) const {
    auto names = [](const YamlValue &spec) {
      std::vector<std::string> out;
      const YamlValue *c = spec.get("calib_cfg");
      const YamlValue *d = c ? c->get("disable_names") : nullptr;
      if (d && d->kind == YamlValue::Sequence)
        for (const YamlValue &e : d->items)
          out.push_back(e.text);
      std::sort(out.begin(), out.end());
      out.erase(std::unique(out.begin(), out.end()), out.end());
      return out;
    };
    std::vector<std::string> a = names(specA), b = names(specB);
    if (a == b)
      return;
    const YamlValue *c = specA.get("calib_cfg");
    const YamlValue *at = c && c->get("disable_names") ? c->get("disable_names") : &specA;
    report(*at, "calib_cfg.disable_names", "another set of " + std::to_string(b.size()) + " names");
  }

  // A float default as canonicalPracticeValue writes a float the file holds.
  static std::string number(const char *text) {
    YamlValue v;
    v.kind = YamlValue::Scalar;
    v.text = text;
    return canonicalPracticeValue(v);
  }

  void run(const msmodelslim::PracticeDoc &a, const msmodelslim::PracticeDoc &b) const {
    comparePracticeMetadata(src, ctx, a, b);
    YamlValue none;
    none.kind = YamlValue::Mapping;
    const YamlValue *specA = a.root.get("spec"), *specB = b.root.get("spec");
    if (!specA || specA->kind != YamlValue::Mapping)
      return;
    if (!specB || specB->kind != YamlValue::Mapping)
      specB = &none;
    arguments(*specA, *specB, "calib_cfg",
              {{"w_bit", "8"},
               {"a_bit", "8"},
               {"act_method", "1"},
               {"w_method", "'MinMax'"},
               {"mm_tensor", "true"},
               {"w_sym", "true"},
               {"is_dynamic", "false"},
               {"pdmix", "false"},
               {"use_kvcache_quant", "false"},
               {"co_sparse", "false"},
               {"is_lowbit", "false"},
               {"use_sigma", "false"},
               {"fraction", number("0.01")},
               {"sigma_factor", number("3.0")},
               {"pr", number("1.0")},
               {"disable_last_linear", "true"}});
    if (!ctx.inventory)
      disableNames(*specA, *specB);
    if (specA->get("anti_cfg") || specB->get("anti_cfg"))
      arguments(*specA, *specB, "anti_cfg",
                {{"w_bit", "8"},
                 {"a_bit", "8"},
                 {"w_sym", "true"},
                 {"anti_method", "'m2'"},
                 {"disable_anti_names", "[]"}});
    // Calibrator's arguments: disable_level L0 is its default (no rollback).
    arguments(*specA, *specB, "calib_params", {{"disable_level", "'L0'"}});
    for (const auto &[k, v] : specA->map) {
      if (k == "calib_cfg" || k == "anti_cfg" || k == "calib_params")
        continue;
      const YamlValue *w = specB->get(k);
      if (!w)
        report(v, "spec." + k, "");
      else if (canonicalPracticeValue(*w) != canonicalPracticeValue(v))
        report(v, "spec." + k, k + ": " + canonicalPracticeValue(*w));
    }
    for (const auto &[k, w] : specB->map)
      if (!specA->get(k) && k != "calib_cfg" && k != "anti_cfg" && k != "calib_params")
        report(*specA, "the default of spec." + k, k + ": " + canonicalPracticeValue(w));
  }
};

} // namespace

void compareMsModelSlimV0(const Source &src, const Context &ctx,
                          const msmodelslim::PracticeDoc &original,
                          const msmodelslim::PracticeDoc &emitted) {
  V0Comparer{src, ctx}.run(original, emitted);
}

} // namespace qspec::import
