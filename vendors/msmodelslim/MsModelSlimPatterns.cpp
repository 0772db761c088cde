// Pattern compression for include/exclude lists; see MsModelSlimRules.h (SelectionCompressor).
// Patterns are checked with ir::Pattern, which implements msModelSlim's matching (reference 5).
#include "vendors/msmodelslim/MsModelSlimRules.h"
#include "vendors/msmodelslim/MsModelSlimBraces.h"
#include "vendors/CheckHelpers.h"

#include <algorithm>
#include <cctype>
#include <cstring>
#include <map>

namespace qspec::msmodelslim {

namespace {

bool isDecimal(const std::string &s) {
  if (s.empty() || s.size() > 9)
    return false;
  for (char c : s)
    if (c < '0' || c > '9')
      return false;
  return s.size() == 1 || s[0] != '0';
}

std::vector<std::string> splitDots(const std::string &s) {
  std::vector<std::string> parts;
  size_t start = 0;
  for (size_t i = 0; i <= s.size(); ++i)
    if (i == s.size() || s[i] == '.') {
      parts.push_back(s.substr(start, i - start));
      start = i + 1;
    }
  return parts;
}

std::string braceOf(std::vector<long> nums) {
  std::sort(nums.begin(), nums.end());
  nums.erase(std::unique(nums.begin(), nums.end()), nums.end());
  std::vector<std::string> items;
  for (size_t i = 0; i < nums.size();) {
    size_t j = i;
    while (j + 1 < nums.size() && nums[j + 1] == nums[j] + 1)
      ++j;
    if (j - i >= 2) {
      items.push_back("{" + std::to_string(nums[i]) + ".." + std::to_string(nums[j]) + "}");
    } else {
      for (size_t k = i; k <= j; ++k)
        items.push_back(std::to_string(nums[k]));
    }
    i = j + 1;
  }
  if (items.size() == 1)
    return items[0][0] == '{' ? items[0] : items[0];
  std::string out = "{";
  for (size_t i = 0; i < items.size(); ++i)
    out += (i ? "," : "") + items[i];
  return out + "}";
}

// Merges patterns that differ only in one decimal dotted component into a brace range,
// rightmost component first.
std::vector<std::string> mergeRanges(std::vector<std::string> pats) {
  size_t maxParts = 0;
  for (const auto &p : pats)
    maxParts = std::max(maxParts, splitDots(p).size());
  for (size_t pos = maxParts; pos-- > 0;) {
    std::map<std::string, std::vector<long>> groups; // key with a hole at pos -> numbers
    std::map<std::string, std::vector<std::string>> keyParts;
    std::vector<std::string> rest, order;
    for (const auto &p : pats) {
      auto parts = splitDots(p);
      if (pos >= parts.size() || !isDecimal(parts[pos])) {
        rest.push_back(p);
        continue;
      }
      std::string key;
      for (size_t i = 0; i < parts.size(); ++i)
        key += (i ? "." : "") + (i == pos ? std::string("\x01") : parts[i]);
      if (!groups.count(key))
        order.push_back(key);
      groups[key].push_back(std::stol(parts[pos]));
      keyParts[key] = parts;
    }
    for (const auto &key : order) {
      auto parts = keyParts[key];
      const auto &nums = groups[key];
      parts[pos] = nums.size() == 1 ? std::to_string(nums[0]) : braceOf(nums);
      std::string joined;
      for (size_t i = 0; i < parts.size(); ++i)
        joined += (i ? "." : "") + parts[i];
      rest.push_back(joined);
    }
    pats = std::move(rest);
  }
  return pats;
}

// Numeric-aware ordering so model.layers.2 sorts before model.layers.10.
bool naturalLess(const std::string &a, const std::string &b) {
  size_t i = 0, j = 0;
  while (i < a.size() && j < b.size()) {
    if (std::isdigit(static_cast<unsigned char>(a[i])) &&
        std::isdigit(static_cast<unsigned char>(b[j]))) {
      size_t i2 = i, j2 = j;
      while (i2 < a.size() && std::isdigit(static_cast<unsigned char>(a[i2])))
        ++i2;
      while (j2 < b.size() && std::isdigit(static_cast<unsigned char>(b[j2])))
        ++j2;
      std::string na = a.substr(i, i2 - i), nb = b.substr(j, j2 - j);
      while (na.size() > 1 && na[0] == '0')
        na.erase(0, 1);
      while (nb.size() > 1 && nb[0] == '0')
        nb.erase(0, 1);
      if (na.size() != nb.size())
        return na.size() < nb.size();
      if (na != nb)
        return na < nb;
      i = i2;
      j = j2;
      continue;
    }
    if (a[i] != b[j])
      return static_cast<unsigned char>(a[i]) < static_cast<unsigned char>(b[j]);
    ++i;
    ++j;
  }
  if (a.size() - i != b.size() - j)
    return a.size() - i < b.size() - j;
  return a < b;
}

// Finds a trie edge (parent node, component) -> child node. Open addressing over node ids, with
// the keys read back from the trie's own arrays: one flat table instead of a hash node per
// module (a million-module inventory has about a million edges).
class EdgeTable {
public:
  explicit EdgeTable(size_t expected) {
    size_t cap = 16;
    while (cap < expected * 2)
      cap <<= 1;
    slots_.assign(cap, kEmpty);
  }
  // The child of `parent` named `comp`, creating it with `create()` (which returns its id) if
  // absent.
  template <typename Create>
  uint32_t findOrAdd(uint32_t parent, std::string_view comp, const std::vector<uint32_t> &parents,
                     const std::vector<std::string_view> &comps, Create &&create) {
    if (used_ * 2 >= slots_.size())
      grow(parents, comps);
    size_t mask = slots_.size() - 1;
    for (size_t i = hash(parent, comp) & mask;; i = (i + 1) & mask) {
      uint32_t id = slots_[i];
      if (id == kEmpty) {
        id = create();
        slots_[i] = id;
        ++used_;
        return id;
      }
      if (parents[id] == parent && comps[id] == comp)
        return id;
    }
  }

private:
  static constexpr uint32_t kEmpty = UINT32_MAX;
  static size_t hash(uint32_t parent, std::string_view comp) {
    return std::hash<std::string_view>()(comp) ^ (size_t(parent) * 0x9E3779B97F4A7C15ull);
  }
  void grow(const std::vector<uint32_t> &parents, const std::vector<std::string_view> &comps) {
    std::vector<uint32_t> old(slots_.size() * 2, kEmpty);
    old.swap(slots_);
    size_t mask = slots_.size() - 1;
    for (uint32_t id : old)
      if (id != kEmpty) {
        size_t i = hash(parents[id], comps[id]) & mask;
        while (slots_[i] != kEmpty)
          i = (i + 1) & mask;
        slots_[i] = id;
      }
  }
  std::vector<uint32_t> slots_;
  size_t used_ = 0;
};

// Whether the children of each parent (kids[childBegin[n], childBegin[n+1])) have distinct
// components: a few compared pairwise, more through a small table reused from parent to parent
// (it stays in the cache, where one table over every edge would not).
bool childrenDistinct(const std::vector<std::string_view> &comp,
                      const std::vector<uint32_t> &childBegin, const std::vector<uint32_t> &kids) {
  constexpr uint32_t kEmpty = UINT32_MAX;
  std::vector<uint32_t> table;
  for (size_t n = 0; n + 1 < childBegin.size(); ++n) {
    const uint32_t *b = kids.data() + childBegin[n], *e = kids.data() + childBegin[n + 1];
    size_t k = static_cast<size_t>(e - b);
    if (k <= 8) {
      for (const uint32_t *i = b; i < e; ++i)
        for (const uint32_t *j = b; j < i; ++j)
          if (comp[*i] == comp[*j])
            return false;
      continue;
    }
    size_t cap = 16;
    while (cap < k * 2)
      cap <<= 1;
    table.assign(cap, kEmpty);
    for (const uint32_t *i = b; i < e; ++i)
      for (size_t s = std::hash<std::string_view>()(comp[*i]) & (cap - 1);;
           s = (s + 1) & (cap - 1)) {
        if (table[s] == kEmpty) {
          table[s] = *i;
          break;
        }
        if (comp[table[s]] == comp[*i])
          return false;
      }
  }
  return true;
}
} // namespace

// The inventory's names as a trie of dot-separated components. Node 0 is the root; a node's
// parent always has a smaller index; a node's children are kids[childBegin[n], childBegin[n+1]),
// in the order they were made (compress sorts what it writes, so the output does not depend on
// the inventory's order).
//
// Built in one pass over the names in inventory order first: while a name's leading components
// equal the previous name's, their nodes are reused, and every component after the first
// difference is a new node. That is the trie when the names come subtree by subtree (a model's
// own order, a sorted index), which a check of each parent's children confirms; otherwise (a
// parent got the same component twice) the trie is built again with a table of every edge.
struct SelectionCompressor::Trie {
  std::vector<std::string_view> comp; // views into the inventory's names
  std::vector<uint32_t> parent;
  std::vector<int32_t> module; // the module named by the path to this node, or -1
  std::vector<uint32_t> childBegin, kids;
  std::vector<uint32_t> leafOf; // module -> node
  bool onePass = true;

