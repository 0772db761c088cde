// The frontend's units: string unescaping, the AST builder's shapes and ranges, and the typed
// spec builder on small in-memory specs.
#include "emitters/Emitter.h"
#include "frontend/Frontend.h"
#include "frontend/Parser.h"

#include <gtest/gtest.h>

using namespace qspec;
using qspec::ast::Kind;

namespace {

bool unescape(std::string_view body, std::string &out, size_t &bad) {
  return frontend::unescapeString(body, out, bad);
}

struct Parsed {
  SourceManager sm;
  DiagnosticEngine diags{sm};
  std::unique_ptr<ast::Node> root;
  explicit Parsed(const std::string &text) {
    FileID f = sm.addFile("t.qspec", text);
    root = frontend::parse(f, diags);
  }
  std::string firstError() const {
    for (const Diagnostic &d : diags.diagnostics())
      if (d.severity == Severity::Error)
        return d.code + ": " + d.message;
    return "";
  }
};

} // namespace

// qspecString writes a literal whose body unescapeString reads back as the same bytes.
TEST(QSpecString, RoundTripsThroughUnescape) {
  EXPECT_EQ(frontend::qspecString("layers.0.mlp"), "\"layers.0.mlp\"");
  EXPECT_EQ(frontend::qspecString("a\"b\\c\n\x7f"), "\"a\\\"b\\\\c\\x0a\\x7f\"");
  for (std::string text :
       {std::string("plain"), std::string("q\"uo\\te"), std::string("\t\x01\x7f"),
        std::string("\xc3\xa9t\xc3\xa9"), std::string("nul\0byte", 8)}) {
    std::string lit = frontend::qspecString(text), out;
    size_t bad = 0;
    ASSERT_TRUE(unescape(std::string_view(lit).substr(1, lit.size() - 2), out, bad)) << lit;
    EXPECT_EQ(out, text) << lit;
  }
}

TEST(Unescape, EverySupportedEscape) {
  std::string out;
  size_t bad = 99;
  ASSERT_TRUE(unescape(R"(a\"b\\c\nd\te\rf)", out, bad));
  EXPECT_EQ(out, "a\"b\\c\nd\te\rf");
  ASSERT_TRUE(unescape(R"(\x41\u00e9\U0001F600)", out, bad));
  EXPECT_EQ(out, "A\xc3\xa9\xf0\x9f\x98\x80");
  ASSERT_TRUE(unescape(R"(x\0y)", out, bad));
  EXPECT_EQ(out, std::string("x\0y", 3));
  ASSERT_TRUE(unescape("", out, bad));
  EXPECT_EQ(out, "");
}

TEST(Unescape, BadEscapesReportTheBackslash) {
  std::string out;
  size_t bad = 99;
  EXPECT_FALSE(unescape(R"(ab\q)", out, bad));
  EXPECT_EQ(bad, 2u);
  EXPECT_FALSE(unescape(R"(\x4)", out, bad));
  EXPECT_EQ(bad, 0u);
  EXPECT_FALSE(unescape(R"(ok\uD800)", out, bad)); // a surrogate
  EXPECT_EQ(bad, 2u);
  EXPECT_FALSE(unescape(R"(\U00110000)", out, bad)); // above U+10FFFF
  EXPECT_EQ(bad, 0u);
  EXPECT_FALSE(unescape("tail\\", out, bad)); // a lone trailing backslash
  EXPECT_EQ(bad, 4u);
}

