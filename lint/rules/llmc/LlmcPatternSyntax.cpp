// llmc-pattern-syntax: a `re:` target or ignore entry is not a regular expression qspec reads as
// Python does (a syntax error, or Python-only syntax such as (?P<name>...) or (?i)). The vendor
// model's check (vendors::ct::checkDocument, pattern-syntax).
#include "lint/rules/llmc/LlmcUtil.h"

namespace qspec::lint {

void checkLlmcPatternSyntax(RecipeInput &ctx) {
  llmc::reportIssues(ctx, RuleID::LlmcPatternSyntax, vendors::ct::Check::PatternSyntax);
}

} // namespace qspec::lint
