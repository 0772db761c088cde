// msModelSlim emitter: round trip through yaml-cpp and ir::Pattern against the resolved IR,
// hostile names, determinism, pattern compression, rules, and the conformance verdicts.
#include "emitters/Emitter.h"
#include "vendors/msmodelslim/MsModelSlimRules.h"
#include "frontend/Frontend.h"
#include "frontend/readers/Readers.h"
#include "ir/Select.h"
#include "passes/Pass.h"

#include "EmitTestSupport.h"

#include <gtest/gtest.h>
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <random>
#include <set>

using namespace qspec;
namespace fs = std::filesystem;
namespace ms = qspec::msmodelslim;

namespace {

using testsupport::EmitRun;
using testsupport::Mods;

EmitRun compileMsModelSlim(const std::string &specText, const Mods &mods, ir::Spec &spec,
                           const std::function<void(ir::Spec &)> &tweak = {}) {
  return testsupport::compileAndEmit("msmodelslim", specText, mods, spec, tweak);
}

bool selects(const YAML::Node &list, const std::string &name) {
  for (const auto &item : list) {
    std::string pat = item.as<std::string>();
    if (pat == name)
      return true;
    std::string err;
    auto p = Pattern::compile(pat, err);
    EXPECT_TRUE(p.has_value()) << pat << ": " << err;
    if (p && p->matches(name))
      return true;
  }
  return false;
}

// Re-reads the YAML with yaml-cpp and checks, module by module, that msModelSlim's matching
// (section 5: include minus exclude, first entry wins) gives what the IR resolved.
void expectYamlRoundTrip(const std::string &yaml, const ir::Spec &spec) {
  YAML::Node doc = YAML::Load(yaml);
  ASSERT_TRUE(doc["spec"]["process"].IsSequence());
  std::vector<YAML::Node> lqs;
  for (const auto &p : doc["spec"]["process"])
    if (p["type"].as<std::string>() == "linear_quant")
      lqs.push_back(p);
  const auto &mods = spec.inventory.modules;
  for (size_t m = 0; m < mods.size(); ++m) {
    if (!mods[m].type.empty() && mods[m].type != "Linear")
      continue;
    const ir::ResolvedModule &rm = spec.resolution.modules[m];
    int hits = 0;
    std::string dtype;
    for (const auto &lq : lqs) {
      bool in = selects(lq["include"], mods[m].name) && !selects(lq["exclude"], mods[m].name);
      if (in && hits++ == 0)
        dtype = lq["qconfig"]["weight"]["dtype"].as<std::string>();
      // protected ∪ tuning is in every exclude
      if (rm.tier.value == ir::Tier::Float) {
        EXPECT_TRUE(selects(lq["exclude"], mods[m].name)) << mods[m].name;
      }
    }
    if (rm.tier.value == ir::Tier::Float) {
      EXPECT_EQ(hits, 0) << mods[m].name;
    } else {
      EXPECT_EQ(hits, 1) << mods[m].name << " in " << hits << " entries";
      EXPECT_EQ(dtype, ir::tierName(rm.tier.value)) << mods[m].name;
    }
  }
  // The emitter's output passes the vendor checks it shares with qlint.
  SourceManager sm;
  DiagnosticEngine diags(sm);
  ms::PracticeDoc pd;
  ASSERT_TRUE(ms::parsePractice(yaml, sm.addFile("<out>", yaml), pd, diags));
  for (const auto &i : ms::checkPractice(pd))
    ADD_FAILURE() << ms::checkName(i.check) << ": " << i.message;
}

Mods llm(int layers) {
  Mods m;
  for (int l = 0; l < layers; ++l) {
    for (const char *p : {"self_attn.q_proj", "self_attn.k_proj", "self_attn.v_proj",
                          "self_attn.o_proj", "mlp.gate_proj", "mlp.up_proj", "mlp.down_proj"})
      m.push_back({"model.layers." + std::to_string(l) + "." + p, "Linear"});
    m.push_back({"model.layers." + std::to_string(l) + ".input_layernorm", "RMSNorm"});
  }
  m.push_back({"model.embed_tokens", "Embedding"});
  m.push_back({"lm_head", "Linear"});
  return m;
}

const char *kMixed = R"(qspec 1
model "toy" { blocks "model.layers.{i}" }
defaults { tier int8; weight int8 per_channel symmetric minmax; act int8 per_token symmetric minmax }
tiers int4 < int8 < float
protect "lm_head"
group "model.layers.{i}.mlp.gate_proj" with "model.layers.{i}.mlp.up_proj"
override name "model.layers.{0..3}.*" { tier float }
override name "model.layers.{8..9}.mlp.*" { tier int4 }
tune { exclude "model.layers.5.self_attn.o_proj" }
target msmodelslim { anti_outlier iter_smooth; config_id "toy-w8a8" }
)";

} // namespace

