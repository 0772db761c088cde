// Pattern compression for include/exclude lists; see MsModelSlimRules.h (compressSelection).
// Patterns are checked with ir::Pattern, which implements msModelSlim's matching (reference 5).
#include "emitters/msmodelslim/MsModelSlimRules.h"

#include <algorithm>
#include <cctype>
#include <map>

namespace qspec::msmodelslim {

namespace {

struct TrieNode {
  std::map<std::string, TrieNode> children;
  int32_t module = -1;
  size_t must = 0, forbid = 0; // in the subtree, this node included
};

void trieCollect(const TrieNode &n, const std::string &prefix, bool isRoot,
                 std::vector<std::string> &out, const std::vector<Want> &want) {
  if (n.module >= 0 && want[n.module] == Want::Must)
    out.push_back(escapeGlob(prefix));
  size_t childMust = n.must - (n.module >= 0 && want[n.module] == Want::Must ? 1 : 0);
  size_t childForbid = n.forbid - (n.module >= 0 && want[n.module] == Want::Forbid ? 1 : 0);
  if (childMust == 0)
    return;
  if (childForbid == 0 && !isRoot) {
    out.push_back(escapeGlob(prefix) + ".*");
    return;
  }
  for (const auto &[comp, child] : n.children)
    trieCollect(child, isRoot ? comp : prefix + "." + comp, false, out, want);
}

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

// True if `pats` select every Must module and no Forbid module.
} // namespace

bool verifySelection(const std::vector<std::string> &pats, const ir::Inventory &inv,
                     const std::vector<Want> &want) {
  std::vector<bool> hit(inv.modules.size(), false);
  for (const auto &text : pats) {
    std::string err;
    auto p = Pattern::compile(text, err);
    if (!p)
      return false;
    for (size_t m = 0; m < inv.modules.size(); ++m) {
      // msModelSlim tests exact string equality first, then the glob.
      if (inv.modules[m].name == text || p->matches(inv.modules[m].name)) {
        if (want[m] == Want::Forbid)
          return false;
        hit[m] = true;
      }
    }
  }
  for (size_t m = 0; m < inv.modules.size(); ++m)
    if (want[m] == Want::Must && !hit[m])
      return false;
  return true;
}

std::vector<std::string> compressSelection(const ir::Inventory &inv, const std::vector<Want> &want,
                                           bool &verified) {
  TrieNode root;
  size_t mustCount = 0, forbidCount = 0;
  for (size_t m = 0; m < inv.modules.size(); ++m) {
    TrieNode *n = &root;
    auto bump = [&](TrieNode *x) {
      if (want[m] == Want::Must)
        ++x->must;
      else if (want[m] == Want::Forbid)
        ++x->forbid;
    };
    bump(n);
    for (const auto &comp : splitDots(inv.modules[m].name)) {
      n = &n->children[comp];
      bump(n);
    }
    n->module = static_cast<int32_t>(m);
    mustCount += want[m] == Want::Must;
    forbidCount += want[m] == Want::Forbid;
  }
  verified = true;
  if (mustCount == 0)
    return {};
  if (forbidCount == 0)
    return {"*"};
  std::vector<std::string> base;
  trieCollect(root, "", true, base, want);
  std::vector<std::string> merged = mergeRanges(base);
  std::sort(merged.begin(), merged.end(), naturalLess);
  if (verifySelection(merged, inv, want))
    return merged;
  std::sort(base.begin(), base.end(), naturalLess);
  if (verifySelection(base, inv, want))
    return base;
  std::vector<std::string> exact;
  for (size_t m = 0; m < inv.modules.size(); ++m)
    if (want[m] == Want::Must)
      exact.push_back(escapeGlob(inv.modules[m].name));
  std::sort(exact.begin(), exact.end(), naturalLess);
  verified = verifySelection(exact, inv, want);
  return exact;
}

} // namespace qspec::msmodelslim
