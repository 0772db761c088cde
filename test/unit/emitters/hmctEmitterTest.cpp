// HMCT emitter: round trip through nlohmann_json against the resolved IR (HMCT precedence
// model < op < node), hostile names, determinism, rules, and the conformance verdicts.
#include "emitters/Emitter.h"
#include "vendors/hmct/HmctRules.h"
#include "frontend/Frontend.h"
#include "passes/Pass.h"

#include "EmitTestSupport.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <random>

using namespace qspec;
namespace fs = std::filesystem;

namespace {

using testsupport::EmitRun;
using testsupport::Mods;

EmitRun compileHmct(const std::string &specText, const Mods &mods, ir::Spec &spec,
                    const std::function<void(ir::Spec &)> &tweak = {}) {
  return testsupport::compileAndEmit("hmct", specText, mods, spec, tweak, "onnx");
}

std::string tierQtype(ir::Tier t) { return hmct::qtypeForTier(t); }

// What HMCT computes for a node: node entry, else op entry, else all_node_type.
std::string hmctEffective(const nlohmann::json &cfg, const std::string &name,
                          const std::string &type) {
  if (cfg.contains("node_config") && cfg["node_config"].contains(name)) {
    const auto &e = cfg["node_config"][name];
    if (e.contains("input0") && e["input0"] == "int16" && e["input1"] == "int16")
      return "dual-int16";
    return e["qtype"].get<std::string>();
  }
  if (cfg.contains("op_config") && cfg["op_config"].contains(type))
    return cfg["op_config"][type]["qtype"].get<std::string>();
  return cfg["model_config"]["all_node_type"].get<std::string>();
}

void expectHmctRoundTrip(const std::string &text, const ir::Spec &spec) {
  nlohmann::json cfg = nlohmann::json::parse(text); // strict: throws on comments/trailing commas
  const auto &mods = spec.inventory.modules;
  for (size_t m = 0; m < mods.size(); ++m)
    EXPECT_EQ(hmctEffective(cfg, mods[m].name, mods[m].type),
              tierQtype(spec.resolution.modules[m].tier.value))
        << mods[m].name;
  // Protected nodes are node entries (nothing coarser can touch them).
  for (size_t m = 0; m < mods.size(); ++m)
    if (spec.resolution.modules[m].isProtected) {
      EXPECT_EQ(cfg["node_config"][mods[m].name], nlohmann::json({{"qtype", "float32"}}));
    }
  // Sections in order, keys sorted by code point.
  std::vector<std::string> order;
  nlohmann::ordered_json ordered = nlohmann::ordered_json::parse(text);
  for (auto it = ordered.begin(); it != ordered.end(); ++it)
    order.push_back(it.key());
  std::vector<std::string> expected;
  for (const char *s : {"model_config", "op_config", "node_config"})
    if (cfg.contains(s))
      expected.push_back(s);
  EXPECT_EQ(order, expected);
  SourceManager sm;
  DiagnosticEngine diags(sm);
  hmct::QuantConfigDoc doc;
  ASSERT_TRUE(hmct::parseQuantConfig(text, sm.addFile("<out>", text), doc, diags));
  for (const auto &i : hmct::checkQuantConfig(doc))
    if (i.error)
      ADD_FAILURE() << hmct::checkName(i.check) << ": " << i.message;
}

Mods vit() {
  Mods m = {{"/embed/Gather", "Gather"}, {"/t_embedder/Cos", "Cos"}, {"/head/Conv", "Conv"}};
  for (int b = 0; b < 3; ++b) {
    std::string p = "/blocks." + std::to_string(b);
    for (auto [n, t] :
         std::vector<std::pair<const char *, const char *>>{{"/attn/MatMul", "MatMul"},
                                                            {"/attn/MatMul_1", "MatMul"},
                                                            {"/attn/Softmax", "Softmax"},
                                                            {"/mlp/fc1/Gemm", "Gemm"},
                                                            {"/mlp/Add", "Add"}})
      m.push_back({p + n, t});
  }
  return m;
}

const char *kHmctSpec = R"(qspec 1
defaults { tier int8; act int8 per_tensor minmax }
protect "/t_embedder/Cos"
override type Softmax { tier int16 }
override type MatMul { tier int16 }
override name "/blocks.0/attn/MatMul_1" { tier dual-int16 }
override name "/blocks.1/attn/Softmax" { tier fp16 }
override name "/blocks.2/attn/MatMul" { tier int8 }
tune { raise "/head/Conv" to int16 }
target hmct { march nash-m; model_output_type float32 }
)";

} // namespace

TEST(HmctEmitter, RoundTripMatchesResolvedIR) {
  ir::Spec spec;
  EmitRun r = compileHmct(kHmctSpec, vit(), spec);
  ASSERT_TRUE(r.ok) << r.out;
  expectHmctRoundTrip(r.out, spec);
  // A name override that lowers a node below its op entry must be a node entry.
  EXPECT_NE(r.out.find("\"/blocks.2/attn/MatMul\""), std::string::npos) << r.out;
}

