// Small helpers the vendors' code shares (vendors/<vendor>/*Rules.cpp, *Patterns.cpp).
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <initializer_list>
#include <string_view>

namespace qspec::vendors {

// True when `v` is one of the listed words (a vendor's enum or type list).
inline bool isOneOf(std::string_view v, std::initializer_list<const char *> list) {
  for (const char *s : list)
    if (v == s)
      return true;
  return false;
}

// How many leading bytes `a` and `b` share, compared eight at a time (the readers and the name
// trie walk sorted or tree-ordered names, where neighbours share most of their bytes).
inline size_t commonPrefixLength(std::string_view a, std::string_view b) {
  size_t n = std::min(a.size(), b.size()), i = 0;
  for (; i + 8 <= n; i += 8) {
    uint64_t x, y;
    std::memcpy(&x, a.data() + i, 8);
    std::memcpy(&y, b.data() + i, 8);
    if (x != y)
      break;
  }
  while (i < n && a[i] == b[i])
    ++i;
  return i;
}

} // namespace qspec::vendors
