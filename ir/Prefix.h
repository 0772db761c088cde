// How many leading bytes two strings share: module names are read sorted or in file order, where
// neighbours share most of their bytes (the selector's segment index, the vendor readers, the
// msModelSlim name trie, Horizon's prefix lookups).
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <string_view>

namespace qspec::ir {

// Compared eight bytes at a time; in the first word that differs, the lowest differing byte is
// found from the XOR's trailing zeros (x86-64 and AArch64 load words little-endian).
inline size_t commonPrefixLength(std::string_view a, std::string_view b) {
  static_assert(sizeof(uint64_t) == 8);
  const size_t n = std::min(a.size(), b.size());
  size_t i = 0;
  for (; i + 8 <= n; i += 8) {
    uint64_t x, y;
    std::memcpy(&x, a.data() + i, 8);
    std::memcpy(&y, b.data() + i, 8);
    if (x != y) {
      if constexpr (__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__)
        return i + static_cast<size_t>(__builtin_ctzll(x ^ y)) / 8;
      break;
    }
  }
  while (i < n && a[i] == b[i])
    ++i;
  return i;
}

} // namespace qspec::ir
