// amct-duplicate-override: one layer name (override_layer_configs) or layer type
// (override_layer_types) has two override entries. AMCT refuses it, PTQ: `Please delete repeated
// items in override_layer_configs, repeated items are [...] `; QAT with two spaces:
// `Please delete repeated items in retrain_override_layers,  repeated items are [...] `
// (wording from amct::repeatedItemsMessage). No automatic fix: the two recipes may differ.
#include "lint/rules/amct/AmctUtil.h"

#include <set>

namespace qspec::lint {

void checkAmctDuplicateOverride(AmctInput &ctx) {
  if (!ctx.amctParsed)
    return;
  const amct::AmctDocument &doc = *ctx.amctDoc;
  bool qat = doc.kind == amct::ConfigKind::QAT;
  auto check = [&](const std::vector<amct::Override> &ovs, const char *field) {
    std::vector<std::string> keys;
    for (const auto &o : ovs)
      keys.push_back(o.key);
    auto dups = amct::findDuplicates(keys);
    if (dups.empty())
      return;
    std::set<std::string> seen;
    for (const auto &o : ovs) {
      if (seen.insert(o.key).second)
        continue;
      Diagnostic &d = ctx.report(RuleID::AmctDuplicateOverride, ctx.at(o.line, o.col ? o.col : 1),
                                 amct::repeatedItemsMessage(doc.kind, field, dups));
      for (const auto &first : ovs)
        if (first.key == o.key) {
          ctx.note(d, ctx.at(first.line, first.col ? first.col : 1),
                   "'" + o.key + "' is first overridden here");
          break;
        }
    }
  };
  check(doc.nameOverrides, qat ? "retrain_override_layers" : "override_layer_configs");
  check(doc.typeOverrides, "override_layer_types");
}

} // namespace qspec::lint
