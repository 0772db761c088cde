// spec-invalid: every compiler error no more specific rule maps (syntax, unknown settings,
// unreadable inventory, ...). A spec that does not compile cannot be checked further.
#include "lint/Context.h"

#include <cstring>

namespace qspec::lint {

// Codes other rules report under their own IDs (even when those rules are turned off).
static const char *const kMapped[] = {
    "warn_pattern_matches_nothing", "warn_type_matches_nothing", "err_override_conflict",
    "err_protected_lowered", "err_tuning_protected", "err_group_split", "err_tier_not_expressible",
    "err_tier_not_expressible_pattern", "warn_group_empty", "err_ladder_order", "err_ladder_duplicate"};

void checkSpecInvalid(LintContext &ctx) {
  auto &cd = ctx.compilerDiags;
  for (auto it = cd.begin(); it != cd.end();) {
    bool mapped = false;
    for (const char *c : kMapped)
      mapped = mapped || it->code == c;
    bool error = it->severity == Severity::Error || it->severity == Severity::Fatal;
    if (mapped || !error) {
      ++it;
      continue;
    }
    Diagnostic &d = ctx.report(RuleID::SpecInvalid, it->range, it->message + " [" + it->code + "]");
    for (Diagnostic &n : it->notes)
      d.notes.push_back(std::move(n));
    it = cd.erase(it);
  }
}

} // namespace qspec::lint
