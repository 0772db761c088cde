// ir::Regex: the one place qspec runs std::regex (ECMAScript): whole-text and anchored-prefix
// matches, a pattern from input that does not compile, and every match with its groups.
#include "ir/Regex.h"

#include <gtest/gtest.h>

using qspec::ir::Regex;

TEST(RegexTest, FullMatchIsTheWholeText) {
  Regex level("L(0|[1-9][0-9]*)");
  EXPECT_TRUE(level.fullMatch("L0"));
  EXPECT_TRUE(level.fullMatch("L10"));
  EXPECT_FALSE(level.fullMatch("L01"));
  EXPECT_FALSE(level.fullMatch("xL1"));
  EXPECT_FALSE(level.fullMatch("L1 "));
  EXPECT_TRUE(Regex("~|null|").fullMatch(""));
}

TEST(RegexTest, PrefixMatchIsAnchoredAtTheStartOnly) {
  Regex attn("model\\.layers\\.[0-9]+\\.self_attn");
  EXPECT_TRUE(attn.prefixMatch("model.layers.3.self_attn.q_proj"));
  EXPECT_FALSE(attn.prefixMatch("vision.model.layers.3.self_attn"));
  // A view into a longer string is matched on its own characters.
  std::string name = "model.layers.12.self_attn.o_proj";
  EXPECT_FALSE(attn.prefixMatch(std::string_view(name).substr(0, 14)));
}

TEST(RegexTest, APatternThatDoesNotCompileIsAnError) {
  std::string error;
  EXPECT_FALSE(Regex::compile("layers.(", error).has_value());
  EXPECT_FALSE(error.empty());
  error.clear();
  std::optional<Regex> ok = Regex::compile("q_proj|k_proj", error);
  ASSERT_TRUE(ok.has_value());
  EXPECT_TRUE(error.empty());
  EXPECT_TRUE(ok->fullMatch("k_proj"));
  EXPECT_THROW(Regex("[unclosed"), std::exception);
}

TEST(RegexTest, FindAllGivesEachMatchWithItsGroups) {
  Regex re("expected-(error|note)(@([0-9]+))?");
  std::vector<Regex::Match> all = re.findAll("x expected-error@3 y expected-note z");
  ASSERT_EQ(all.size(), 2u);
  EXPECT_EQ(all[0].groups[0], "expected-error@3");
  EXPECT_EQ(all[0].groups[1], "error");
  EXPECT_TRUE(all[0].matched[2]);
  EXPECT_EQ(all[0].groups[3], "3");
  EXPECT_EQ(all[1].groups[1], "note");
  EXPECT_FALSE(all[1].matched[2]);
  EXPECT_EQ(all[1].groups[3], "");
  EXPECT_TRUE(re.findAll("nothing here").empty());
}
