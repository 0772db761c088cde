#include "ir/Pattern.h"

#include <gtest/gtest.h>

using qspec::Pattern;

static bool m(const char *pat, const char *name) {
  std::string err;
  auto p = Pattern::compile(pat, err);
  EXPECT_TRUE(p.has_value()) << err;
  return p && p->matches(name);
}

TEST(Pattern, WholeNameAndStarCrossesDots) {
  EXPECT_TRUE(m("*model.layers.1.*", "model.layers.1.self_attn.q_proj"));
  EXPECT_FALSE(m("*model.layers.1.*", "model.layers.10.x"));
  EXPECT_FALSE(m("*model.layers.1.*", "model.layers.1"));
  EXPECT_FALSE(m("*gate", "x.gate_proj"));
  EXPECT_TRUE(m("*gate_proj", "x.mlp.gate_proj"));
}

TEST(Pattern, CaseSensitiveAndQuestionMark) {
  EXPECT_FALSE(m("LM_HEAD", "lm_head"));
  EXPECT_TRUE(m("lm_hea?", "lm_head"));
  EXPECT_FALSE(m("lm_hea?", "lm_hea"));
}

TEST(Pattern, Classes) {
  EXPECT_TRUE(m("layer[0-3]", "layer2"));
  EXPECT_FALSE(m("layer[0-3]", "layer4"));
  EXPECT_TRUE(m("layer[!0-3]", "layer4"));
  EXPECT_TRUE(m("a[[:digit:]]b", "a7b"));
  EXPECT_TRUE(m("a\\*b", "a*b"));
  EXPECT_FALSE(m("a\\*b", "axb"));
}

TEST(Pattern, BracesAndRanges) {
  EXPECT_TRUE(m("model.layers.{0..3}.mlp.{gate,up}_proj", "model.layers.2.mlp.up_proj"));
  EXPECT_FALSE(m("model.layers.{0..3}.mlp.{gate,up}_proj", "model.layers.4.mlp.up_proj"));
  EXPECT_FALSE(m("model.layers.{0..3}.mlp.{gate,up}_proj", "model.layers.2.mlp.down_proj"));
  EXPECT_TRUE(m("x.{1..20}", "x.20"));
  EXPECT_FALSE(m("x.{1..20}", "x.02"));
  EXPECT_TRUE(m("x.{01..10}", "x.02"));
  EXPECT_FALSE(m("x.{01..10}", "x.2"));
  EXPECT_TRUE(m("x.{0..10..5}", "x.5"));
  EXPECT_FALSE(m("x.{0..10..5}", "x.4"));
  EXPECT_TRUE(m("x.{a..c}", "x.b"));
  EXPECT_TRUE(m("{a,b{c,d}}", "bd"));
  EXPECT_TRUE(m("{1..2}0", "10"));
}

TEST(Pattern, HugeRangeDoesNotExpand) {
  EXPECT_TRUE(m("layer.{0..99999999}", "layer.12345678"));
  EXPECT_FALSE(m("layer.{0..99999999}", "layer.123456789"));
}

TEST(Pattern, VariablesBindNumbers) {
  std::string err;
  auto p = Pattern::compile("model.layers.{i}.mlp.gate_proj", err);
  ASSERT_TRUE(p);
  std::vector<std::string_view> caps;
  ASSERT_TRUE(p->matches("model.layers.17.mlp.gate_proj", &caps));
  ASSERT_EQ(caps.size(), 1u);
  EXPECT_EQ(caps[0], "17");
  EXPECT_FALSE(p->matches("model.layers.x.mlp.gate_proj"));
  EXPECT_EQ(p->variables(), std::vector<std::string>{"i"});
}

TEST(Pattern, LiteralAndPrefix) {
  std::string err;
  auto lit = Pattern::compile("lm_head", err);
  ASSERT_TRUE(lit);
  EXPECT_TRUE(lit->isLiteral());
  auto glob = Pattern::compile("model.layers.*.mlp", err);
  ASSERT_TRUE(glob);
  EXPECT_FALSE(glob->isLiteral());
  EXPECT_EQ(glob->literalPrefix(), "model.layers.");
}

TEST(Pattern, LeadingBangIsLiteral) {
  EXPECT_TRUE(m("!x", "!x"));
  EXPECT_FALSE(m("!x", "y"));
}

TEST(Pattern, PathologicalStarsStayFast) {
  std::string name(2000, 'a');
  EXPECT_FALSE(m("*a*a*a*a*a*a*a*a*a*a*b", name.c_str()));
}
