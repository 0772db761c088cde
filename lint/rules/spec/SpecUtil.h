// Helpers shared by the spec rules: which modules an override selects, its fields, and text
// edits that delete one item of a list or a whole statement.
#pragma once

#include "frontend/Parser.h"
#include "lint/Context.h"

#include <set>
#include <string>
#include <vector>

namespace qspec::lint::spec {

// Modules selected by any selector of `o`, ascending.
inline std::vector<uint32_t> selectedBy(const ir::Spec &spec,
                                        const std::vector<ir::Selector> &sels) {
  std::set<uint32_t> all;
  for (const ir::Selector &s : sels) {
    auto it = spec.resolution.selected.find(&s);
    if (it != spec.resolution.selected.end())
      all.insert(it->second.begin(), it->second.end());
  }
  return {all.begin(), all.end()};
}

using frontend::qspecString;

// The range that deletes bytes [begin, end) plus a following ';', and, when that leaves the line
// blank, the whole line.
inline SourceRange statementDeletion(const LintContext &ctx, uint32_t begin, uint32_t end) {
  const std::string &t = ctx.sm.text(ctx.file);
  uint32_t e = end;
  while (e < t.size() && (t[e] == ' ' || t[e] == '\t'))
    ++e;
  if (e < t.size() && t[e] == ';')
    ++e;
  uint32_t b = begin;
  while (b > 0 && (t[b - 1] == ' ' || t[b - 1] == '\t'))
    --b;
  uint32_t e2 = e;
  while (e2 < t.size() && (t[e2] == ' ' || t[e2] == '\t' || t[e2] == '\r'))
    ++e2;
  if ((b == 0 || t[b - 1] == '\n') && (e2 == t.size() || t[e2] == '\n'))
    return ctx.sm.range(ctx.file, b, e2 < t.size() ? e2 + 1 : e2);
  return ctx.sm.range(ctx.file, begin, e);
}

} // namespace qspec::lint::spec
