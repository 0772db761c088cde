// spec-invalid: every compiler error no more specific rule maps (syntax, unknown settings,
// unreadable inventory, a target's emitter or translation validation refusing the spec, ...).
// A spec that does not compile cannot be checked further.
#include "lint/Context.h"

namespace qspec::lint {

// Codes other rules report under their own IDs (even when those rules are turned off).
static const char *const kMapped[] = {"warn_pattern_matches_nothing",
                                      "warn_type_matches_nothing",
                                      "err_override_conflict",
                                      "err_protected_lowered",
                                      "err_tuning_protected",
                                      "err_group_split",
                                      "err_tier_not_expressible",
                                      "err_tier_not_expressible_pattern",
                                      "warn_group_empty",
                                      "err_ladder_order",
                                      "err_ladder_duplicate",
                                      "err_msmodelslim_unknown_processor"};

bool hasOwnRule(const std::string &code) {
  for (const char *c : kMapped)
    if (code == c)
      return true;
  return false;
}

void takeUnmapped(SpecInput &ctx, RuleID rule, bool (*wanted)(Severity)) {
  auto &cd = ctx.compilerDiags;
  for (auto it = cd.begin(); it != cd.end();) {
    if (hasOwnRule(it->code) || !wanted(it->severity)) {
      ++it;
      continue;
    }
    Diagnostic &d = ctx.report(rule, it->range, it->message + " [" + it->code + "]");
    for (Diagnostic &n : it->notes)
      d.notes.push_back(std::move(n));
    it = cd.erase(it);
  }
}

void checkSpecInvalid(SpecInput &ctx) {
  takeUnmapped(ctx, RuleID::SpecInvalid,
               [](Severity s) { return s == Severity::Error || s == Severity::Fatal; });
}

} // namespace qspec::lint
