// GroupFormationPass: the sets of modules that must share a tier.
//
// 1. Same-score groups: scored names with exactly equal scores form one group. A scored name
//    covers the module of that name and, if it is a block ("model.layers.3"), every module under
//    it ("model.layers.3.*"). A score shared by a single name forms no group.
// 2. Declared groups: a member pattern without variables contributes all its modules to one
//    group; with variables (`{i}`), modules are grouped by the values they bind, so
//    "model.layers.{i}.mlp.gate_proj" with "model.layers.{i}.mlp.up_proj" gives one group per i.
// 3. Groups that share a module are merged (union-find): ties are transitive.
// 4. Protected modules are never group members: they are fixed at float and cannot move.
// 5. Groups are ordered by their first member (the precedence pass records each module's group).
#include "passes/Pass.h"

#include <algorithm>
#include <map>
#include <numeric>

namespace qspec::passes {
namespace {

struct UnionFind {
  std::vector<int32_t> parent;
  explicit UnionFind(size_t n) : parent(n) { std::iota(parent.begin(), parent.end(), 0); }
  int32_t find(int32_t x) {
    while (parent[static_cast<size_t>(x)] != x)
      x = parent[static_cast<size_t>(x)] =
          parent[static_cast<size_t>(parent[static_cast<size_t>(x)])];
    return x;
  }
  void unite(int32_t a, int32_t b) {
    a = find(a);
    b = find(b);
    if (a != b)
      parent[static_cast<size_t>(std::max(a, b))] = std::min(a, b);
  }
};

class GroupFormationPass : public Pass {
public:
  const char *name() const override { return "groups"; }

  bool run(PassContext &ctx) override {
    ir::Spec &spec = ctx.spec;
    if (!spec.inventory.present())
      return true;
    const auto &mods = spec.inventory.modules;
    std::vector<bool> isProtected(mods.size(), false);
    for (const ir::Protect &p : spec.protects)
      for (uint32_t m : spec.resolution.selected[&p.selector])
        isProtected[m] = true;

    struct Proto {
      std::string name;
      ir::GroupDecl::Kind kind;
      int32_t decl;
      double score;
      SourceRange range;
      std::vector<uint32_t> members;
    };
    std::vector<Proto> protos;

    for (size_t gi = 0; gi < spec.groups.size(); ++gi) {
      const ir::GroupDecl &g = spec.groups[gi];
      if (g.kind == ir::GroupDecl::SameScore) {
        sameScore(spec, static_cast<int32_t>(gi), protos);
        continue;
      }
      // Declared: key = bound variable values ("" when the pattern has none).
      std::map<std::string, std::vector<uint32_t>> byKey;
      std::vector<std::string_view> caps;
      for (const ir::Selector &s : g.members) {
        for (uint32_t m : spec.resolution.selected[&s]) {
          std::string key;
          if (s.pattern && !s.pattern->variables().empty()) {
            s.pattern->matches(mods[m].name, &caps);
            for (auto c : caps)
              key += std::string(c) + ",";
          }
          byKey[key].push_back(m);
        }
      }
      bool any = false;
      for (auto &[key, members] : byKey) {
        std::string name = g.name + (key.empty() ? "" : "[" + key.substr(0, key.size() - 1) + "]");
        protos.push_back({name, g.kind, static_cast<int32_t>(gi), 0, g.range, members});
        any = any || members.size() >= 2;
      }
      if (!any)
        ctx.diags.report(DiagID::warn_group_empty, g.range, {g.name});
    }

    // Merge overlapping groups.
    UnionFind uf(protos.size());
    std::vector<int32_t> owner(mods.size(), -1);
    for (size_t p = 0; p < protos.size(); ++p)
      for (uint32_t m : protos[p].members) {
        if (isProtected[m])
          continue;
        if (owner[m] >= 0)
          uf.unite(owner[m], static_cast<int32_t>(p));
        else
          owner[m] = static_cast<int32_t>(p);
      }
    std::map<int32_t, std::vector<uint32_t>> merged;
    for (uint32_t m = 0; m < mods.size(); ++m)
      if (owner[m] >= 0)
        merged[uf.find(owner[m])].push_back(m);

    std::vector<ir::Group> groups;
    for (auto &[root, members] : merged) {
      if (members.size() < 2)
        continue;
      const Proto &p = protos[static_cast<size_t>(root)];
      ir::Group g;
      g.name = p.name;
      g.kind = p.kind;
      g.decl = p.decl;
      g.score = p.score;
      g.range = p.range;
      g.members = members;
      groups.push_back(std::move(g));
    }
    std::sort(groups.begin(), groups.end(), [](const ir::Group &a, const ir::Group &b) {
      return a.members.front() < b.members.front();
    });
    // (Each module's ResolvedModule::group is set from these lists by the precedence pass, which
    // writes every module's resolution in one pass.)
    spec.resolution.groups = std::move(groups);
    return true;
  }

private:
  template <typename Protos> void sameScore(ir::Spec &spec, int32_t decl, Protos &protos) {
    const auto &mods = spec.inventory.modules;
    // Modules covered by each scored name: the name itself, or everything under "name.".
    std::map<double, std::vector<std::string>> byScore;
    for (const ir::ScoreEntry &e : spec.scores.entries)
      byScore[e.score].push_back(e.name);
    std::vector<uint32_t> order(mods.size());
    std::iota(order.begin(), order.end(), 0);
    std::sort(order.begin(), order.end(),
              [&](uint32_t a, uint32_t b) { return mods[a].name < mods[b].name; });
    auto covered = [&](const std::string &name, std::vector<uint32_t> &out) {
      auto lo =
          std::lower_bound(order.begin(), order.end(), name,
                           [&](uint32_t i, const std::string &n) { return mods[i].name < n; });
      std::string prefix = name + ".";
      for (auto it = lo; it != order.end(); ++it) {
        const std::string &n = mods[*it].name;
        if (n.compare(0, name.size(), name) != 0)
          break;
        if (n == name || n.compare(0, prefix.size(), prefix) == 0)
          out.push_back(*it);
      }
    };
    const ir::GroupDecl &g = spec.groups[static_cast<size_t>(decl)];
    for (auto &[score, names] : byScore) {
      if (names.size() < 2)
        continue;
      std::vector<uint32_t> members;
      for (const std::string &n : names)
        covered(n, members);
      std::sort(members.begin(), members.end());
      members.erase(std::unique(members.begin(), members.end()), members.end());
      char buf[64];
      snprintf(buf, sizeof buf, "%.6g", score);
      protos.push_back({"same_score[" + std::string(buf) + "]", ir::GroupDecl::SameScore, decl,
                        score, g.range, members});
    }
  }
};

} // namespace

std::unique_ptr<Pass> createGroupFormationPass() { return std::make_unique<GroupFormationPass>(); }

} // namespace qspec::passes
