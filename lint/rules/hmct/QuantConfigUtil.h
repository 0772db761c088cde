// Helpers shared by the HMCT quant_config rules: the sections and their entries.
#pragma once

#include "vendors/hmct/HmctRules.h"
#include "lint/Context.h"

#include <algorithm>
#include <functional>
#include <string>

namespace qspec::lint::quantconfig {

inline bool contains(const std::vector<std::string> &v, const std::string &s) {
  return std::find(v.begin(), v.end(), s) != v.end();
}

// Calls fn(section, entryName, entryNameNode, entry) for each entry of op_config, node_config
// and subgraph_config.
inline void
forEachEntry(const LNode &root,
             const std::function<void(const std::string &, const LNode &, const LNode &)> &fn) {
  if (!root.isMap())
    return;
  for (const char *section : {"op_config", "subgraph_config", "node_config"}) {
    const LNode *s = root.get(section);
    if (!s || !s->isMap())
      continue;
    for (const auto &[name, entry] : s->map)
      fn(section, name, entry);
  }
}

// Reports the vendor model's issues (QuantConfigInput::hmctIssues) whose check is `check` under
// `rule`, at the value they are about; a warning-level issue stays a warning. `skip`: issues
// another rule reports.
inline void reportIssues(QuantConfigInput &ctx, RuleID rule, hmct::Check check,
                         bool (*skip)(const hmct::Issue &) = nullptr) {
  if (!ctx.hmctIssues)
    return;
  for (const hmct::Issue &i : *ctx.hmctIssues) {
    if (i.check != check || (skip && skip(i)))
      continue;
    Diagnostic &d = ctx.report(rule, ctx.at(i.line, i.column ? i.column : 1), i.message);
    if (!i.error)
      d.severity = Severity::Warning;
  }
}

} // namespace qspec::lint::quantconfig
