// The module names of an inventory as a trie of dot-separated segments (by segment id), with its
// nodes folded into classes of equal subtrees: the states of the smallest automaton that accepts
// the names. A question asked segment by segment (ModuleSelector's StarFold: which names a
// star-only pattern matches) is answered once per class and state instead of once per name, and
// then only the subtrees that hold an answer are read. DeepSeek-V3's 45,337 names make 60,487
// nodes but only 10 classes: every expert of every layer is one class.
#pragma once

#include <cstddef>
#include <cstdint>
#include <unordered_map>
#include <vector>

namespace qspec::ir {

class SegmentTrie {
public:
  static constexpr uint32_t kNone = UINT32_MAX;

  struct Node {
    uint32_t segment = kNone;    // the segment id this node adds to its parent's path (root: kNone)
    uint32_t firstChild = kNone; // children, linked through nextSibling
    uint32_t nextSibling = kNone;
    uint32_t module = kNone; // the module whose name is the path to this node, if any
    uint32_t cls = 0;        // its class: nodes of one class have equal subtrees
  };
  // An edge of a class: a child's segment id and the child's class.
  struct Edge {
    uint32_t segment, cls;
  };

  SegmentTrie();

  // Adds the next name (names in any order), `ids` its segment ids: the first `shared` are those
  // of the name added just before it (their nodes are reused), the others get new nodes. A prefix
  // that comes back after other names so gets a second node, of the same class when its subtree
  // is equal. Each module ends on a node of its own. A name has a segment at least.
  void addName(uint32_t module, size_t shared, const std::vector<uint32_t> &ids);
  // Folds the nodes into classes. Call once, after the last name.
  void finish();

  static constexpr uint32_t root() { return 0; }
  const Node &node(uint32_t n) const { return nodes_[n]; }
  size_t nodeCount() const { return nodes_.size(); }
  // Classes are numbered children first: every edge of class c leads to a class below c.
  size_t classCount() const { return terminal_.size(); }
  bool terminal(uint32_t cls) const { return terminal_[cls]; }
  const Edge *edgesBegin(uint32_t cls) const { return edges_.data() + edgeStart_[cls]; }
  const Edge *edgesEnd(uint32_t cls) const { return edges_.data() + edgeStart_[cls + 1]; }

private:
  uint32_t newNode(uint32_t parent, uint32_t segment);
  // The class of node n, whose children have theirs.
  uint32_t classOf(uint32_t n, std::vector<Edge> &scratch);

  std::vector<Node> nodes_;
  std::vector<uint32_t> path_; // the last name's nodes, by depth
  size_t depth_ = 0;           // its segments
  // Classes: terminal flag and sorted edges (edges_[edgeStart_[c], edgeStart_[c + 1])); by hash of
  // the two, the first class with that hash and, through sameHash_, the others.
  std::vector<uint8_t> terminal_;
  std::vector<Edge> edges_;
  std::vector<uint32_t> edgeStart_;
  std::unordered_map<uint64_t, uint32_t> byHash_;
  std::vector<uint32_t> sameHash_;
  uint32_t leafClass_[2] = {kNone, kNone}; // the class of a node without children, by terminal
};

} // namespace qspec::ir
