// spec-group-duplicate: two group declarations tie exactly the same modules together (compared on
// the resolved groups when an inventory is known, else on the member patterns as written). The
// second is redundant; the safe fix deletes it.
#include "lint/rules/spec/SpecUtil.h"

#include <algorithm>
#include <map>

namespace qspec::lint {

void checkSpecGroupDuplicate(SpecInput &ctx) {
  if (!ctx.specBuilt)
    return;
  const ir::Spec &spec = *ctx.spec;
  // Key per declaration: its groups' member lists (resolved) or its patterns (unresolved).
  std::vector<std::vector<std::vector<std::string>>> keys(spec.groups.size());
  if (ctx.specResolved) {
    // Per declaration, the member sets as GroupFormationPass builds them before merging: one
    // set per binding of the `{i}` variables.
    const auto &res = spec.resolution;
    for (size_t i = 0; i < spec.groups.size(); ++i) {
      std::map<std::string, std::vector<std::string>> byKey;
      std::vector<std::string_view> caps;
      for (const ir::Selector &s : spec.groups[i].members) {
        auto it = res.selected.find(&s);
        if (it == res.selected.end())
          continue;
        for (uint32_t m : it->second) {
          const std::string &name = spec.inventory.modules[m].name;
          std::string key;
          if (s.pattern && !s.pattern->variables().empty() && s.pattern->matches(name, &caps))
            for (auto c : caps)
              key += std::string(c) + ",";
          byKey[key].push_back(name);
        }
      }
      for (auto &[key, names] : byKey) {
        std::sort(names.begin(), names.end());
        names.erase(std::unique(names.begin(), names.end()), names.end());
        keys[i].push_back(names);
      }
      std::sort(keys[i].begin(), keys[i].end());
    }
  } else {
    for (size_t i = 0; i < spec.groups.size(); ++i) {
      std::vector<std::string> pats;
      for (const ir::Selector &s : spec.groups[i].members)
        pats.push_back(s.text);
      std::sort(pats.begin(), pats.end());
      keys[i].push_back(pats);
    }
  }
  std::map<std::vector<std::vector<std::string>>, size_t> first;
  for (size_t i = 0; i < spec.groups.size(); ++i) {
    const ir::GroupDecl &g = spec.groups[i];
    if (g.kind != ir::GroupDecl::Declared || keys[i].empty())
      continue;
    auto [it, inserted] = first.emplace(keys[i], i);
    if (inserted)
      continue;
    const ir::GroupDecl &orig = spec.groups[it->second];
    Diagnostic &d =
        ctx.report(RuleID::SpecGroupDuplicate, g.range,
                   "group '" + g.name + "' has the same members as group '" + orig.name + "'");
    ctx.note(d, orig.range, "first declared here");
    if (g.range.file == ctx.file) {
      FixIt f;
      f.range = spec::statementDeletion(ctx, g.range.begin.offset, g.range.end.offset);
      d.fixits.push_back(std::move(f));
    }
  }
}

} // namespace qspec::lint
