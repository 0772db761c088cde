// ir::commonPrefixLength against a byte-by-byte count: a difference at every position of names
// up to three words long (inside a word, at its edges, in the tail), and prefixes of each other.
#include "ir/Prefix.h"

#include <gtest/gtest.h>

#include <string>

using namespace qspec;

namespace {
size_t byteByByte(const std::string &a, const std::string &b) {
  size_t i = 0;
  while (i < a.size() && i < b.size() && a[i] == b[i])
    ++i;
  return i;
}
} // namespace

TEST(CommonPrefixLength, EqualsTheByteByByteCount) {
  const std::string base = "model.layers.17.mlp.experts.3.up";
  for (size_t len = 0; len <= base.size(); ++len) {
    const std::string a = base.substr(0, len);
    EXPECT_EQ(ir::commonPrefixLength(a, base), len);
    EXPECT_EQ(ir::commonPrefixLength(base, a), len);
    for (size_t at = 0; at < len; ++at)
      for (char other : {'\0', '_', '\xff'}) {
        std::string b = a;
        if (b[at] == other)
          continue;
        b[at] = other;
        ASSERT_EQ(ir::commonPrefixLength(a, b), byteByByte(a, b)) << len << " " << at;
        ASSERT_EQ(ir::commonPrefixLength(b, a), at) << len << " " << at;
        b += "tail";
        ASSERT_EQ(ir::commonPrefixLength(a, b), at) << len << " " << at;
      }
  }
}