TEST(MsModelSlimEmitter, RoundTripMatchesResolvedIR) {
  ir::Spec spec;
  EmitRun r = compileMsModelSlim(kMixed, llm(12), spec);
  ASSERT_TRUE(r.ok) << r.out;
  EXPECT_EQ(r.fileName, "toy-w8a8.yaml");
  expectYamlRoundTrip(r.out, spec);
  // Compression: layers 0..3 collapse into one brace range.
  EXPECT_NE(r.out.find("\"model.layers.{0..3}.*\""), std::string::npos) << r.out;
}

TEST(MsModelSlimEmitter, DeterministicAcrossInventoryOrder) {
  Mods mods = llm(10);
  ir::Spec a, b;
  EmitRun ra = compileMsModelSlim(kMixed, mods, a);
  std::mt19937 rng(7);
  std::shuffle(mods.begin(), mods.end(), rng);
  EmitRun rb = compileMsModelSlim(kMixed, mods, b);
  ASSERT_TRUE(ra.ok && rb.ok);
  EXPECT_EQ(ra.out, rb.out);
}

TEST(MsModelSlimEmitter, ExpertsCompressToOnePattern) {
  Mods mods;
  for (int l = 0; l < 6; ++l)
    for (int e = 0; e < 128; ++e)
      for (const char *p : {"gate_proj", "up_proj", "down_proj"})
        mods.push_back(
            {"model.layers." + std::to_string(l) + ".mlp.experts." + std::to_string(e) + "." + p,
             "Linear"});
  for (int l = 0; l < 6; ++l) {
    mods.push_back({"model.layers." + std::to_string(l) + ".mlp.gate", "Linear"});
    mods.push_back({"model.layers." + std::to_string(l) + ".self_attn.q_proj", "Linear"});
  }
  ir::Spec spec;
  EmitRun r = compileMsModelSlim(R"(qspec 1
defaults { tier int8; weight int8 per_channel symmetric minmax }
tiers int4 < int8 < float
override name "model.layers.3.mlp.experts.*" { tier int4 }
target msmodelslim { }
)",
                                 mods, spec);
  ASSERT_TRUE(r.ok) << r.out;
  expectYamlRoundTrip(r.out, spec);
  EXPECT_NE(r.out.find("- \"model.layers.3.mlp.experts.*\""), std::string::npos) << r.out;
  EXPECT_LT(r.out.size(), 2000u) << r.out;
}

// The pattern compressor is the caller's when it passes one in (qtune makes one per search and
// compresses its tuning state with it too): an emit with it gives the same bytes as an emit that
// makes its own, and the selector keeps nothing for the emitter.
TEST(MsModelSlimEmitter, UsesTheCompressorPassedIn) {
  Mods mods;
  for (int l = 0; l < 4; ++l)
    for (const char *p : {"mlp.down_proj", "mlp.up_proj", "self_attn.q_proj"})
      mods.push_back({"model.layers." + std::to_string(l) + "." + p, "Linear"});
  ir::Spec spec;
  EmitRun r = compileMsModelSlim(R"(qspec 1
defaults { tier int8; weight int8 per_channel symmetric minmax }
tiers int8 < float
protect "model.layers.{0,1}.mlp.*"
target msmodelslim { }
)",
                                 mods, spec);
  ASSERT_TRUE(r.ok) << r.out;
  const ir::ModuleSelector *shared = ir::sharedSelector(spec);
  ASSERT_NE(shared, nullptr);
  ms::SelectionCompressor compressor(spec.inventory, shared);
  emit::EmitIndexes indexes;
  indexes.msmodelslimCompressor = &compressor;
  SourceManager sm;
  DiagnosticEngine diags(sm);
  std::vector<emit::EmitResult> again =
      emit::emitTargets(spec, {spec.target("msmodelslim")}, diags, 1, indexes);
  ASSERT_EQ(again.size(), 1u);
  ASSERT_TRUE(again[0].ok);
  EXPECT_EQ(again[0].out.buffer(), r.out);
}

