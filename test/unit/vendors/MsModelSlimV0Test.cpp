// msModelSlim's v0 schema (apiversion modelslim_v0): the calib_cfg reading, the reading of a
// practice on an inventory, translation validation of it, and the emitter's v0 output.
#include "vendors/Reading.h"
#include "vendors/msmodelslim/MsModelSlimReader.h"
#include "vendors/msmodelslim/MsModelSlimV0.h"

#include "../emitters/EmitTestSupport.h"

#include <gtest/gtest.h>

#include <algorithm>

namespace qspec {
namespace {

using testsupport::Mods;

const Mods kV0Mods = {{"m.0.q", "Linear"},    {"m.0.down", "Linear"}, {"m.1.q", "Linear"},
                      {"m.1.down", "Linear"}, {"m.norm", "RMSNorm"},  {"lm_head", "Linear"}};

msmodelslim::PracticeDoc parseV0(const std::string &yaml) {
  return testsupport::parsePracticeText(yaml);
}

TEST(MsModelSlimV0, CalibDefaultsAreQuantConfigs) {
  msmodelslim::V0Calib c = msmodelslim::readV0Calib(
      parseV0("apiversion: modelslim_v0\nspec:\n  calib_cfg: {disable_names: [a, b]}\n").root);
  EXPECT_EQ(c.wBit, 8);
  EXPECT_EQ(c.aBit, 8);
  EXPECT_TRUE(c.mmTensor); // QuantConfig's default: per-tensor weights
  EXPECT_TRUE(c.disableLastLinear);
  ASSERT_EQ(c.disableNames.size(), 2u);
  ir::Tier tier;
  vendors::RoleReading w, a;
  std::string why;
  ASSERT_TRUE(msmodelslim::v0Recipe(c, tier, w, a, why));
  EXPECT_EQ(*w.scope, "per_tensor");
  EXPECT_EQ(*a.scope, "per_tensor");
  EXPECT_EQ(a.symmetric, false); // static activations carry an offset
  EXPECT_EQ(*a.method, "minmax");
}

TEST(MsModelSlimV0, RecipeWords) {
  msmodelslim::V0Calib c;
  c.wBit = 4;
  c.aBit = 16;
  c.mmTensor = false;
  c.wMethod = "GPTQ";
  ir::Tier tier;
  vendors::RoleReading w, a;
  std::string why;
  ASSERT_TRUE(msmodelslim::v0Recipe(c, tier, w, a, why));
  EXPECT_EQ(tier, ir::Tier::Int4);
  EXPECT_EQ(*w.dtype, "int4");
  EXPECT_EQ(*w.scope, "per_channel");
  EXPECT_EQ(*w.method, "gptq");
  EXPECT_EQ(*a.dtype, "float");
  c.wBit = 8; // w4a8 is the sparse scheme or per-group W4A8_DYNAMIC (SparseScheme... below)
  c.aBit = 8;
  c.isDynamic = true;
  vendors::RoleReading w2, a2;
  ASSERT_TRUE(msmodelslim::v0Recipe(c, tier, w2, a2, why));
  EXPECT_EQ(*a2.scope, "per_token");
  EXPECT_EQ(a2.symmetric, true);
  c.aBit = 4;
  EXPECT_FALSE(msmodelslim::v0Recipe(c, tier, w2, a2, why));
  EXPECT_NE(why.find("a_bit 4"), std::string::npos) << why;
  EXPECT_EQ(msmodelslim::v0AntiMethod("flex_smooth_quant"), "m6");
  EXPECT_EQ(msmodelslim::v0AntiProcessor("m1"), "smooth_quant");
  EXPECT_EQ(msmodelslim::v0AntiMethod("quarot"), "");
}

// The sparse scheme as QuantConfig applies it (config_utils.check_sparse_config, get_quant_type).
TEST(MsModelSlimV0, SparseSchemeAsQuantConfigAppliesIt) {
  ir::Tier tier;
  vendors::RoleReading w, a;
  std::string why;
  // co_sparse replaces the bits: a w8a16 calib_cfg with co_sparse is quantized w4a8.
  msmodelslim::V0Calib c;
  c.aBit = 16;
  c.mmTensor = false;
  c.coSparse = true;
  ASSERT_TRUE(msmodelslim::v0Recipe(c, tier, w, a, why)) << why;
  EXPECT_EQ(tier, ir::Tier::Int4);
  EXPECT_EQ(*w.dtype, "int4");
  EXPECT_EQ(*a.dtype, "int8");
  EXPECT_EQ(*a.scope, "per_tensor");
  // is_lowbit turns co_sparse off: with w8a8 it is no sparse scheme, which qspec refuses to read.
  c.aBit = 8;
  c.isLowbit = true;
  EXPECT_FALSE(msmodelslim::v0Recipe(c, tier, w, a, why));
  EXPECT_NE(why.find("is_lowbit with w_bit 8"), std::string::npos) << why;
  // is_lowbit with w4a8 is the scheme.
  c.wBit = 4;
  why.clear();
  EXPECT_TRUE(msmodelslim::v0Recipe(c, tier, w, a, why)) << why;
  // w4a8 without it is W4A8_DYNAMIC, which QuantConfig refuses without per-group weights.
  c.isLowbit = c.coSparse = false;
  EXPECT_FALSE(msmodelslim::v0Recipe(c, tier, w, a, why));
  EXPECT_NE(why.find("without co_sparse or is_lowbit"), std::string::npos) << why;
  // The scheme with pdmix, is_dynamic or GPTQ weights; asymmetric weights with int8 activations.
  for (int k = 0; k < 4; ++k) {
    msmodelslim::V0Calib s;
    s.wBit = 4;
    s.coSparse = true;
    s.pdmix = k == 0;
    s.isDynamic = k == 1;
    s.wMethod = k == 2 ? "GPTQ" : "MinMax";
    s.wSym = k != 3;
    why.clear();
    EXPECT_FALSE(msmodelslim::v0Recipe(s, tier, w, a, why)) << k;
    EXPECT_FALSE(why.empty());
  }
  msmodelslim::V0Calib r = msmodelslim::readV0Calib(
      parseV0("apiversion: modelslim_v0\nspec:\n  calib_cfg: {co_sparse: True, is_lowbit: true}\n")
          .root);
  EXPECT_TRUE(r.coSparse);
  EXPECT_TRUE(r.isLowbit);
  EXPECT_EQ(msmodelslim::v0AntiMethod("iter_smooth"), "m4");
  EXPECT_EQ(msmodelslim::v0AntiProcessor("m4"), "iter_smooth");
  EXPECT_EQ(msmodelslim::v0AntiProcessor("m2"), "");
}

struct Read {
  ir::Spec spec;
  vendors::VendorReading reading;
  bool ok = false;
};

void readV0(Read &r, const std::string &yaml, const std::string &specText) {
  testsupport::compileAndEmit("msmodelslim", specText, kV0Mods, r.spec);
  SourceManager sm;
  DiagnosticEngine diags(sm);
  r.ok = vendors::readMsModelSlim(r.spec, *r.spec.target("msmodelslim"), yaml, r.reading, diags);
}

const char *kSpec = "qspec 1\ndefaults { tier int8 }\ntarget msmodelslim { apiversion "
                    "modelslim_v0 }\n";

TEST(MsModelSlimV0Reader, DisableNamesAndTheLastLinear) {
  Read r;
  readV0(r,
         "apiversion: modelslim_v0\nspec:\n  calib_cfg:\n    w_bit: 8\n    a_bit: 8\n"
         "    mm_tensor: false\n    disable_names: ['m.0.down', 'm.*']\n",
         kSpec);
  ASSERT_TRUE(r.ok);
  const auto &m = r.reading.modules;
  ASSERT_EQ(m.size(), kV0Mods.size());
  EXPECT_EQ(m[0].tier, ir::Tier::Int8);
  EXPECT_EQ(*m[0].weight.scope, "per_channel");
  EXPECT_EQ(m[1].tier, ir::Tier::Float); // an exact name
  EXPECT_EQ(m[1].line, 7u);
  EXPECT_EQ(m[2].tier, ir::Tier::Int8);  // 'm.*' is no pattern to QuantConfig
  EXPECT_FALSE(m[4].known);              // RMSNorm
  EXPECT_EQ(m[5].tier, ir::Tier::Float); // disable_last_linear defaults to true
  Read kept;
  readV0(kept, "apiversion: modelslim_v0\nspec:\n  calib_cfg: {disable_last_linear: false}\n",
         kSpec);
  ASSERT_TRUE(kept.ok);
  EXPECT_EQ(kept.reading.modules[5].tier, ir::Tier::Int8);
}

TEST(MsModelSlimV0, FnmatchCase) {
  using msmodelslim::fnmatchCase;
  EXPECT_TRUE(fnmatchCase("model.layers.3.mlp.down_proj", "model.layers.*.mlp.down_proj"));
  EXPECT_TRUE(fnmatchCase("a.b.c", "*"));
  EXPECT_TRUE(fnmatchCase("m.1.q", "m.?.q"));
  EXPECT_TRUE(fnmatchCase("m.1.q", "m.[0-3].q"));
  EXPECT_FALSE(fnmatchCase("m.1.q", "m.[!0-3].q"));
  EXPECT_TRUE(fnmatchCase("m[1", "m[1")); // a `[` without its `]` is literal
  EXPECT_FALSE(fnmatchCase("m.{0,1}", "m.0"));
  EXPECT_FALSE(fnmatchCase("M.1.q", "m.*")); // case-sensitive
  EXPECT_FALSE(fnmatchCase("model.layers.3.mlp.up", "*.mlp.down*"));
}

// Calibrator's mix_cfg: an exact key first, else the first matching pattern; float entries
// leave Linears float, w8a8_dynamic gives a w_bit 8 recipe per_token activations; the rollback
// (disable_names, the last Linear) comes first.
TEST(MsModelSlimV0Reader, MixCfg) {
  Read r;
  readV0(r,
         "apiversion: modelslim_v0\nspec:\n  calib_cfg: {mm_tensor: false, disable_names: "
         "[m.1.q]}\n  calib_params:\n    mix_cfg:\n      \"m.*.down\": float\n"
         "      \"m.1.*\": w8a8_dynamic\n      \"m.0.q\": w8a8\n",
         kSpec);
  ASSERT_TRUE(r.ok);
  const auto &m = r.reading.modules;
  EXPECT_EQ(m[0].tier, ir::Tier::Int8); // m.0.q: w8a8, the recipe itself
  EXPECT_EQ(*m[0].act.scope, "per_tensor");
  EXPECT_EQ(m[1].tier, ir::Tier::Float); // m.0.down
  EXPECT_EQ(m[1].line, 6u);
  EXPECT_EQ(m[2].tier, ir::Tier::Float); // m.1.q: disable_names first
  EXPECT_EQ(m[3].tier, ir::Tier::Float); // m.1.down: the first matching entry is float
  EXPECT_EQ(m[5].tier, ir::Tier::Float); // lm_head: the last Linear
  Read dyn;
  readV0(dyn,
         "apiversion: modelslim_v0\nspec:\n  calib_cfg: {mm_tensor: false}\n  calib_params:\n"
         "    mix_cfg: {\"m.1.*\": w8a8_dynamic}\n",
         kSpec);
  ASSERT_TRUE(dyn.ok);
  EXPECT_EQ(*dyn.reading.modules[2].act.scope, "per_token");
  EXPECT_EQ(*dyn.reading.modules[0].act.scope, "per_tensor");
  // A w4a8 sparse calib_cfg has no derived w8a8 configs: Calibrator stops, roles unknown.
  Read w4;
  readV0(w4,
         "apiversion: modelslim_v0\nspec:\n  calib_cfg: {w_bit: 4, co_sparse: true}\n"
         "  calib_params:\n    mix_cfg: {\"m.1.*\": w8a8}\n",
         kSpec);
  ASSERT_TRUE(w4.ok);
  EXPECT_FALSE(w4.reading.modules[2].weight.dtype);
  EXPECT_EQ(*w4.reading.modules[0].weight.dtype, "int4");
}

// LayerConfigManager.convert_to_*: the bits and is_dynamic replaced, every other argument kept;
// derived only from a w_bit 8 QuantConfig (co_sparse's w_bit 4 applied) or a w4a4 one.
TEST(MsModelSlimV0, MixConfigsAreDerivedFromCalibCfg) {
  msmodelslim::V0Calib c;
  c.mmTensor = false;
  c.actMethod = 2;
  msmodelslim::V0Calib d;
  std::string why;
  ASSERT_TRUE(msmodelslim::v0MixCalib(c, "w8a8_dynamic", d, why));
  EXPECT_TRUE(d.isDynamic);
  EXPECT_EQ(d.aBit, 8);
  EXPECT_FALSE(d.mmTensor);
  EXPECT_EQ(d.actMethod, 2);
  ASSERT_TRUE(msmodelslim::v0MixCalib(c, "w8a16", d, why));
  EXPECT_EQ(d.aBit, 16);
  EXPECT_FALSE(d.isDynamic);
  EXPECT_FALSE(msmodelslim::v0MixCalib(c, "w4a8_dynamic", d, why));
  EXPECT_FALSE(msmodelslim::v0MixCalib(c, "float", d, why));
  msmodelslim::V0Calib sparse = c;
  sparse.coSparse = true; // QuantConfig makes w_bit 4: Calibrator derives nothing
  EXPECT_FALSE(msmodelslim::v0MixCalib(sparse, "w8a8", d, why));
  EXPECT_NE(why.find("co_sparse"), std::string::npos);
  msmodelslim::V0Calib w4a4 = c;
  w4a4.wBit = w4a4.aBit = 4;
  ASSERT_TRUE(msmodelslim::v0MixCalib(w4a4, "w8a8", d, why));
  EXPECT_EQ(d.wBit, 8);
}

TEST(MsModelSlimV0Reader, MixCfgOfASparseCalibCfgIsUnknown) {
  // co_sparse makes QuantConfig's w_bit 4 although the file says 8: no derived w8a8 config.
  Read r;
  readV0(r,
         "apiversion: modelslim_v0\nspec:\n  calib_cfg: {w_bit: 8, co_sparse: true}\n"
         "  calib_params:\n    mix_cfg: {\"m.1.*\": w8a8}\n",
         kSpec);
  ASSERT_TRUE(r.ok);
  EXPECT_EQ(r.reading.modules[2].tier, ir::Tier::Int8);
  EXPECT_FALSE(r.reading.modules[2].weight.dtype);
}

TEST(MsModelSlimV0Reader, TranslationValidationFindsAQuantizedHead) {
  // The spec quantizes every Linear; the file leaves the last Linear to QuantConfig's default.
  Read r;
  readV0(r, "apiversion: modelslim_v0\nspec:\n  calib_cfg: {mm_tensor: false}\n", kSpec);
  ASSERT_TRUE(r.ok);
  SourceManager sm;
  DiagnosticEngine diags(sm);
  EXPECT_FALSE(vendors::validateReading(r.spec, *r.spec.target("msmodelslim"), r.reading, diags));
  ASSERT_EQ(diags.diagnostics().size(), 1u);
  EXPECT_NE(diags.diagnostics()[0].message.find("'lm_head'"), std::string::npos)
      << diags.diagnostics()[0].message;
}

TEST(MsModelSlimV0Emitter, OneRecipeAndExactNames) {
  ir::Spec spec;
  auto run = testsupport::compileAndEmit(
      "msmodelslim",
      "qspec 1\ndefaults { tier int8; act int8 per_token }\ntiers int8 < float\nprotect "
      "\"m.*.down\"\ntarget msmodelslim { apiversion modelslim_v0 }\n",
      kV0Mods, spec);
  ASSERT_TRUE(run.ok) << run.out;
  EXPECT_NE(run.out.find("is_dynamic: true"), std::string::npos) << run.out;
  EXPECT_NE(run.out.find("disable_last_linear: false"), std::string::npos) << run.out;
  EXPECT_NE(run.out.find("- \"m.0.down\"\n      - \"m.1.down\""), std::string::npos) << run.out;
  EXPECT_EQ(run.out.find("process"), std::string::npos);
}

TEST(MsModelSlimV0Emitter, RefusesWhatV0CannotCarry) {
  ir::Spec a, b, c;
  auto mixed = testsupport::compileAndEmit("msmodelslim",
                                           "qspec 1\ndefaults { tier int8 }\ntiers int4 < int8 < "
                                           "float\noverride name \"m.1.*\" { tier int4 }\ntarget "
                                           "msmodelslim { apiversion modelslim_v0 }\n",
                                           kV0Mods, a);
  EXPECT_FALSE(mixed.ok);
  EXPECT_NE(std::find(mixed.ids.begin(), mixed.ids.end(), "err_msmodelslim_v0_not_expressible"),
            mixed.ids.end());
  auto pattern = testsupport::compileAndEmit(
      "msmodelslim",
      "qspec 1\ndefaults { tier int8 }\ntiers int8 < float\nprotect \"m.*.down\"\ntarget "
      "msmodelslim { apiversion modelslim_v0 }\n",
      {}, b);
  EXPECT_FALSE(pattern.ok);
  EXPECT_NE(std::find(pattern.ids.begin(), pattern.ids.end(), "err_emit_needs_inventory"),
            pattern.ids.end());
  auto anti = testsupport::compileAndEmit(
      "msmodelslim",
      "qspec 1\ndefaults { tier int8 }\ntarget msmodelslim { apiversion modelslim_v0; "
      "anti_outlier { iter_smooth { alpha 0.5 } } }\n",
      kV0Mods, c);
  EXPECT_FALSE(anti.ok);
  EXPECT_NE(std::find(anti.ids.begin(), anti.ids.end(), "err_msmodelslim_v0_not_expressible"),
            anti.ids.end());
}

TEST(MsModelSlimV0Emitter, CarriesTheV0OnlySettings) {
  ir::Spec spec, off, v1;
  auto run = testsupport::compileAndEmit(
      "msmodelslim",
      "qspec 1\ndefaults { tier int8 }\ntarget msmodelslim { apiversion modelslim_v0; "
      "anti_outlier { flex_smooth_quant { alpha 0.5 } }; disable_anti_names \"m.0.down\"; "
      "use_kvcache_quant true; anti_dataset \"a.jsonl\" }\n",
      kV0Mods, spec);
  ASSERT_TRUE(run.ok) << run.out;
  EXPECT_NE(run.out.find("disable_anti_names:\n      - \"m.0.down\""), std::string::npos)
      << run.out;
  EXPECT_NE(run.out.find("use_kvcache_quant: true"), std::string::npos) << run.out;
  EXPECT_NE(run.out.find("anti_dataset: \"a.jsonl\""), std::string::npos) << run.out;
  auto none = testsupport::compileAndEmit(
      "msmodelslim",
      "qspec 1\ndefaults { tier int8 }\ntarget msmodelslim { apiversion modelslim_v0; "
      "use_kvcache_quant false }\n",
      kV0Mods, off);
  ASSERT_TRUE(none.ok) << none.out;
  EXPECT_EQ(none.out.find("use_kvcache_quant"), std::string::npos) << none.out;
  auto v1run = testsupport::compileAndEmit(
      "msmodelslim", "qspec 1\ndefaults { tier int8 }\ntarget msmodelslim { anti_dataset \"a\" }\n",
      kV0Mods, v1);
  EXPECT_FALSE(v1run.ok);
  EXPECT_NE(std::find(v1run.ids.begin(), v1run.ids.end(), "err_msmodelslim_bad_option"),
            v1run.ids.end());
}

TEST(MsModelSlimV0Emitter, WritesTheSparseScheme) {
  ir::Spec spec, bits, bare;
  auto run = testsupport::compileAndEmit(
      "msmodelslim",
      "qspec 1\ndefaults { tier int4; weight int4; act int8 }\ntarget msmodelslim { apiversion "
      "modelslim_v0; is_lowbit true; co_sparse true; use_sigma true; sigma_factor 4; fraction "
      "0.011 }\n",
      kV0Mods, spec);
  ASSERT_TRUE(run.ok) << run.out;
  EXPECT_NE(run.out.find("is_lowbit: true\n    co_sparse: true\n    use_sigma: true\n    "
                         "fraction: 0.011\n    sigma_factor: 4.0\n"),
            std::string::npos)
      << run.out;
  // co_sparse would turn a w8a8 recipe into w4a8: refused rather than written.
  auto w8 = testsupport::compileAndEmit(
      "msmodelslim",
      "qspec 1\ndefaults { tier int8; act int8 }\ntarget msmodelslim { apiversion modelslim_v0; "
      "co_sparse true }\n",
      kV0Mods, bits);
  EXPECT_FALSE(w8.ok);
  EXPECT_NE(std::find(w8.ids.begin(), w8.ids.end(), "err_msmodelslim_v0_not_expressible"),
            w8.ids.end());
  // A w4a8 recipe needs the scheme.
  auto plain = testsupport::compileAndEmit(
      "msmodelslim",
      "qspec 1\ndefaults { tier int4; weight int4; act int8 }\ntarget msmodelslim { apiversion "
      "modelslim_v0 }\n",
      kV0Mods, bare);
  EXPECT_FALSE(plain.ok);
  EXPECT_NE(std::find(plain.ids.begin(), plain.ids.end(), "err_msmodelslim_v0_not_expressible"),
            plain.ids.end());
}

TEST(MsModelSlimV0Checks, OneListForQlintAndTheReadBack) {
  // A v0 calib_cfg that is no mapping: checkPractice (qlint's rule) reports it, and the read-back
  // refuses the file with the same message.
  std::string bad = "apiversion: modelslim_v0\nspec:\n  calib_cfg: [w_bit]\n";
  auto issues = msmodelslim::checkPractice(parseV0(bad));
  ASSERT_EQ(issues.size(), 1u);
  EXPECT_EQ(issues[0].check, msmodelslim::Check::V0Spec);
  EXPECT_EQ(issues[0].line, 3u);
  Read r;
  readV0(r, bad, kSpec);
  EXPECT_FALSE(r.ok);
  Read good;
  readV0(good, "apiversion: modelslim_v0\nspec:\n  calib_cfg: {w_bit: 8}\n  anti_cfg:\n", kSpec);
  EXPECT_TRUE(good.ok);
  EXPECT_EQ(msmodelslim::classifyPractice(parseV0(bad), issues), "refused: v0-spec");
  EXPECT_TRUE(msmodelslim::checkPractice(parseV0("apiversion: modelslim_v0\nspec: {}\n")).empty());
}

TEST(MsModelSlimV0Checks, ConstructorArguments) {
  // What QuantConfig / AntiOutlierConfig refuse, at the value (an unknown keyword at its key).
  auto issues = msmodelslim::checkPractice(
      parseV0("apiversion: modelslim_v0\nspec:\n  anti_cfg: {anti_method: m0}\n  calib_cfg:\n"
              "    sigma_factor: 4\n    fraction: 0.011\n    use_sigmaa: true\n"));
  ASSERT_EQ(issues.size(), 3u);
  std::vector<std::string> messages;
  for (const auto &i : issues) {
    EXPECT_EQ(i.check, msmodelslim::Check::V0Spec);
    messages.push_back(std::to_string(i.line) + ":" + std::to_string(i.col) + " " + i.message);
  }
  std::sort(messages.begin(), messages.end());
  EXPECT_EQ(messages[0], "3:27 Configuration param `anti_method` must be in choices ['m1', "
                         "'m2', 'm3', 'm4', 'm5', 'm6']");
  EXPECT_EQ(messages[1], "5:19 sigma factor must be float, not int.");
  EXPECT_EQ(messages[2],
            "7:5 QuantConfig.__init__() got an unexpected keyword argument 'use_sigmaa'");
  // The sparse practices msModelSlim ships pass.
  EXPECT_TRUE(msmodelslim::checkPractice(
                  parseV0("apiversion: modelslim_v0\nspec:\n  anti_cfg: {anti_method: m4}\n"
                          "  calib_cfg: {w_bit: 4, a_bit: 8, mm_tensor: False, is_lowbit: True, "
                          "co_sparse: True, use_sigma: True, fraction: 0.011, sigma_factor: 4.0, "
                          "disable_names: }\n"))
                  .empty());
}

} // namespace
} // namespace qspec