TEST(HmctEmitter, DualInt16DefaultUsesOpLevel) {
  ir::Spec spec;
  Mods m = {{"/a/MatMul", "MatMul"}, {"/a/Conv", "Conv"}, {"/a/Gemm", "Gemm"}};
  EmitRun r = compileHmct("qspec 1\ndefaults { tier dual-int16 }\ntarget hmct { }\n", m, spec);
  ASSERT_TRUE(r.ok) << r.out;
  expectHmctRoundTrip(r.out, spec);
}

TEST(HmctEmitter, DeterministicAcrossInventoryOrder) {
  Mods m = vit();
  ir::Spec a, b;
  EmitRun ra = compileHmct(kHmctSpec, m, a);
  std::mt19937 rng(3);
  std::shuffle(m.begin(), m.end(), rng);
  EmitRun rb = compileHmct(kHmctSpec, m, b);
  ASSERT_TRUE(ra.ok && rb.ok);
  EXPECT_EQ(ra.out, rb.out);
}

TEST(HmctEmitter, HostileNames) {
  std::vector<std::string> names = {
      "q\"uote", "back\\slash", "new\nline", "t\tab", "caf\xc3\xa9/\xe4\xb8\xad",
      "yes",     "null",        "-lead",     "!bang", "br{ace}",
      "co:lon",  "#hash",       "st*ar"};
  Mods m = {{"/ok", "Add"}};
  for (const auto &n : names)
    m.push_back({n, "Add"});
  auto protectAll = [&](ir::Spec &s) {
    for (const auto &n : names) {
      auto &rm = s.resolution.modules[s.inventory.find(n) - s.inventory.modules.data()];
      rm.tier.value = ir::Tier::Float;
      rm.isProtected = true;
    }
  };
  ir::Spec spec;
  EmitRun r =
      compileHmct("qspec 1\ndefaults { tier int8 }\ntarget hmct { }\n", m, spec, protectAll);
  ASSERT_TRUE(r.ok) << r.out;
  expectHmctRoundTrip(r.out, spec);
  nlohmann::json cfg = nlohmann::json::parse(r.out);
  for (const auto &n : names)
    EXPECT_TRUE(cfg["node_config"].contains(n)) << n;
  // The output is ASCII-safe JSON: control characters escaped, nothing raw.
  EXPECT_EQ(r.out.find('\t'), std::string::npos);

  // Comment markers: spelt "\/" and "\u002a" so HMCT's comment stripper leaves the names
  // intact; invalid UTF-8: refused.
  Mods m2 = {{"/ok", "Add"}, {"/a//b", "Add"}, {"/c/*d*/", "Add"}};
  ir::Spec s2;
  EmitRun r2 = compileHmct(
      "qspec 1\ndefaults { tier int8 }\nprotect \"/a//b\"\nprotect \"/c/*d*/\"\ntarget hmct { }\n",
      m2, s2);
  ASSERT_TRUE(r2.ok) << r2.out;
  EXPECT_NE(r2.out.find("\"/a\\/\\/b\""), std::string::npos) << r2.out;
  EXPECT_NE(r2.out.find("\"/c\\/\\u002ad*/\""), std::string::npos) << r2.out;
  EXPECT_EQ(hmct::stripHmctComments(r2.out), r2.out);
  nlohmann::json back = nlohmann::json::parse(r2.out);
  EXPECT_TRUE(back["node_config"].contains("/a//b"));
  EXPECT_TRUE(back["node_config"].contains("/c/*d*/"));
  Mods m3 = {{"/ok", "Add"}, {"bad\xff", "Add"}};
  ir::Spec s3;
  EmitRun r3 =
      compileHmct("qspec 1\ndefaults { tier int8 }\ntarget hmct { }\n", m3, s3, [](ir::Spec &s) {
        s.resolution.modules[1].tier.value = ir::Tier::Float;
        s.resolution.modules[1].isProtected = true;
      });
  EXPECT_FALSE(r3.ok);
  EXPECT_NE(std::find(r3.ids.begin(), r3.ids.end(), "err_hmct_bad_node_name"), r3.ids.end());
}

TEST(HmctEmitter, UnknownNodeGetsDidYouMean) {
  ir::Spec spec;
  EmitRun r = compileHmct("qspec 1\ndefaults { tier int8 }\noverride name "
                          "\"/blocks.0/attn/Softmx\" { tier int16 }\ntarget hmct { }\n",
                          vit(), spec);
  EXPECT_FALSE(r.ok);
  EXPECT_NE(std::find(r.ids.begin(), r.ids.end(), "err_hmct_unknown_node"), r.ids.end()) << r.out;
}

TEST(HmctRules, CommentStripperIgnoresStrings) {
  EXPECT_EQ(hmct::stripHmctComments("{\"a\": 1} // x\n/* y\n */{}"), "{\"a\": 1} \n\n{}");
  // HMCT's regex has no notion of strings: a name with // loses its tail.
  EXPECT_EQ(hmct::stripHmctComments("{\"/a//b\": 1}"), "{\"/a");
  EXPECT_TRUE(hmct::hasCommentMarker("/a/*b"));
  EXPECT_FALSE(hmct::hasCommentMarker("/a/b"));
  EXPECT_TRUE(hmct::qtypeAllowedOnMarch("nash-m", "float16"));
  EXPECT_FALSE(hmct::qtypeAllowedOnMarch("bayes-e", "float16"));
  EXPECT_FALSE(hmct::qtypeAllowedOnMarch("bernoulli2", "int16"));
}