TEST(ASTBuilder, ItemsInSourceOrderWithRanges) {
  Parsed p("qspec 1\n"
           "protect \"lm_head\", type Embedding\n"
           "override name \"a.*\", \"b\" priority 3 { tier int16; weight int8 per_channel "
           "group_size=64 }\n");
  ASSERT_TRUE(p.root) << p.firstError();
  const ast::Node &root = *p.root;
  ASSERT_EQ(root.children.size(), 3u);
  EXPECT_EQ(root.children[0]->kind, Kind::Version);
  EXPECT_EQ(root.children[0]->text, "1");

  const ast::Node &prot = *root.children[1];
  ASSERT_EQ(prot.kind, Kind::Protect);
  ASSERT_EQ(prot.children.size(), 2u);
  EXPECT_EQ(prot.children[0]->kind, Kind::NameSelector);
  EXPECT_EQ(prot.children[0]->text, "lm_head");
  EXPECT_EQ(prot.children[0]->range.begin.line, 2u);
  EXPECT_EQ(prot.children[0]->range.begin.col, 9u);
  EXPECT_EQ(prot.children[0]->range.end.col, 18u); // half-open: just past the closing quote
  EXPECT_EQ(prot.children[1]->kind, Kind::TypeSelector);
  EXPECT_EQ(prot.children[1]->text, "Embedding");

  const ast::Node &ov = *root.children[2];
  ASSERT_EQ(ov.kind, Kind::Override);
  EXPECT_EQ(ov.text, "name");
  const ast::Node *subj = ov.first(Kind::NameSubject);
  ASSERT_TRUE(subj);
  ASSERT_EQ(subj->children.size(), 2u);
  EXPECT_EQ(subj->children[1]->text, "b");
  const ast::Node *prio = ov.first(Kind::Priority);
  ASSERT_TRUE(prio);
  EXPECT_EQ(prio->text, "3");
  const ast::Node *tier = ov.first(Kind::TierStmt);
  ASSERT_TRUE(tier);
  EXPECT_EQ(tier->text, "int16");
  const ast::Node *recipe = ov.first(Kind::Recipe);
  ASSERT_TRUE(recipe);
  EXPECT_EQ(recipe->text, "weight");
  ASSERT_EQ(recipe->children.size(), 3u);
  EXPECT_EQ(recipe->children[2]->text, "group_size");
  ASSERT_EQ(recipe->children[2]->children.size(), 1u);
  EXPECT_EQ(recipe->children[2]->children[0]->kind, Kind::Number);
  EXPECT_EQ(recipe->children[2]->children[0]->text, "64");
}

TEST(ASTBuilder, GroupsTargetsAndTune) {
  Parsed p("group same_score from \"s.yaml\"\n"
           "group mlp = \"l.{i}.gate\", \"l.{i}.up\"\n"
           "group \"q\" with \"k\" with \"v\"\n"
           "target amct qat { framework pytorch; nested { a 1 } }\n"
           "tune { metric accuracy >= 0.985; levels first 2, first 4 + last 4, \"x.*\"; exclude "
           "\"a\"; raise \"b\", \"c\" to fp16; max_rounds 3 }\n");
  ASSERT_TRUE(p.root) << p.firstError();
  const auto &c = p.root->children;
  ASSERT_EQ(c.size(), 5u);
  EXPECT_EQ(c[0]->kind, Kind::SameScoreGroup);
  EXPECT_EQ(c[0]->children.at(0)->text, "s.yaml");
  EXPECT_EQ(c[1]->kind, Kind::NamedGroup);
  EXPECT_EQ(c[1]->text, "mlp");
  EXPECT_EQ(c[1]->children.size(), 2u);
  EXPECT_EQ(c[2]->kind, Kind::WithGroup);
  EXPECT_EQ(c[2]->children.size(), 3u);

  const ast::Node &t = *c[3];
  EXPECT_EQ(t.kind, Kind::Target);
  EXPECT_EQ(t.text, "amct");
  EXPECT_EQ(t.children.at(1)->kind, Kind::Ident);
  EXPECT_EQ(t.children.at(1)->text, "qat");
  auto settings = t.all(Kind::Setting);
  ASSERT_EQ(settings.size(), 2u);
  EXPECT_EQ(settings[1]->text, "nested");
  EXPECT_EQ(settings[1]->all(Kind::Setting).size(), 1u);

  const ast::Node &tune = *c[4];
  ASSERT_EQ(tune.kind, Kind::Tune);
  const ast::Node *metric = tune.first(Kind::Metric);
  ASSERT_TRUE(metric);
  EXPECT_EQ(metric->text, ">=");
  EXPECT_EQ(metric->children.at(1)->text, "0.985");
  const ast::Node *levels = tune.first(Kind::Levels);
  ASSERT_TRUE(levels);
  ASSERT_EQ(levels->children.size(), 3u);
  EXPECT_EQ(levels->children[0]->text, "first 2");
  EXPECT_EQ(levels->children[1]->text, "first 4 + last 4");
  EXPECT_EQ(levels->children[1]->children.size(), 2u);
  EXPECT_EQ(levels->children[2]->children.at(0)->text, "pattern");
  const ast::Node *raise = tune.first(Kind::TuneRaise);
  ASSERT_TRUE(raise);
  EXPECT_EQ(raise->text, "fp16");
  EXPECT_EQ(raise->all(Kind::NameSelector).size(), 2u);
}

