// Unit tests of the lint framework: rule table, selectors, fixes, diffs, fingerprints, the
// located readers, file kinds, and linting a file end to end.
#include "lint/Lint.h"
#include "lint/readers/Located.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <set>

using namespace qspec;
using namespace qspec::lint;

TEST(LintRules, TableIsWellFormed) {
  std::set<std::string> ids;
  ASSERT_GE(allRules().size(), 25u);
  for (const RuleInfo &r : allRules()) {
    std::string id = r.id, cat = r.category;
    EXPECT_TRUE(ids.insert(id).second) << "duplicate rule " << id;
    EXPECT_EQ(id.rfind(cat + "-", 0), 0u) << id << " does not start with its category";
    for (char c : id)
      EXPECT_TRUE((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-') << id;
    EXPECT_NE(std::string(r.summary), "");
    EXPECT_EQ(&ruleInfo(r.rule), &r);
    EXPECT_EQ(findRule(id), &r);
    // Each rule has its doc and its test (also checked by test/lint/rules-complete.test).
    std::string name = id.substr(cat.size() + 1);
    EXPECT_TRUE(std::filesystem::exists(std::string(QSPEC_SOURCE_DIR) + "/docs/lint/" + cat + "/" +
                                        name + ".md"))
        << id;
  }
}

TEST(LintRules, Selectors) {
  const RuleInfo &split = *findRule("spec-group-split");
  EXPECT_TRUE(selectorMatches("spec-group-split", split));
  EXPECT_TRUE(selectorMatches("spec", split));
  EXPECT_TRUE(selectorMatches("spec-group", split));
  EXPECT_TRUE(selectorMatches("ALL", split));
  EXPECT_FALSE(selectorMatches("spec-gro", split)); // not at a word boundary
  EXPECT_FALSE(selectorMatches("amct", split));
  EXPECT_TRUE(isValidSelector("hmct"));
  EXPECT_FALSE(isValidSelector("nosuch"));
}

// A deprecated ID names current rules only, is no current rule itself, and selects exactly its
// replacements: no prefix match, no other rule.
TEST(LintRules, DeprecatedIdsSelectTheirReplacements) {
  ASSERT_FALSE(deprecatedRules().empty());
  for (const DeprecatedRule &d : deprecatedRules()) {
    EXPECT_EQ(findRule(d.id), nullptr) << d.id << " is both deprecated and a rule";
    EXPECT_EQ(findDeprecatedRule(d.id), &d);
    EXPECT_TRUE(isValidSelector(d.id));
    ASSERT_FALSE(d.replacements.empty()) << d.id;
    for (const std::string &rep : d.replacements)
      EXPECT_NE(findRule(rep), nullptr) << d.id << " -> unknown rule " << rep;
    for (const RuleInfo &r : allRules()) {
      bool replaced =
          std::find(d.replacements.begin(), d.replacements.end(), r.id) != d.replacements.end();
      EXPECT_EQ(selectorMatches(d.id, r), replaced) << d.id << " / " << r.id;
      std::vector<std::string> old = deprecatedIdsOf(r);
      EXPECT_EQ(std::find(old.begin(), old.end(), d.id) != old.end(), replaced) << r.id;
    }
  }
  const RuleInfo &batch = *findRule("amct-batch-num");
  EXPECT_TRUE(selectorMatches("amct-invalid-cfg", batch));
  EXPECT_FALSE(selectorMatches("amct-invalid-cfg", *findRule("amct-clip-pair")));
  EXPECT_FALSE(selectorMatches("amct-invalid", batch)); // a deprecated ID is no prefix
}

static Diagnostic withFix(uint32_t b, uint32_t e, std::string text,
                          std::string code = "spec-duplicate-protect") {
  Diagnostic d;
  d.code = std::move(code);
  FixIt f;
  f.range.file = 1;
  f.range.begin.offset = b;
  f.range.end.offset = e;
  f.text = std::move(text);
  d.fixits.push_back(f);
  return d;
}

TEST(LintFix, AppliesNonOverlappingFixesOnly) {
  std::string text = "abcdefghij";
  unsigned n = 0;
  std::vector<std::string> rules;
  std::string out =
      applyFixes(text, {withFix(0, 2, "X"), withFix(1, 3, "Y"), withFix(8, 10, "")}, n, &rules);
  EXPECT_EQ(out, "Xcdefgh");
  EXPECT_EQ(n, 2u);
  EXPECT_EQ(rules.size(), 2u);
  // Out-of-range fixes are refused.
  out = applyFixes(text, {withFix(5, 50, "Z")}, n);
  EXPECT_EQ(out, text);
  EXPECT_EQ(n, 0u);
}

TEST(LintFix, UnifiedDiff) {
  EXPECT_EQ(unifiedDiff("f", "a\nb\n", "a\nb\n"), "");
  std::string d = unifiedDiff("f", "a\nb\nc\n", "a\nB\nc\n");
  EXPECT_EQ(d, "--- f\n+++ f\n@@ -1,3 +1,3 @@\n a\n-b\n+B\n c\n");
}

TEST(LintOutput, LineHashIgnoresIndentationButNotText) {
  EXPECT_EQ(lineHash("r", "  protect \"a\"  "), lineHash("r", "protect \"a\""));
  EXPECT_NE(lineHash("r", "protect \"a\""), lineHash("r", "protect \"b\""));
  EXPECT_NE(lineHash("r1", "x"), lineHash("r2", "x"));
  EXPECT_EQ(lineHash("r", "x").size(), 16u);
}

TEST(LintReaders, JsonCommentsKeepOffsets) {
  std::string text = "// c\n{\"a\": /* x */ 1}";
  std::string s = stripJsonComments(text);
  EXPECT_EQ(s.size(), text.size());
  EXPECT_EQ(s.find('{'), text.find('{'));
  SourceManager sm;
  FileID f = sm.addFile("t.json", text);
  LNode root;
  ParseError err;
  ASSERT_TRUE(parseLocatedJson(sm, f, s, root, err)) << err.message;
  ASSERT_TRUE(root.isMap());
  EXPECT_EQ(root.get("a")->value, "1");
  EXPECT_EQ(root.map[0].first.range.begin.line, 2u);
  EXPECT_EQ(root.map[0].first.range.begin.col, 2u);
}

TEST(LintReaders, JsonErrorsHaveLocations) {
  SourceManager sm;
  std::string text = "{\"a\": 1,\n}";
  FileID f = sm.addFile("t.json", text);
  LNode root;
  ParseError err;
  EXPECT_FALSE(parseLocatedJson(sm, f, text, root, err));
  EXPECT_EQ(err.range.begin.line, 2u);
  EXPECT_NE(err.message.find("trailing comma"), std::string::npos);
}

TEST(LintReaders, YamlKeepsDuplicatesAndLocations) {
  SourceManager sm;
  FileID f = sm.addFile("t.yaml", "a: 1\nb:\n  c: \"x\"\na: 2\n");
  LNode root;
  ParseError err;
  ASSERT_TRUE(parseLocatedYaml(sm, f, root, err)) << err.message;
  ASSERT_EQ(root.map.size(), 3u);
  EXPECT_EQ(root.map[2].first.value, "a");
  EXPECT_EQ(root.map[2].first.range.begin.line, 4u);
  EXPECT_EQ(root.get("a")->value, "2");
  const LNode *c = root.get("b")->get("c");
  ASSERT_TRUE(c);
  EXPECT_TRUE(c->quoted);
  EXPECT_EQ(c->range.begin.line, 3u);
  EXPECT_EQ(c->range.begin.col, 6u);
}

TEST(LintReaders, YamlSyntaxError) {
  SourceManager sm;
  FileID f = sm.addFile("t.yaml", "a: [1, 2\n");
  LNode root;
  ParseError err;
  EXPECT_FALSE(parseLocatedYaml(sm, f, root, err));
  EXPECT_FALSE(err.message.empty());
}

TEST(LintFiles, Kinds) {
  EXPECT_EQ(detectFileKind("a.qspec", ""), FileKind::QSpec);
  EXPECT_EQ(detectFileKind("p.yaml", "apiversion: modelslim_v1"), FileKind::MsModelSlim);
  EXPECT_EQ(detectFileKind("x.yml", "foo: 1"), FileKind::Unknown);
  EXPECT_EQ(detectFileKind(".qlint.yaml", "apiversion: x"), FileKind::Unknown);
  EXPECT_EQ(detectFileKind("q.cfg", "# c\nbatch_num: 1"), FileKind::Amct);
  EXPECT_EQ(detectFileKind("setup.cfg", "[metadata]\nname = x"), FileKind::Unknown);
  EXPECT_EQ(detectFileKind("q.json", "{\"node_config\": {}}"), FileKind::Hmct);
  EXPECT_EQ(detectFileKind("q.json", "{\"version\": 1}"), FileKind::Unknown);
  EXPECT_EQ(detectFileKind("recipe.yaml", "s:\n  QuantizationModifier: {}"),
            FileKind::CompressedTensors);
  EXPECT_EQ(detectFileKind("config.json", "{\"quant_method\": \"compressed-tensors\"}"),
            FileKind::CompressedTensors);
}

TEST(LintFiles, LintsAFileWithSuppressionAndSeverity) {
  std::string dir = ::testing::TempDir() + "/qlint_unit";
  std::filesystem::create_directories(dir);
  std::string path = dir + "/a.qspec";
  {
    std::ofstream out(path);
    out << "qspec 1\nprotect \"a\", \"a\"\nprotect \"b\", \"b\" // qlint: "
           "disable=spec-duplicate-protect\n";
  }
  Options o;
  o.useConfig = false;
  FileResult r = lintFile(path, o);
  ASSERT_TRUE(r.internalError.empty()) << r.internalError;
  ASSERT_EQ(r.findings.size(), 1u);
  EXPECT_EQ(r.findings[0].code, "spec-duplicate-protect");
  EXPECT_EQ(r.findings[0].severity, Severity::Warning);
  EXPECT_EQ(r.findings[0].range.begin.line, 2u);
  ASSERT_EQ(r.findings[0].fixits.size(), 1u);
  o.werror = true;
  r = lintFile(path, o);
  ASSERT_EQ(r.findings.size(), 1u);
  EXPECT_EQ(r.findings[0].severity, Severity::Error);
  o.werror = false;
  o.ignore = {"spec"};
  r = lintFile(path, o);
  EXPECT_TRUE(r.findings.empty()); // the suppression names an ignored rule: not "unused" either
  std::filesystem::remove_all(dir);
}
