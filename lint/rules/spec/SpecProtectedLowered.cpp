// spec-protected-lowered: a name override naming a protected module exactly sets a tier below
// float, or a tuning raise below float selects a protected module. Both are compiler errors
// (err_protected_lowered, err_tuning_protected from PrecedencePass).
#include "lint/Context.h"

namespace qspec::lint {

void checkSpecProtectedLowered(SpecInput &ctx) {
  takeCompilerDiags(ctx, RuleID::SpecProtectedLowered,
                    {"err_protected_lowered", "err_tuning_protected"});
}

} // namespace qspec::lint