  void build(const ir::Inventory &inv) {
    walk(inv, [&](uint32_t node, std::string_view c) { return add(node, c); });
    linkChildren();
    if (childrenDistinct(comp, childBegin, kids))
      return;
    onePass = false;
    comp.clear();
    parent.clear();
    module.clear();
    EdgeTable edges(inv.modules.size() * 2);
    walk(inv, [&](uint32_t node, std::string_view c) {
      return edges.findOrAdd(node, c, parent, comp, [&] { return add(node, c); });
    });
    linkChildren();
  }

private:
  uint32_t add(uint32_t node, std::string_view c) {
    comp.push_back(c);
    parent.push_back(node);
    module.push_back(-1);
    return static_cast<uint32_t>(comp.size() - 1);
  }

  // Every name's path, `child(node, component)` giving the node below `node` where the path
  // leaves the previous name's. The components the two names share are found from their common
  // prefix in bytes, without splitting or comparing them again.
  template <typename Child> void walk(const ir::Inventory &inv, Child &&child) {
    add(0, {});
    leafOf.resize(inv.modules.size());
    comp.reserve(inv.modules.size() * 2);
    parent.reserve(inv.modules.size() * 2);
    module.reserve(inv.modules.size() * 2);
    std::string_view prev;
    std::vector<uint32_t> ends, nodes; // the previous name's components: where each ends, its node
    for (uint32_t m = 0; m < inv.modules.size(); ++m) {
      std::string_view name = inv.modules[m].name;
      size_t common = vendors::commonPrefixLength(name, prev);
      size_t d = 0; // components shared with the previous name
      while (d < ends.size() && ends[d] <= common &&
             (ends[d] == name.size() || name[ends[d]] == '.'))
        ++d;
      ends.resize(d);
      nodes.resize(d);
      uint32_t node = d ? nodes[d - 1] : 0;
      bool more = d == 0 || ends[d - 1] < name.size(); // components the previous name lacks
      for (size_t start = d ? ends[d - 1] + 1 : 0; more;) {
        size_t dot = name.find('.', start);
        size_t end = dot == std::string_view::npos ? name.size() : dot;
        node = child(node, name.substr(start, end - start));
        ends.push_back(static_cast<uint32_t>(end));
        nodes.push_back(node);
        more = dot != std::string_view::npos;
        start = end + 1;
      }
      module[node] = static_cast<int32_t>(m);
      leafOf[m] = node;
      prev = name;
    }
  }

