// support::utf8 against the definition: a sequence is valid when its lead byte announces its
// length, every later byte is a continuation byte, and the code point needs that length and is
// neither a surrogate nor above U+10FFFF. Every sequence of up to two bytes is checked, every
// three-byte one with a three- or four-byte lead, and four-byte ones with a sample last byte.
#include "support/Utf8.h"

#include <gtest/gtest.h>

namespace utf8 = qspec::support::utf8;

namespace {

// The definition, written out plainly: the length and code point, or 0.
size_t referenceDecode(const std::string &s, uint32_t &cp) {
  const auto b = [&](size_t k) { return static_cast<unsigned char>(s[k]); };
  size_t len = b(0) < 0x80 ? 1 : b(0) >> 5 == 6 ? 2 : b(0) >> 4 == 14 ? 3 : b(0) >> 3 == 30 ? 4 : 0;
  if (len == 0 || len > s.size())
    return 0;
  uint32_t v = len == 1 ? b(0) : b(0) & (0xFF >> (len + 1));
  for (size_t k = 1; k < len; ++k) {
    if (b(k) >> 6 != 2)
      return 0;
    v = v << 6 | (b(k) & 0x3F);
  }
  const uint32_t least[] = {0, 0, 0x80, 0x800, 0x10000};
  if (v < least[len] || v > 0x10FFFF || (v >= 0xD800 && v <= 0xDFFF))
    return 0;
  cp = v;
  return len;
}

void expectSame(const std::string &s) {
  uint32_t want = 0, got = 0;
  size_t wantLen = referenceDecode(s, want), sub = 0;
  size_t gotLen = utf8::decode(s, 0, got, &sub);
  ASSERT_EQ(gotLen, wantLen) << testing::PrintToString(s);
  if (wantLen) {
    ASSERT_EQ(got, want) << testing::PrintToString(s);
    std::string again;
    utf8::append(again, got);
    ASSERT_EQ(again, s.substr(0, wantLen));
  } else {
    ASSERT_GE(sub, 1u);
    ASSERT_LE(sub, s.size());
  }
  if (wantLen == 0 || wantLen == s.size()) {
    ASSERT_EQ(utf8::isValid(s), wantLen != 0) << testing::PrintToString(s);
  }
}

} // namespace

TEST(Utf8, DecodesAsTheDefinitionSays) {
  for (int a = 0; a < 256; ++a) {
    expectSame(std::string(1, static_cast<char>(a)));
    for (int b = 0; b < 256; ++b) {
      expectSame({static_cast<char>(a), static_cast<char>(b)});
      if (a >= 0xE0)
        for (int c = 0; c < 256; ++c) {
          expectSame({static_cast<char>(a), static_cast<char>(b), static_cast<char>(c)});
          if (a >= 0xF0)
            for (int d : {0x7F, 0xBF})
              expectSame({static_cast<char>(a), static_cast<char>(b), static_cast<char>(c),
                          static_cast<char>(d)});
        }
    }
  }
}

// The bytes a decoder replaces with one U+FFFD: Unicode's examples (chapter 3, "U+FFFD
// Substitution of Maximal Subparts").
TEST(Utf8, MaximalSubparts) {
  uint32_t cp;
  size_t sub = 0;
  EXPECT_EQ(utf8::decode("\xE1\x80\x41", 0, cp, &sub), 0u);
  EXPECT_EQ(sub, 2u);
  EXPECT_EQ(utf8::decode("\xE0\x80\x80", 0, cp, &sub), 0u); // overlong: E0 alone
  EXPECT_EQ(sub, 1u);
  EXPECT_EQ(utf8::decode("\xED\xA0\x80", 0, cp, &sub), 0u); // a surrogate: ED alone
  EXPECT_EQ(sub, 1u);
  EXPECT_EQ(utf8::decode("\xF4\x8F\xBF", 0, cp, &sub), 0u); // cut short: all three
  EXPECT_EQ(sub, 3u);
  EXPECT_EQ(utf8::decode("\xC0\xAF", 0, cp, &sub), 0u);
  EXPECT_EQ(sub, 1u);
}

TEST(Utf8, FirstInvalid) {
  EXPECT_EQ(utf8::firstInvalid("plain ascii"), std::string_view::npos);
  EXPECT_EQ(utf8::firstInvalid("caf\xC3\xA9 \xF0\x9F\x98\x80"), std::string_view::npos);
  EXPECT_EQ(utf8::firstInvalid("ab\xC3"), 2u);
  EXPECT_EQ(utf8::firstInvalid("ab\xED\xA0\x80z"), 2u);
  EXPECT_EQ(utf8::firstInvalid(std::string_view("a\0\xFF", 3)), 2u);
}