// Names are checked eight bytes at a time while they are ASCII: a NUL, a byte no UTF-8 allows
// and every broken or valid sequence are found wherever they sit in such a word, and at the end.
TEST(HmctRules, Utf8CheckFindsEveryByteInAnyPlace) {
  const std::string base(24, 'a');
  EXPECT_TRUE(hmct::isValidUtf8(base));
  EXPECT_TRUE(hmct::isValidUtf8(""));
  const std::vector<std::string> bad = {
      std::string(1, '\0'), "\x80", "\xff", "\xc3", "\xc0\xaf", "\xed\xa0\x80", "\xf4\x90\x80\x80"};
  const std::vector<std::string> good = {"\x7f", "\x01", "\xc3\xa9", "\xe2\x80\xa8",
                                         "\xf0\x9f\x98\x80"};
  for (size_t at = 0; at <= base.size(); ++at) {
    for (const std::string &b : bad)
      EXPECT_FALSE(hmct::isValidUtf8(base.substr(0, at) + b + base.substr(at)))
          << at << " " << b.size();
    for (const std::string &g : good)
      EXPECT_TRUE(hmct::isValidUtf8(base.substr(0, at) + g + base.substr(at)))
          << at << " " << g.size();
  }
  EXPECT_FALSE(hmct::isValidUtf8(base + "\xe2\x80")); // cut at the end
}

TEST(HmctRules, ChecksFindVendorErrors) {
  std::string text =
      R"({"model_config": {"all_node_type": "int32", "activation": {"num_bin": 64, "max_percentile": 1}},
 "op_config": {"Add": {"qtype": "dual-int16"}, "softmax": {"qtype": "int16"}},
 "node_config": {"/x": {"qtype": "int8", "InputType0": "int16"}},
 "_comment": 1})";
  SourceManager sm;
  DiagnosticEngine diags(sm);
  hmct::QuantConfigDoc doc;
  ASSERT_TRUE(hmct::parseQuantConfig(text, sm.addFile("q.json", text), doc, diags));
  std::map<std::string, int> checks;
  for (const auto &i : hmct::checkQuantConfig(doc))
    ++checks[hmct::checkName(i.check)];
  EXPECT_TRUE(checks.count("qtype"));         // int32
  EXPECT_TRUE(checks.count("clamped-value")); // num_bin 64
  EXPECT_TRUE(checks.count("value-type"));    // max_percentile 1 (an int)
  EXPECT_TRUE(checks.count("dual-int16-op")); // Add
  EXPECT_TRUE(checks.count("lowercase-op-type"));
  EXPECT_TRUE(checks.count("legacy-key"));
  EXPECT_TRUE(checks.count("top-level-key")); // _comment
  EXPECT_FALSE(
      hmct::parseQuantConfig("{\"a\": 1,}", sm.addFile("b.json", "{\"a\": 1,}"), doc, diags));
}

TEST(HmctConformance, Verdicts) {
  fs::path dir = fs::path(QSPEC_SOURCE_DIR) / "test" / "Inputs" / "conformance" / "hmct";
  ASSERT_TRUE(fs::is_directory(dir)) << "missing conformance corpus: " << dir;
  const std::map<std::string, std::string> expected = {
      // `//` comment line, stripped like HMCT; int8 base with node-level input0/input1.
      {"05_ptq_deep_guide_mixed_precision.jsonc",
       "accepted with warnings: missing-calibration-type"},
      // legacy InputType0/1 next to qtype: a warning, not an error.
      {"07_rdt_dit_nash_m_quant_config_EXCERPT.json", "accepted with warnings: legacy-key"},
  };
  size_t seen = 0;
  for (const auto &entry : fs::directory_iterator(dir)) {
    std::string name = entry.path().filename().string();
    ++seen;
    std::ifstream in(entry.path());
    std::string text((std::istreambuf_iterator<char>(in)), {});
    SourceManager sm;
    DiagnosticEngine diags(sm);
    hmct::QuantConfigDoc doc;
    std::string verdict = "refused: json";
    std::string detail;
    if (hmct::parseQuantConfig(text, sm.addFile(name, text), doc, diags)) {
      auto issues = hmct::checkQuantConfig(doc, "nash-m");
      verdict = hmct::classifyQuantConfig(issues);
      for (const auto &i : issues)
        detail +=
            "\n  " + std::to_string(i.line) + ": " + hmct::checkName(i.check) + ": " + i.message;
    }
    auto it = expected.find(name);
    ASSERT_NE(it, expected.end()) << "new file without a verdict: " << name;
    EXPECT_EQ(verdict, it->second) << name << detail;
  }
  EXPECT_EQ(seen, expected.size());
}