  // Children, grouped by parent (counting sort, creation order within a parent).
  void linkChildren() {
    size_t n = comp.size();
    childBegin.assign(n + 1, 0);
    for (size_t i = 1; i < n; ++i)
      ++childBegin[parent[i] + 1];
    for (size_t i = 0; i < n; ++i)
      childBegin[i + 1] += childBegin[i];
    kids.resize(n ? n - 1 : 0);
    std::vector<uint32_t> fill(childBegin.begin(), childBegin.end() - 1);
    for (size_t i = 1; i < n; ++i)
      kids[fill[parent[i]]++] = static_cast<uint32_t>(i);
  }
};

namespace {
// Walks the trie: a subtree holding Must modules and no Forbid module becomes `prefix.*`, a Must
// module `prefix` itself; anything else is split into its children.
struct Collector {
  const std::vector<std::string_view> &comp;
  const std::vector<int32_t> &module;
  const std::vector<uint32_t> &childBegin, &kids;
  const std::vector<Want> &want;
  const std::vector<uint32_t> &must, &forbid; // counts in each subtree, the node included
  std::vector<std::string> &out;
  std::string prefix;

  void visit(uint32_t n, bool isRoot) {
    int32_t m = module[n];
    bool selfMust = m >= 0 && want[m] == Want::Must;
    bool selfForbid = m >= 0 && want[m] == Want::Forbid;
    if (selfMust)
      out.push_back(escapeGlob(prefix));
    if (must[n] - selfMust == 0)
      return;
    if (forbid[n] - selfForbid == 0 && !isRoot) {
      out.push_back(escapeGlob(prefix) + ".*");
      return;
    }
    for (uint32_t k = childBegin[n]; k < childBegin[n + 1]; ++k) {
      uint32_t c = kids[k];
      size_t len = prefix.size();
      if (!isRoot)
        prefix += '.';
      prefix += comp[c];
      visit(c, false);
      prefix.resize(len);
    }
  }
};
} // namespace

namespace {

// A brace group with at least this many alternatives is replaced by `*` where that selects the
// same modules: wcmatch expands and compiles every alternative (and caches only 256 compiled
// patterns), so a `*` over a component the whole block agrees on costs one test instead of 128.
constexpr uint64_t kStarAlternatives = 100;

void sortNaturally(std::vector<std::string> &pats) {
  std::sort(pats.begin(), pats.end(), naturalLess);
  pats.erase(std::unique(pats.begin(), pats.end()), pats.end());
}

// The [open, close] spans of the top-level brace groups of `p`, last first.
std::vector<std::pair<size_t, size_t>> braceGroups(const std::string &p) {
  std::vector<std::pair<size_t, size_t>> out;
  int depth = 0;
  size_t open = 0;
  for (size_t i = 0; i < p.size(); ++i) {
    if (p[i] == '\\')
      ++i;
    else if (p[i] == '{' && depth++ == 0)
      open = i;
    else if (p[i] == '}' && depth > 0 && --depth == 0)
      out.emplace_back(open, i);
  }
  std::reverse(out.begin(), out.end());
  return out;
}

} // namespace

std::vector<std::string> SelectionCompressor::simplify(std::vector<std::string> pats,
                                                       const std::vector<Want> &want) const {
  std::vector<uint32_t> hits;
  if (countHits(pats, want, hits))
    widenGroups(pats, want, hits);
  sortNaturally(pats);
  return pats;
}

// The list verifies and `hits` counts its entries selecting each module, so a replacement is
// checked by what it changes alone (two selections instead of the whole list's): the wider entry
// selects no Forbid module, and every Must module only the narrower one selected is still selected.
void SelectionCompressor::widenGroups(std::vector<std::string> &pats, const std::vector<Want> &want,
                                      std::vector<uint32_t> &hits) const {
  std::vector<uint32_t> lost, gained;
  for (std::string &p : pats)
    for (auto [open, close] : braceGroups(p)) {
      if (braceExpansions(std::string_view(p).substr(open, close - open + 1)) < kStarAlternatives)
        continue;
      std::string wider = p.substr(0, open) + "*" + p.substr(close + 1);
      if (!selectText(wider, gained) || !selectText(p, lost) ||
          std::any_of(gained.begin(), gained.end(),
                      [&](uint32_t m) { return want[m] == Want::Forbid; }))
        continue;
      for (uint32_t m : lost)
        --hits[m];
      for (uint32_t m : gained)
        ++hits[m];
      auto kept = [&](uint32_t m) { return want[m] != Want::Must || hits[m] > 0; };
      if (std::all_of(lost.begin(), lost.end(), kept)) {
        p = std::move(wider);
        continue;
      }
      for (uint32_t m : gained)
        --hits[m];
      for (uint32_t m : lost)
        ++hits[m];
    }
}

SelectionCompressor::SelectionCompressor(const ir::Inventory &inv,
                                         const ir::ModuleSelector *selector)
    : inv_(inv), selector_(selector), trie_(std::make_unique<Trie>()) {
  if (!selector_ || &selector_->inventory() != &inv) {
    own_ = std::make_unique<ir::ModuleSelector>(inv);
    selector_ = own_.get();
  }
  trie_->build(inv);
}

SelectionCompressor::~SelectionCompressor() = default;

bool SelectionCompressor::builtInOnePass() const { return trie_->onePass; }

bool SelectionCompressor::selectText(const std::string &text, std::vector<uint32_t> &out) const {
  std::string err;
  auto p = Pattern::compile(text, err);
  if (!p)
    return false;
  out = selector_->selectWritten(text, *p); // exact string equality first, then the glob
  return true;
}

bool SelectionCompressor::countHits(const std::vector<std::string> &pats,
                                    const std::vector<Want> &want,
                                    std::vector<uint32_t> &hits) const {
  hits.assign(inv_.modules.size(), 0);
  std::vector<uint32_t> sel;
  for (const auto &text : pats) {
    if (!selectText(text, sel))
      return false;
    for (uint32_t m : sel) {
      if (want[m] == Want::Forbid)
        return false;
      ++hits[m];
    }
  }
  for (size_t m = 0; m < inv_.modules.size(); ++m)
    if (want[m] == Want::Must && !hits[m])
      return false;
  return true;
}

bool SelectionCompressor::verify(const std::vector<std::string> &pats,
                                 const std::vector<Want> &want) const {
  std::vector<uint32_t> hits;
  return countHits(pats, want, hits);
}

std::vector<std::string> SelectionCompressor::compress(const std::vector<Want> &want,
                                                       bool &verified) const {
  const Trie &t = *trie_;
  size_t n = t.comp.size();
  std::vector<uint32_t> must(n, 0), forbid(n, 0);
  size_t mustCount = 0, forbidCount = 0;
  for (size_t m = 0; m < inv_.modules.size(); ++m) {
    if (want[m] == Want::Must) {
      ++must[t.leafOf[m]];
      ++mustCount;
    } else if (want[m] == Want::Forbid) {
      ++forbid[t.leafOf[m]];
      ++forbidCount;
    }
  }
  for (size_t i = n; i-- > 1;) { // children before parents
    must[t.parent[i]] += must[i];
    forbid[t.parent[i]] += forbid[i];
  }
  verified = true;
  if (mustCount == 0)
    return {};
  if (forbidCount == 0)
    return {"*"};
  std::vector<std::string> base;
  Collector{t.comp, t.module, t.childBegin, t.kids, want, must, forbid, base, {}}.visit(0, true);
  std::vector<std::string> merged = mergeRanges(base);
  std::sort(merged.begin(), merged.end(), naturalLess);
  if (std::vector<uint32_t> hits; countHits(merged, want, hits)) {
    widenGroups(merged, want, hits);
    sortNaturally(merged);
    return merged;
  }
  std::sort(base.begin(), base.end(), naturalLess);
  if (verify(base, want))
    return base;
  std::vector<std::string> exact;
  for (size_t m = 0; m < inv_.modules.size(); ++m)
    if (want[m] == Want::Must)
      exact.push_back(escapeGlob(inv_.modules[m].name));
  std::sort(exact.begin(), exact.end(), naturalLess);
  verified = verify(exact, want);
  return exact;
}

} // namespace qspec::msmodelslim
