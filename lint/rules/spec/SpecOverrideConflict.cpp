// spec-override-conflict: two overrides of one level (type or name) and equal priority give a
// module different values for one setting. The compiler's PrecedencePass reports it
// (err_override_conflict, with a note at the other override); qlint reports it under this ID.
#include "lint/Context.h"

namespace qspec::lint {

void checkSpecOverrideConflict(SpecInput &ctx) {
  takeCompilerDiags(ctx, RuleID::SpecOverrideConflict, {"err_override_conflict"});
}

} // namespace qspec::lint