TEST(ASTBuilder, KeywordsAreNamesWhereTheGrammarAllows) {
  Parsed p("target amct { version 9.2; type x; model y }\nmodel { inventory \"m.txt\" }\n");
  ASSERT_TRUE(p.root) << p.firstError();
  auto settings = p.root->children.at(0)->all(Kind::Setting);
  ASSERT_EQ(settings.size(), 3u);
  EXPECT_EQ(settings[1]->text, "type");
  EXPECT_EQ(settings[2]->text, "model");
}

TEST(ASTBuilder, CommentsAndSeparatorsDoNotChangeTheTree) {
  Parsed a("defaults { tier int8; weight int8 }");
  Parsed b("// line comment\ndefaults /* block\n comment */ {\n  tier int8\n  weight int8 // "
           "trailing\n}\n");
  ASSERT_TRUE(a.root && b.root);
  ASSERT_EQ(a.root->children.size(), 1u);
  ASSERT_EQ(b.root->children.size(), 1u);
  const ast::Node &da = *a.root->children[0], &db = *b.root->children[0];
  ASSERT_EQ(da.children.size(), db.children.size());
  for (size_t i = 0; i < da.children.size(); ++i) {
    EXPECT_EQ(da.children[i]->kind, db.children[i]->kind);
    EXPECT_EQ(da.children[i]->text, db.children[i]->text);
  }
}

TEST(ASTBuilder, SyntaxErrorsAreAllReportedAndNoTreeIsReturned) {
  Parsed p("protect ,\"x\"\ntiers < int8\noverride name { }\n");
  EXPECT_FALSE(p.root);
  unsigned syntax = 0;
  for (const Diagnostic &d : p.diags.diagnostics())
    syntax += d.code == "err_syntax";
  EXPECT_EQ(syntax, 3u);
}

TEST(ASTBuilder, NonAsciiColumnsAreBytes) {
  // "é" is two bytes: the string after it starts at byte column 12.
  Parsed p("protect \"\xc3\xa9\", \"x\"\n");
  ASSERT_TRUE(p.root) << p.firstError();
  const ast::Node &prot = *p.root->children.at(0);
  EXPECT_EQ(prot.children.at(0)->text, "\xc3\xa9");
  EXPECT_EQ(prot.children.at(1)->range.begin.col, 15u);
}

// ---- The typed spec ---------------------------------------------------------------------

namespace {
struct Built {
  SourceManager sm;
  DiagnosticEngine diags{sm};
  ir::Spec spec;
  bool ok = false;
  explicit Built(const std::string &text) {
    emit::registerAllEmitters(); // targets are known through their emitters' registrations
    FileID f = sm.addFile("t.qspec", text);
    auto root = frontend::parse(f, diags);
    frontend::FrontendOptions o;
    o.loadInputs = false;
    ok = root && frontend::buildSpec(*root, "t.qspec", spec, diags, o);
  }
  std::vector<std::string> codes() const {
    std::vector<std::string> out;
    for (const Diagnostic &d : diags.diagnostics())
      out.push_back(d.code);
    return out;
  }
};
} // namespace

