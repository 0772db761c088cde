// Helpers shared by the msModelSlim practice rules: walking processors (including `group`
// containers' `configs`) and reading scalars the way PyYAML's SafeLoader types them.
#pragma once

#include "lint/Context.h"
#include "vendors/msmodelslim/MsModelSlimRules.h"

#include <functional>
#include <string>

namespace qspec::lint::practice {

inline std::string apiversion(const LNode &root) {
  const LNode *v = root.get("apiversion");
  return v && v->isScalar() ? v->value : "Unknown";
}

// Calls `fn(item, path)` for each processor entry of spec.process and spec.prior[].process, and
// recursively for `group` configs. `path` is msModelSlim's dotted path (spec.process.0).
inline void forEachProcessor(const LNode &root,
                             const std::function<void(const LNode &, const std::string &)> &fn) {
  const LNode *spec = root.get("spec");
  if (!spec || !spec->isMap())
    return;
  std::function<void(const LNode &, const std::string &)> walk = [&](const LNode &list,
                                                                     const std::string &path) {
    if (!list.isSeq())
      return;
    for (size_t i = 0; i < list.seq.size(); ++i) {
      const LNode &item = list.seq[i];
      std::string p = path + "." + std::to_string(i);
      fn(item, p);
      const LNode *type = item.get("type");
      if (type && type->value == "group")
        if (const LNode *configs = item.get("configs"))
          walk(*configs, p + ".group.configs");
    }
  };
  if (const LNode *process = spec->get("process"))
    walk(*process, "spec.process");
  if (const LNode *prior = spec->get("prior"); prior && prior->isSeq())
    for (size_t i = 0; i < prior->seq.size(); ++i)
      if (const LNode *p = prior->seq[i].get("process"))
        walk(*p, "spec.prior." + std::to_string(i) + ".process");
}

// PyYAML bool for a plain scalar (true/false/yes/no/on/off in any case); nullopt if not a bool.
inline std::optional<bool> yamlBool(const LNode &n) {
  if (!n.isScalar() || n.quoted)
    return std::nullopt;
  std::string v;
  for (char c : n.value)
    v += static_cast<char>(tolower(static_cast<unsigned char>(c)));
  if (v == "true" || v == "yes" || v == "on")
    return true;
  if (v == "false" || v == "no" || v == "off")
    return false;
  return std::nullopt;
}

// Reports each finding of the vendor model (ctx.practiceIssues) whose check is one of `checks`
// as a finding of `rule`, at the vendor's line and column.
inline void reportVendorIssues(PracticeInput &ctx, RuleID rule,
                               std::initializer_list<msmodelslim::Check> checks) {
  if (!ctx.practiceIssues)
    return;
  for (const msmodelslim::Issue &i : *ctx.practiceIssues)
    for (msmodelslim::Check c : checks)
      if (i.check == c)
        ctx.report(rule, ctx.at(i.line ? i.line : 1, i.col ? i.col : 1), i.message);
}

} // namespace qspec::lint::practice
