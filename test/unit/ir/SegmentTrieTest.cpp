// ir::SegmentTrie: every name ends on a node of its own whose path is the name, the segments a
// name shares with the one before it are not repeated, and nodes with equal subtrees share a
// class (and only those).
#include "ir/SegmentTrie.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <set>
#include <vector>

using qspec::ir::SegmentTrie;

namespace {
using Name = std::vector<uint32_t>; // segment ids

// Adds the names in order, each sharing with the one before it its common leading segments.
SegmentTrie trieOf(const std::vector<Name> &names) {
  SegmentTrie trie;
  const Name none;
  for (uint32_t i = 0; i < names.size(); ++i) {
    const Name &prev = i ? names[i - 1] : none, &name = names[i];
    size_t shared = 0;
    while (shared < prev.size() && shared < name.size() && prev[shared] == name[shared])
      ++shared;
    trie.addName(i, shared, name);
  }
  trie.finish();
  return trie;
}

// Each module's path from the root, read back from the nodes.
std::map<uint32_t, Name> pathsOf(const SegmentTrie &trie) {
  std::map<uint32_t, Name> paths;
  std::vector<std::pair<uint32_t, Name>> stack{{SegmentTrie::root(), {}}};
  while (!stack.empty()) {
    auto [n, path] = stack.back();
    stack.pop_back();
    if (trie.node(n).module != SegmentTrie::kNone) {
      EXPECT_TRUE(paths.emplace(trie.node(n).module, path).second)
          << "module " << trie.node(n).module << " twice";
    }
    for (uint32_t c = trie.node(n).firstChild; c != SegmentTrie::kNone;
         c = trie.node(c).nextSibling) {
      Name child = path;
      child.push_back(trie.node(c).segment);
      stack.emplace_back(c, child);
    }
  }
  return paths;
}

// A class's subtree, written out: (terminal, sorted (segment, child subtree)).
std::string subtree(const SegmentTrie &trie, uint32_t n) {
  std::vector<std::string> children;
  for (uint32_t c = trie.node(n).firstChild; c != SegmentTrie::kNone; c = trie.node(c).nextSibling)
    children.push_back(std::to_string(trie.node(c).segment) + subtree(trie, c));
  std::sort(children.begin(), children.end());
  children.erase(std::unique(children.begin(), children.end()), children.end());
  std::string s = trie.node(n).module != SegmentTrie::kNone ? "(T" : "(";
  for (const std::string &c : children)
    s += " " + c;
  return s + ")";
}
} // namespace

TEST(SegmentTrie, NamesAndClasses) {
  // layers.L.{q,k,v} and layers.L.mlp.{up,down} for ten layers; the name `layers.3` itself; a
  // prefix that comes back after another name (`head`, then `layers.0.q` and `layers.5.mlp.up`);
  // one name twice in a row.
  enum : uint32_t { layers = 100, q, k, v, mlp, up, down, head };
  std::vector<Name> names;
  for (uint32_t l = 0; l < 10; ++l) {
    for (uint32_t leaf : {q, k, v})
      names.push_back({layers, l, leaf});
    for (uint32_t leaf : {up, down})
      names.push_back({layers, l, mlp, leaf});
    if (l == 3)
      names.push_back({layers, 3});
  }
  names.push_back({head});
  names.push_back({layers, 0, q});
  names.push_back({layers, 5, mlp, up});
  names.push_back({layers, 5, mlp, up});
  SegmentTrie trie = trieOf(names);

  std::map<uint32_t, Name> paths = pathsOf(trie);
  ASSERT_EQ(paths.size(), names.size());
  for (uint32_t i = 0; i < names.size(); ++i)
    EXPECT_EQ(paths[i], names[i]) << "module " << i;
  // Root, `layers`, ten layers with mlp and five leaves each (70), `head`, then layers.0.q anew
  // (3), layers.5.mlp.up below that second `layers` (3) and once more (1): a name reuses only what
  // it shares with the name before it.
  EXPECT_EQ(trie.nodeCount(), 1u + 1 + 70 + 1 + 3 + 3 + 1);

  // Equal subtrees, equal classes; different ones, different classes; edges lead to lower classes.
  std::map<uint32_t, std::string> byClass;
  for (uint32_t n = 0; n < trie.nodeCount(); ++n) {
    uint32_t c = trie.node(n).cls;
    ASSERT_LT(c, trie.classCount());
    auto [it, inserted] = byClass.emplace(c, subtree(trie, n));
    EXPECT_EQ(it->second, subtree(trie, n)) << "node " << n << " in class " << c;
    for (const SegmentTrie::Edge *e = trie.edgesBegin(c); e != trie.edgesEnd(c); ++e)
      EXPECT_LT(e->cls, c);
    EXPECT_EQ(trie.terminal(c), trie.node(n).module != SegmentTrie::kNone);
  }
  std::set<std::string> distinct;
  for (const auto &[c, s] : byClass)
    EXPECT_TRUE(distinct.insert(s).second) << "two classes for " << s;
  // Leaf (`head` too); mlp; a layer; layer 3 (a name); layer 0 again (q only); layer 5 again
  // (mlp.up only) and its mlp; the two `layers`; the root.
  EXPECT_EQ(trie.classCount(), 1u + 1 + 1 + 1 + 1 + 2 + 2 + 1);
}
