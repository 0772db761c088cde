// llmc-pattern-matches-nothing: with --inventory, a target or ignore entry (a name, a `re:`
// pattern, a class name) that matches no module of the model. A warning: recipes are often shared
// between models. The vendor model's check (vendors::ct::checkDocument, pattern-no-match).
#include "lint/rules/llmc/LlmcUtil.h"

namespace qspec::lint {

void checkLlmcPatternMatchesNothing(RecipeInput &ctx) {
  llmc::reportIssues(ctx, RuleID::LlmcPatternMatchesNothing, vendors::ct::Check::PatternNoMatch);
}

} // namespace qspec::lint
