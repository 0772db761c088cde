// `qlint rule ID` / `qlint --explain ID`: the rule's row of lint/Rules.def and its doc page
// (docs/lint/<category>/<name>.md, embedded at build time by lint/cmake/EmbedRuleDocs.cmake), or
// for a deprecated ID what replaced it.
#include "lint/Lint.h"

#include <cstring>
#include <ostream>

namespace qspec::lint {
namespace {

struct RuleDoc {
  const char *id;
  const char *text;
};

const RuleDoc kRuleDocs[] = {
#include "RuleDocs.inc"
};

} // namespace

const char *ruleDoc(const RuleInfo &r) {
  for (const RuleDoc &d : kRuleDocs)
    if (std::strcmp(d.id, r.id) == 0)
      return d.text;
  return nullptr;
}

bool explainRule(std::ostream &os, std::string_view id) {
  if (const DeprecatedRule *d = findDeprecatedRule(id)) {
    os << d->id << " is deprecated (" << d->why << "). As a selector it selects:\n";
    for (const std::string &rep : d->replacements)
      os << "  " << rep << "\n";
    return true;
  }
  const RuleInfo *r = findRule(id);
  if (!r)
    return false;
  if (const char *doc = ruleDoc(*r)) {
    os << doc;
    return true;
  }
  os << r->id << " (" << r->category << ", " << severityName(r->severity)
     << (r->fixable ? ", fixable" : "") << "): " << r->summary << "\n";
  return true;
}

} // namespace qspec::lint
