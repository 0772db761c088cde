// The rule registry: lint/Rules.def turned into a table, and rule selection.
#include "lint/Context.h"

#include <algorithm>

namespace qspec::lint {

const char *fileKindName(FileKind k) {
  switch (k) {
  case FileKind::QSpec:
    return "qspec";
  case FileKind::MsModelSlim:
    return "msmodelslim";
  case FileKind::Amct:
    return "amct";
  case FileKind::Hmct:
    return "hmct";
  case FileKind::Any:
    return "any";
  case FileKind::Unknown:
    return "unknown";
  }
  return "unknown";
}

const std::vector<RuleInfo> &allRules() {
  static const std::vector<RuleInfo> rules = {
#define RULE(ENUM, ID, CAT, KIND, SEV, FIX, SUMMARY)                                               \
  {RuleID::ENUM, ID, CAT, FileKind::KIND, Severity::SEV, FIX, SUMMARY, &check##ENUM},
#include "lint/Rules.def"
#undef RULE
  };
  return rules;
}

const RuleInfo &ruleInfo(RuleID r) { return allRules()[static_cast<size_t>(r)]; }

const RuleInfo *findRule(std::string_view id) {
  for (const RuleInfo &r : allRules())
    if (id == r.id)
      return &r;
  return nullptr;
}

bool selectorMatches(std::string_view sel, const RuleInfo &rule) {
  if (sel == "ALL" || sel == "all")
    return true;
  std::string_view id = rule.id;
  if (sel == id || sel == rule.category)
    return true;
  // A prefix ending at a word boundary: "spec-group" selects spec-group-split, not spec-groups.
  if (sel.size() < id.size() && id.substr(0, sel.size()) == sel &&
      (sel.back() == '-' || id[sel.size()] == '-'))
    return true;
  return false;
}

bool isValidSelector(std::string_view sel) {
  for (const RuleInfo &r : allRules())
    if (selectorMatches(sel, r))
      return true;
  return false;
}

} // namespace qspec::lint
