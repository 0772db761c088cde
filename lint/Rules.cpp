// The rule registry: lint/Rules.def turned into a table, the deprecated IDs of
// lint/DeprecatedRules.def, and rule selection.
#include "lint/Context.h"

#include <algorithm>

namespace qspec::lint {
namespace {
std::vector<std::string> splitWords(const char *s) {
  std::vector<std::string> out;
  std::string w;
  for (const char *p = s;; ++p) {
    if (*p == ' ' || *p == '\0') {
      if (!w.empty())
        out.push_back(std::move(w));
      w.clear();
      if (*p == '\0')
        return out;
    } else {
      w += *p;
    }
  }
}

// The table's entry for a rule of kind K: the framework runs a rule only on a file of its kind,
// whose input is InputFor<K>::type (lint/Lint.cpp), so the handler gets that type.
template <FileKind K, void (*Check)(typename InputFor<K>::type &)> void runAs(LintContext &ctx) {
  Check(static_cast<typename InputFor<K>::type &>(ctx));
}
} // namespace

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
  case FileKind::CompressedTensors:
    return "compressed-tensors";
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
  {RuleID::ENUM,  ID,  CAT,     FileKind::KIND,                                                    \
   Severity::SEV, FIX, SUMMARY, &runAs<FileKind::KIND, &check##ENUM>},
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

const std::vector<DeprecatedRule> &deprecatedRules() {
  static const std::vector<DeprecatedRule> table = [] {
    std::vector<DeprecatedRule> out;
#define DEPRECATED_RULE(ID, REPLACEMENTS, WHY) out.push_back({ID, splitWords(REPLACEMENTS), WHY});
#include "lint/DeprecatedRules.def"
#undef DEPRECATED_RULE
    return out;
  }();
  return table;
}

const DeprecatedRule *findDeprecatedRule(std::string_view id) {
  for (const DeprecatedRule &d : deprecatedRules())
    if (id == d.id)
      return &d;
  return nullptr;
}

std::vector<std::string> deprecatedIdsOf(const RuleInfo &rule) {
  std::vector<std::string> out;
  for (const DeprecatedRule &d : deprecatedRules())
    if (std::find(d.replacements.begin(), d.replacements.end(), rule.id) != d.replacements.end())
      out.push_back(d.id);
  return out;
}

bool selectorMatches(std::string_view sel, const RuleInfo &rule) {
  if (sel == "ALL" || sel == "all")
    return true;
  // A deprecated ID selects its replacements only (never by prefix).
  if (const DeprecatedRule *d = findDeprecatedRule(sel))
    return std::find(d->replacements.begin(), d->replacements.end(), rule.id) !=
           d->replacements.end();
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
