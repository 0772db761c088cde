// spec-pattern-matches-nothing: a name pattern or `type` selector selects no module.
//
// The check is the compiler's (PatternResolutionPass reports warn_pattern_matches_nothing and
// warn_type_matches_nothing); the linter reports it under this rule ID. It needs an inventory.
#include "lint/Context.h"

namespace qspec::lint {

void checkSpecPatternMatchesNothing(SpecInput &ctx) {
  takeCompilerDiags(ctx, RuleID::SpecPatternMatchesNothing,
                    {"warn_pattern_matches_nothing", "warn_type_matches_nothing"});
}

} // namespace qspec::lint
