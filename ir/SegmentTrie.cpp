// The segment trie of the module names and its classes of equal subtrees; see SegmentTrie.h.
#include "ir/SegmentTrie.h"

#include <algorithm>

namespace qspec::ir {

namespace {
uint64_t mix(uint64_t h, uint64_t v) {
  h ^= v + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2);
  return h * 0xff51afd7ed558ccdULL;
}
} // namespace

SegmentTrie::SegmentTrie() : nodes_(1), edgeStart_{0} {}

uint32_t SegmentTrie::newNode(uint32_t parent, uint32_t segment) {
  const uint32_t n = static_cast<uint32_t>(nodes_.size());
  Node node;
  node.segment = segment;
  node.nextSibling = nodes_[parent].firstChild;
  nodes_.push_back(node);
  nodes_[parent].firstChild = n;
  return n;
}

void SegmentTrie::addName(uint32_t module, size_t shared, const std::vector<uint32_t> &ids) {
  if (ids.empty())
    return;
  size_t depth = std::min({shared, depth_, ids.size()});
  if (path_.size() < ids.size())
    path_.resize(ids.size());
  for (; depth < ids.size(); ++depth)
    path_[depth] = newNode(depth == 0 ? root() : path_[depth - 1], ids[depth]);
  uint32_t n = path_[depth - 1];
  if (nodes_[n].module != kNone) { // the same name again: a node of its own
    n = newNode(depth == 1 ? root() : path_[depth - 2], nodes_[n].segment);
    path_[depth - 1] = n;
  }
  nodes_[n].module = module;
  depth_ = depth;
}

void SegmentTrie::finish() {
  std::vector<Edge> scratch;
  // A child is made after its parent: from the last node back, children get their class first.
  for (size_t n = nodes_.size(); n-- > 0;)
    nodes_[n].cls = classOf(static_cast<uint32_t>(n), scratch);
  byHash_ = {};
}

uint32_t SegmentTrie::classOf(uint32_t n, std::vector<Edge> &scratch) {
  scratch.clear();
  for (uint32_t c = nodes_[n].firstChild; c != kNone; c = nodes_[c].nextSibling)
    scratch.push_back({nodes_[c].segment, nodes_[c].cls});
  auto less = [](const Edge &a, const Edge &b) {
    return a.segment != b.segment ? a.segment < b.segment : a.cls < b.cls;
  };
  auto same = [](const Edge &a, const Edge &b) { return a.segment == b.segment && a.cls == b.cls; };
  std::sort(scratch.begin(), scratch.end(), less);
  // Two children of one segment and class (a prefix that came back) answer alike: one edge.
  scratch.erase(std::unique(scratch.begin(), scratch.end(), same), scratch.end());
  const bool term = nodes_[n].module != kNone;
  if (scratch.empty() && leafClass_[term] != kNone) // most nodes: without a hash
    return leafClass_[term];
  uint64_t h = term;
  for (const Edge &e : scratch)
    h = mix(h, uint64_t{e.segment} << 32 | e.cls);
  auto [it, inserted] = byHash_.try_emplace(h, kNone);
  for (uint32_t c = it->second; c != kNone; c = sameHash_[c])
    if (terminal_[c] == term &&
        std::equal(scratch.begin(), scratch.end(), edgesBegin(c), edgesEnd(c), same))
      return c;
  const uint32_t c = static_cast<uint32_t>(terminal_.size());
  terminal_.push_back(term);
  edges_.insert(edges_.end(), scratch.begin(), scratch.end());
  edgeStart_.push_back(static_cast<uint32_t>(edges_.size()));
  sameHash_.push_back(it->second);
  it->second = c;
  if (scratch.empty())
    leafClass_[term] = c;
  return c;
}

} // namespace qspec::ir
