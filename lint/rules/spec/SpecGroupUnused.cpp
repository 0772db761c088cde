// spec-group-unused: a group selects fewer than two modules, so it ties nothing together
// (GroupFormationPass: warn_group_empty).
#include "lint/Context.h"

namespace qspec::lint {

void checkSpecGroupUnused(SpecInput &ctx) {
  takeCompilerDiags(ctx, RuleID::SpecGroupUnused, {"warn_group_empty"});
}

} // namespace qspec::lint
