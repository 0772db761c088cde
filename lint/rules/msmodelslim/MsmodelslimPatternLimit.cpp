// msmodelslim-pattern-limit: an include or exclude entry of a processor msModelSlim cannot use.
// Entries are strings of at most 200 characters (`String should have at most 200 characters`),
// and wcmatch's fnmatch with BRACE refuses an entry that expands to more than 1,000 patterns
// (`PatternLimitException`, which ends LinearQuantProcessor). The facts are the vendor model's
// (vendors/msmodelslim: kMaxPatternChars, braceExpansions, kPatternLimit), the checks the same
// as checkPractice's `pattern-length` and `pattern-limit`.
#include "lint/rules/msmodelslim/PracticeUtil.h"
#include "vendors/msmodelslim/MsModelSlimBraces.h"
#include "vendors/msmodelslim/MsModelSlimRules.h"

namespace qspec::lint {

namespace {

void checkEntry(LintContext &ctx, const LNode &e, const std::string &path) {
  if (!e.isScalar())
    return;
  if (e.value.size() > msmodelslim::kMaxPatternChars)
    ctx.report(RuleID::MsmodelslimPatternLimit, e.range,
               path + ": String should have at most 200 characters (it has " +
                   std::to_string(e.value.size()) + ")");
  uint64_t n = msmodelslim::braceExpansions(e.value);
  if (n > msmodelslim::kPatternLimit)
    ctx.report(RuleID::MsmodelslimPatternLimit, e.range,
               path + ": PatternLimitException: pattern '" + e.value + "' expands to " +
                   (n == UINT64_MAX ? std::string("more than 2^64") : std::to_string(n)) +
                   " patterns, more than wcmatch's limit of 1000; split it into several entries");
}

} // namespace

void checkMsmodelslimPatternLimit(PracticeInput &ctx) {
  if (!ctx.tree || !ctx.tree->isMap())
    return;
  practice::forEachProcessor(*ctx.tree, [&](const LNode &item, const std::string &path) {
    for (const char *list : {"include", "exclude"}) {
      const LNode *l = item.get(list);
      if (!l || !l->isSeq())
        continue;
      for (size_t i = 0; i < l->seq.size(); ++i)
        checkEntry(ctx, l->seq[i], path + "." + list + "." + std::to_string(i));
    }
  });
}

} // namespace qspec::lint