TEST(MsModelSlimEmitter, HostileNamesEscapedOrRefused) {
  // Names a manifest cannot hold; each is made float so it is written into `exclude` verbatim.
  std::vector<std::string> fine = {"q\"uote", "back\\slash", "co:lon",    "st*ar", "br{ace}",
                                   "-lead",   "!bang",       "yes",       "null",  "on",
                                   "1e-5",    "sp ace",      "br[ack]et", "qu?est"};
  Mods mods = {{"ok_linear", "Linear"}};
  for (const auto &n : fine)
    mods.push_back({n, "Linear"});
  auto makeFloat = [&](const std::vector<std::string> &names) {
    return [names](ir::Spec &s) {
      for (const auto &n : names) {
        auto &rm = s.resolution.modules[s.inventory.find(n) - s.inventory.modules.data()];
        rm.tier.value = ir::Tier::Float;
        rm.isProtected = true;
      }
    };
  };
  const char *spec = "qspec 1\ndefaults { tier int8; weight int8 per_channel symmetric minmax }\n"
                     "tiers int8 < float\ntarget msmodelslim { }\n";
  ir::Spec s1;
  EmitRun r = compileMsModelSlim(spec, mods, s1, makeFloat(fine));
  ASSERT_TRUE(r.ok) << r.out;
  expectYamlRoundTrip(r.out, s1);
  YAML::Node doc = YAML::Load(r.out);
  std::set<std::string> excl;
  for (const auto &e : doc["spec"]["process"][0]["exclude"])
    excl.insert(e.as<std::string>());
  EXPECT_EQ(excl.size(), fine.size());
  EXPECT_TRUE(excl.count("yes") && excl.count("null") && excl.count("1e-5")) << r.out;
  EXPECT_TRUE(excl.count("st\\*ar")) << r.out; // glob-escaped so only the literal name matches

  for (std::string bad :
       {std::string("ha#sh"), std::string("new\nline"), std::string("t\tab"),
        std::string("caf\xc3\xa9"), std::string("semi;colon"), std::string("at@")}) {
    Mods m2 = {{"ok_linear", "Linear"}, {bad, "Linear"}};
    ir::Spec s2;
    EmitRun rb = compileMsModelSlim(spec, m2, s2, makeFloat({bad}));
    EXPECT_FALSE(rb.ok) << bad;
    EXPECT_NE(std::find(rb.ids.begin(), rb.ids.end(), "err_msmodelslim_not_whitelisted"),
              rb.ids.end())
        << bad;
  }
}

TEST(MsModelSlimEmitter, AsWrittenWithoutInventory) {
  ir::Spec spec;
  EmitRun r = compileMsModelSlim(R"(qspec 1
defaults { tier int8; weight int8 per_channel symmetric minmax; act int8 per_tensor asymmetric minmax }
tiers int4 < int8 < float
protect "lm_head"
override name "*mlp.experts*" { tier int4 }
override name "model.layers.0.*" { tier float }
target msmodelslim { }
)",
                                 {}, spec);
  ASSERT_TRUE(r.ok) << r.out;
  YAML::Node doc = YAML::Load(r.out);
  auto process = doc["spec"]["process"];
  ASSERT_EQ(process.size(), 2u) << r.out;
  EXPECT_EQ(process[0]["include"][0].as<std::string>(), "*mlp.experts*");
  EXPECT_EQ(process[0]["qconfig"]["weight"]["dtype"].as<std::string>(), "int4");
  EXPECT_EQ(process[1]["include"][0].as<std::string>(), "*");
  // the default entry excludes the earlier entry's include, so no module is in two entries
  std::set<std::string> ex1;
  for (const auto &e : process[1]["exclude"])
    ex1.insert(e.as<std::string>());
  EXPECT_EQ(ex1, (std::set<std::string>{"lm_head", "model.layers.0.*", "*mlp.experts*"}));
}

