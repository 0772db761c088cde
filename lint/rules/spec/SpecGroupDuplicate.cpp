// spec-group-duplicate: two group declarations tie exactly the same modules together (compared on
// the resolved groups when an inventory is known, else on the member patterns as written). The
// second is redundant; the safe fix deletes it.
#include "lint/rules/spec/SpecUtil.h"

#include <map>

namespace qspec::lint {

void checkSpecGroupDuplicate(LintContext &ctx) {
  if (!ctx.specBuilt)
    return;
  const ir::Spec &spec = *ctx.spec;
  // Key per declaration: its groups' member lists (resolved) or its patterns (unresolved).
  std::vector<std::vector<std::vector<std::string>>> keys(spec.groups.size());
  if (ctx.specResolved) {
    for (const ir::Group &g : spec.resolution.groups) {
      if (g.decl < 0 || static_cast<size_t>(g.decl) >= keys.size())
        continue;
      std::vector<std::string> names;
      for (uint32_t m : g.members)
        names.push_back(spec.inventory.modules[m].name);
      keys[static_cast<size_t>(g.decl)].push_back(std::move(names));
    }
    for (auto &k : keys)
      std::sort(k.begin(), k.end());
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
    Diagnostic &d = ctx.report(RuleID::SpecGroupDuplicate, g.range,
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
