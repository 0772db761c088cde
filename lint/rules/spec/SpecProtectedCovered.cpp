// spec-protected-covered: a name override whose glob covers a protected module (without naming
// it exactly) and sets a quantized tier. PrecedencePass keeps the module float silently (see
// passes/PrecedencePass.cpp, step 3); the author probably did not mean to include it.
//
// One finding per selector: the first covered module is named and the count given.
#include "lint/rules/spec/SpecUtil.h"

namespace qspec::lint {

void checkSpecProtectedCovered(SpecInput &ctx) {
  if (!ctx.specResolved)
    return;
  const ir::Spec &spec = *ctx.spec;
  const auto &res = spec.resolution;
  for (const ir::Override &ov : spec.overrides) {
    if (ov.level != ir::Override::Name || !ov.settings.tier || *ov.settings.tier == ir::Tier::Float)
      continue;
    for (const ir::Selector &s : ov.selectors) {
      if (!s.pattern || s.pattern->isLiteral())
        continue;
      auto it = res.selected.find(&s);
      if (it == res.selected.end())
        continue;
      std::vector<uint32_t> covered;
      for (uint32_t m : it->second)
        if (res.modules[m].isProtected)
          covered.push_back(m);
      if (covered.empty())
        continue;
      const std::string &first = spec.inventory.modules[covered.front()].name;
      std::string msg = "pattern '" + s.text + "' covers protected module '" + first + "'";
      if (covered.size() > 1)
        msg += " and " + std::to_string(covered.size() - 1) + " more";
      msg += "; tier '" + std::string(ir::tierName(*ov.settings.tier)) +
             "' does not apply to it and it stays float";
      Diagnostic &d = ctx.report(RuleID::SpecProtectedCovered, s.range, msg);
      const ir::Decision &from = res.modules[covered.front()].tier.from;
      if (from.range().valid())
        ctx.note(d, from.range(),
                 "'" + first + "' is protected here; narrow the pattern or exclude it explicitly");
    }
  }
}

} // namespace qspec::lint