TEST(MsModelSlimRules, QConfigTable) {
  std::string why;
  EXPECT_TRUE(ms::checkQConfig(ms::Role::Act, {"int8", "per_tensor", "histogram", false}, why));
  EXPECT_TRUE(ms::checkQConfig(ms::Role::Weight, {"int4", "per_group", "gptq", false}, why));
  EXPECT_FALSE(ms::checkQConfig(ms::Role::Act, {"int4", "per_token", "minmax", true}, why));
  EXPECT_FALSE(ms::checkQConfig(ms::Role::Weight, {"int8", "per_channel", "minmax", false}, why));
  EXPECT_NE(why.find("Code: 301"), std::string::npos) << why;
  EXPECT_NE(why.find("AutoWeightQuantizer"), std::string::npos) << why;
  EXPECT_FALSE(ms::checkQConfig(ms::Role::Weight, {"int8", "per_tensor", "minmax", true}, why));
  EXPECT_FALSE(ms::checkQConfig(ms::Role::Weight, {"int9", "per_channel", "minmax", true}, why));
  EXPECT_NE(why.find("Input should be"), std::string::npos);
}

TEST(MsModelSlimRules, WhitelistAndQuoting) {
  EXPECT_EQ(ms::firstNonWhitelisted("model.layers.{0..3}.*"), std::string::npos);
  EXPECT_EQ(ms::firstNonWhitelisted("a#b"), 1u);
  EXPECT_EQ(ms::firstNonWhitelisted("caf\xc3\xa9"), 3u);
  for (const char *w :
       {"yes", "No", "on", "OFF", "null", "~", "", "12", "1.5", "0x1f", ".inf", "-x", "*", "a: b"})
    EXPECT_TRUE(ms::needsYamlQuotes(w)) << w;
  for (const char *w : {"1e-5", "model.layers.0", "iter_smooth"})
    EXPECT_FALSE(ms::needsYamlQuotes(w)) << w; // PyYAML reads 1e-5 as a string
  std::string why;
  EXPECT_TRUE(ms::checkConfigId("qwen3-32b_w8a8.v1", why));
  EXPECT_FALSE(ms::checkConfigId("a b", why));
  EXPECT_FALSE(ms::checkConfigId(std::string(201, 'a'), why));
}

// A plain scalar's type as PyYAML's SafeLoader resolves it: the words and decimals a practice
// mostly holds are answered without the regexes, everything else by them.
TEST(MsModelSlimRules, ScalarTypesAsPyYamlResolvesThem) {
  auto typeOf = [](const std::string &text, bool quoted = false) {
    ms::YamlValue v;
    v.kind = ms::YamlValue::Scalar;
    v.text = text;
    v.quoted = quoted;
    return v.scalarType();
  };
  for (const char *w :
       {"yes", "Yes", "YES", "no", "NO", "true", "True", "FALSE", "on", "On", "OFF"})
    EXPECT_EQ(typeOf(w), "bool") << w;
  for (const char *w : {"null", "Null", "NULL", "~", ""})
    EXPECT_EQ(typeOf(w), "null") << w;
  for (const char *w : {"0", "8", "16", "1234567890123456789012", "007", "0b101", "0x1f", "-3",
                        "+4", "1_000", "190:20:30"})
    EXPECT_EQ(typeOf(w), "int") << w;
  for (const char *w : {"1.5", "1.", ".5", "-2.5e+3", ".inf", "-.Inf", ".nan", "1:30.5"})
    EXPECT_EQ(typeOf(w), "float") << w;
  EXPECT_EQ(typeOf("2026-12-01"), "timestamp");
  for (const char *w : {"y", "n", "nULL", "truee", "inf", "nan", "_1", "linear_quant", "a1", "1e5",
                        "08", "00x", "1a", "-", "<", "model.layers.0", "yes "})
    EXPECT_EQ(typeOf(w), "str") << w;
  EXPECT_EQ(typeOf("<<"), "merge");
  EXPECT_EQ(typeOf("true", true), "str");
  EXPECT_EQ(typeOf("8", true), "str");
}

