// llmc-pattern-over-match: a `re:` entry that matches more than its writer meant. vLLM and
// compressed-tensors match `re:` entries with Python's re.match: a prefix match, in which an
// unescaped '.' is any character. With --inventory, an error naming the first module matched only
// that way and the pattern to write; without, a warning for a number left open ('layers.1.*' also
// takes layers 10-19). The vendor model's check (vendors::ct::checkDocument, pattern-over-match).
#include "lint/rules/llmc/LlmcUtil.h"

namespace qspec::lint {

void checkLlmcPatternOverMatch(RecipeInput &ctx) {
  llmc::reportIssues(ctx, RuleID::LlmcPatternOverMatch, vendors::ct::Check::PatternOverMatch);
}

} // namespace qspec::lint