TEST(SpecBuilder, LowersEveryConstruct) {
  Built b(
      "qspec 1\n"
      "model \"m\" { blocks \"model.layers.{i}\" }\n"
      "tiers int8 < int16 < float\n"
      "defaults { tier int8; weight int8 per_channel symmetric minmax; act int8 per_tensor asym }\n"
      "protect \"lm_head\", type Embedding\n"
      "group mlp = \"a.{i}.gate\", \"a.{i}.up\"\n"
      "override type Linear { weight int8 per_channel }\n"
      "override name \"x.*\" priority 2 { tier int16; amct { act_algo hfmg } }\n"
      "target amct qat { framework pytorch }\n"
      "tune { metric accuracy >= 0.9; strategy standing_high; levels first 2; raise_to int16;"
      " max_rounds 5; max_time 60; exclude \"e\"; raise \"r\" to int16 }\n");
  ASSERT_TRUE(b.ok) << ::testing::PrintToString(b.codes());
  const ir::Spec &s = b.spec;
  EXPECT_EQ(s.modelName, "m");
  ASSERT_TRUE(s.blockPattern);
  EXPECT_EQ(s.ladder, (std::vector<ir::Tier>{ir::Tier::Int8, ir::Tier::Int16, ir::Tier::Float}));
  EXPECT_EQ(s.defaultTier(), ir::Tier::Int8);
  EXPECT_EQ(s.defaults.weight.scope, "per_channel");
  EXPECT_EQ(s.defaults.weight.symmetric, true);
  EXPECT_EQ(s.defaults.weight.method, "minmax");
  EXPECT_EQ(s.defaults.act.symmetric, false);
  ASSERT_EQ(s.protects.size(), 2u);
  EXPECT_EQ(s.protects[1].selector.kind, ir::Selector::Type);
  ASSERT_EQ(s.groups.size(), 1u);
  EXPECT_EQ(s.groups[0].name, "mlp");
  ASSERT_EQ(s.overrides.size(), 2u);
  EXPECT_EQ(s.overrides[0].level, ir::Override::Type);
  EXPECT_EQ(s.overrides[1].priority, 2);
  EXPECT_EQ(s.overrides[1].settings.tier, ir::Tier::Int16);
  ASSERT_EQ(s.overrides[1].settings.targetOptions.size(), 1u);
  EXPECT_EQ(s.overrides[1].settings.targetOptions[0].key, "amct");
  ASSERT_EQ(s.targets.size(), 1u);
  EXPECT_EQ(s.targets[0].variant, "qat");
  EXPECT_EQ(s.tune.strategy, "standing-high");
  EXPECT_EQ(s.tune.maxRounds, 5);
  EXPECT_EQ(s.tune.raiseTo, ir::Tier::Int16);
  EXPECT_EQ(s.tune.excludes.size(), 1u);
  ASSERT_EQ(s.tune.raises.size(), 1u);
  EXPECT_EQ(s.tune.raises[0].tier, ir::Tier::Int16);
}

TEST(SpecBuilder, KeepsGoingAfterAnError) {
  Built b("tiers float < int8\n"
          "override type Linear { tier int7 }\n"
          "target nope { }\n");
  EXPECT_FALSE(b.ok);
  EXPECT_EQ(b.codes(), (std::vector<std::string>{"err_ladder_order", "err_unknown_tier",
                                                 "err_unknown_target"}));
}

TEST(SpecBuilder, AmctDefaultsToPtq) {
  Built b("target amct { }\n");
  ASSERT_TRUE(b.ok);
  EXPECT_EQ(b.spec.targets.at(0).variant, "ptq");
}