TEST(MsModelSlimRules, ReaderFindsDuplicatesAndMergeOverrides) {
  std::string text = "apiversion: modelslim_v1\nmetadata:\n  config_id: a\n  config_id: b\n"
                     "base: &b {x: 1}\nspec:\n  runner: <<\n";
  SourceManager sm;
  DiagnosticEngine diags(sm);
  ms::PracticeDoc doc;
  ASSERT_TRUE(ms::parsePractice(text, sm.addFile("x.yaml", text), doc, diags));
  auto issues = ms::checkPractice(doc);
  ASSERT_FALSE(issues.empty());
  EXPECT_EQ(issues[0].check, ms::Check::DuplicateKey);
  EXPECT_EQ(issues[0].message, "Duplicate key 'config_id' found in YAML at line 3.");
  EXPECT_FALSE(ms::parsePractice("a: [1,\n", sm.addFile("y.yaml", "a: [1,\n"), doc, diags));
  EXPECT_TRUE(diags.hasErrors());
}

// The conformance corpus: every lab_practice file with its verdict and, for refusals, the reason.
TEST(MsModelSlimConformance, Verdicts) {
  fs::path dir = fs::path(QSPEC_SOURCE_DIR) / "test" / "Inputs" / "conformance" / "msmodelslim";
  ASSERT_TRUE(fs::is_directory(dir)) << "missing conformance corpus: " << dir;
  const std::map<std::string, std::string> expected = {
      {"lab_practice__deepseek-r1-distill__deepseek-r1-distill-qwen-1.5b-sparse.yaml", "accepted"},
      {"lab_practice__deepseek-r1-distill__deepseek-r1-distill-qwen-1.5b-w8a8.yaml", "accepted"},
      {"lab_practice__deepseek-r1-distill__deepseek-r1-distill-qwen-7b-sparse.yaml", "accepted"},
      {"lab_practice__deepseek-r1-distill__deepseek-r1-distill-qwen-7b-w8a8.yaml", "accepted"},
      {"lab_practice__deepseek_v3_2__deepseek_w4a8.yaml", "accepted"},
      {"lab_practice__deepseek_v3_2__deepseek_w8a8.yaml", "accepted"},
      {"lab_practice__deepseek_v3_2__deepseek_w8a8_quarot.yaml", "accepted"},
      {"lab_practice__deepseek_v3__deepseek_w4a8_per_channel.yaml", "accepted"},
      {"lab_practice__deepseek_v3__deepseekr1_w4a8c8_per_channel.yaml", "accepted"},
      {"lab_practice__deepseek_v3__deepseekv31_terminus_w4a4c8.yaml", "accepted"},
      {"lab_practice__deepseek_v3__deepseekv31_terminus_w8a8c8.yaml", "accepted"},
      {"lab_practice__deepseek_v3__deepseekv3_w4a8c8_per_channel.yaml", "accepted"},
      {"lab_practice__deepseek_v4__deepseek_v4_flash_w8a8.yaml", "accepted"},
      {"lab_practice__deepseek_v4__deepseek_v4_pro_w4a8.yaml", "accepted"},
      {"lab_practice__deepseek_v4__deepseek_v4_pro_w8a8.yaml", "accepted"},
      {"lab_practice__default__default-w8a16.yaml", "accepted"},
      {"lab_practice__default__default-w8a8.yaml", "accepted"},
      {"lab_practice__flux1__flux1_w8a8f8_mxfp.yaml", "accepted"},
      {"lab_practice__glm4_6v__glm4_6v_w8a8.yaml", "accepted"},
      {"lab_practice__glm4_moe__glm4_7_moe-w8a8-v1.yaml", "accepted"},
      {"lab_practice__glm4_moe_lite__glm4_moe_lite_w8a8.yaml", "accepted"},
      {"lab_practice__glm_5__glm_5_1_w4a4c8_mxfp4.yaml", "accepted"},
      {"lab_practice__glm_5__glm_5_1_w4a8.yaml", "accepted"},
      {"lab_practice__glm_5__glm_5_1_w4a8c8.yaml", "accepted"},
      {"lab_practice__glm_5__glm_5_1_w8a8.yaml", "accepted"},
      {"lab_practice__glm_5__glm_5_1_w8a8c8.yaml", "accepted"},
      {"lab_practice__glm_5__glm_5_w4a8.yaml", "accepted"},
      {"lab_practice__glm_5__glm_5_w8a8.yaml", "accepted"},
      {"lab_practice__hunyuan_video__hunyuan_video_w8a8f8_mxfp.yaml", "accepted"},
      {"lab_practice__internvl3_5__internvl_w8a8.yaml", "accepted"},
      {"lab_practice__internvl3_5_moe__internvl_moe_w8a8.yaml", "accepted"},
      {"lab_practice__kimi_k2_5__kimi_k2_6_w4a4c8.yaml", "accepted"},
      {"lab_practice__kimi_k2_5__kimi_k2_6_w4a8.yaml", "accepted"},
      {"lab_practice__kimi_k2_5__kimi_w4a8.yaml", "accepted"},
      {"lab_practice__kimi_k2__kimi_w8a8_quarot.yaml", "accepted"},
      {"lab_practice__longcat_flash__longcat_flash_w4a4_mxfp4.yaml", "accepted"},
      {"lab_practice__minimax_m2__minimax_m27_w8a8.yaml", "accepted"},
      {"lab_practice__minimax_m2__minimax_m27_w8a8_mxfp8.yaml", "accepted"},
      {"lab_practice__minimax_m2__minimax_m27_w8a8c8.yaml", "accepted"},
      {"lab_practice__qwen1_5__qwen1.5-110b-w8a16.yaml", "accepted"},
      {"lab_practice__qwen2_5__qwen2.5-32b-w8a8.yaml", "accepted"},
      {"lab_practice__qwen2_5__qwen2.5-7b-w8a8.yaml", "accepted"},
      {"lab_practice__qwen2_5__qwen2.5-sparse.yaml", "accepted"},
      {"lab_practice__qwen2_5__qwen2.5-w8a8c8-pdmix.yaml", "accepted"},
      {"lab_practice__qwen2_5_omni_thinker__qwen2_5_omni_thinker_w8a8.yaml", "accepted"},
      {"lab_practice__qwen2_5_vl__qwen2.5-vl-32b-w8a8-mxfp.yaml", "accepted"},
      {"lab_practice__qwen2_5_vl__qwen2.5-vl-72b-w8a8-mxfp.yaml", "accepted"},
      {"lab_practice__qwen2_5_vl__qwen2.5-vl-7b-w8a8-mxfp.yaml", "accepted"},
      {"lab_practice__qwen2__qwen2-72b-w8a16.yaml", "accepted"},
      {"lab_practice__qwen2__qwen2-72b-w8a8.yaml", "accepted"},
      {"lab_practice__qwen2__qwen2-72b-w8a8c8.yaml", "accepted"},
      {"lab_practice__qwen2__qwen2-72b-w8a8s.yaml", "accepted"},
      {"lab_practice__qwen2__qwen2-7b-w8a8.yaml", "accepted"},
      {"lab_practice__qwen2__qwen2-7b-w8a8s.yaml", "accepted"},
      {"lab_practice__qwen3_5_moe__qwen3.5_moe_w4a8.yaml", "accepted"},
      {"lab_practice__qwen3_5_moe__qwen3_5_235B_w8a8.yaml", "accepted"},
      {"lab_practice__qwen3_5_moe__qwen3_5_dense_w8a8.yaml", "accepted"},
      {"lab_practice__qwen3_5_moe__qwen3_5_moe_w8a8.yaml", "accepted"},
      {"lab_practice__qwen3_5_moe__qwen3_6_dense_w8a8.yaml", "accepted"},
      {"lab_practice__qwen3__qwen3-14b-dense-w8a8.yaml", "accepted"},
      {"lab_practice__qwen3__qwen3-14b-w8a8s.yaml", "accepted"},
      {"lab_practice__qwen3__qwen3-32b-dense-w16a16s.yaml", "accepted"},
      {"lab_practice__qwen3__qwen3-32b-dense-w4a4.yaml", "accepted"},
      {"lab_practice__qwen3__qwen3-32b-dense-w8a8.yaml", "accepted"},
      {"lab_practice__qwen3__qwen3-32b-dense-w8a8c8.yaml", "accepted"},
      {"lab_practice__qwen3__qwen3-32b-w8a8s.yaml", "accepted"},
      {"lab_practice__qwen3__qwen3-8b-w8a8s.yaml", "accepted"},
      {"lab_practice__qwen3_moe__qwen3-235B-w4a8-v1.yaml", "accepted"},
      {"lab_practice__qwen3_moe__qwen3-30b-a3b-w8a8.yaml", "accepted"},
      {"lab_practice__qwen3_moe__qwen3-30b-w4a8-v1.yaml", "accepted"},
      {"lab_practice__qwen3_moe__qwen3-coder-480b-w4a8.yaml", "accepted"},
      {"lab_practice__qwen3_next__qwen3-next-80b-a3b-w8a8.yaml", "accepted"},
      {"lab_practice__qwen3_omni_moe__qwen3-omni-moe-w8a8.yaml", "accepted"},
      {"lab_practice__qwen3_vl__qwen3_vl_4b_w8a8.yaml", "accepted"},
      {"lab_practice__qwen3_vl__qwen3_vl_embedding_w8a8.yaml", "accepted"},
      {"lab_practice__qwen3_vl__qwen3_vl_w8a8.yaml", "accepted"},
      {"lab_practice__qwen3_vl_moe__qwen3_vl_moe_w8a8.yaml", "accepted"},
      {"lab_practice__qwen3_vl_moe__qwen3_vl_moe_w8a8_mxfp8.yaml", "accepted"},
      {"lab_practice__qwen_image_edit__qwen-image-edit-w4a4f4-mxfp.yaml", "accepted"},
      {"lab_practice__qwen_image_edit__qwen-image-edit-w8a8f8-mxfp.yaml", "accepted"},
      {"lab_practice__qwq__qwq-32b-sparse.yaml", "accepted"},
      {"lab_practice__qwq__qwq-32b-w8a8.yaml", "accepted"},
      // spec.default_text is a VLM key: msModelSlim's modelslim_v1 schema forbids extra keys
      // (docs/lint/conformance.md).
      {"lab_practice__step_3_5_flash__step3_5_moe_w8a8.yaml", "refused: extra-key"},
      {"lab_practice__wan2_1__wan2_1_w8a8_dynamic.yaml", "accepted"},
      {"lab_practice__wan2_2__wan2_2_w4a4f4_mxfp_t2v.yaml", "accepted"},
      {"lab_practice__wan2_2__wan2_2_w4a4f8_mxfp_t2v.yaml", "accepted"},
      {"lab_practice__wan2_2__wan2_2_w8a8f8_mxfp_i2v.yaml", "accepted"},
      {"lab_practice__wan2_2__wan2_2_w8a8f8_mxfp_t2v.yaml", "accepted"},
      {"lab_practice__wan2_2__wan2_2_w8a8f8_mxfp_ti2v.yaml", "accepted"},
  };
  size_t seen = 0;
  for (const auto &entry : fs::directory_iterator(dir)) {
    std::string name = entry.path().filename().string();
    if (name.rfind("lab_practice__", 0) != 0)
      continue;
    ++seen;
    std::ifstream in(entry.path());
    std::string text((std::istreambuf_iterator<char>(in)), {});
    SourceManager sm;
    DiagnosticEngine diags(sm);
    ms::PracticeDoc doc;
    std::string verdict = "refused: yaml";
    std::string detail;
    if (ms::parsePractice(text, sm.addFile(name, text), doc, diags)) {
      auto issues = ms::checkPractice(doc);
      verdict = ms::classifyPractice(doc, issues);
      for (const auto &i : issues)
        detail +=
            "\n  " + std::to_string(i.line) + ": " + ms::checkName(i.check) + ": " + i.message;
    }
    auto it = expected.find(name);
    ASSERT_NE(it, expected.end()) << "new file without a verdict: " << name;
    EXPECT_EQ(verdict, it->second) << name << detail;
  }
  EXPECT_EQ(seen, expected.size());
}
