// msModelSlim's multimodal_sd_modelslim_v1 service: the reading of multimodal_sd_config
// (DumpConfig's defaults, inference_config or the legacy model_config), the load checks of the
// block, the reading of an SD practice's processors on a DiT inventory, and translation validation
// of the SD settings against the target (validateSdSettings, which the emitter runs on what it
// wrote).
#include "vendors/Reading.h"
#include "vendors/msmodelslim/MsModelSlimReader.h"
#include "vendors/msmodelslim/MsModelSlimSd.h"

#include "../emitters/EmitTestSupport.h"

#include <gtest/gtest.h>

#include <algorithm>

namespace qspec {
namespace {

using testsupport::Mods;

const Mods kDit = {{"blocks.0.self_attn.q", "Linear"}, {"blocks.0.ffn.0", "Linear"},
                   {"blocks.0.ffn.2", "Linear"},       {"blocks.1.self_attn.q", "Linear"},
                   {"blocks.1.ffn.2", "Linear"},       {"blocks.1.norm1", "WanLayerNorm"}};

msmodelslim::PracticeDoc parseSd(const std::string &yaml) {
  return testsupport::parsePracticeText(yaml);
}

std::vector<std::string> checks(const std::string &yaml) {
  std::vector<std::string> out;
  for (const msmodelslim::Issue &i : msmodelslim::checkPractice(parseSd(yaml)))
    if (i.error)
      out.push_back(std::string(msmodelslim::checkName(i.check)) + ": " + i.message);
  return out;
}

const char *kSdHead = "apiversion: multimodal_sd_modelslim_v1\nspec:\n  save:\n"
                      "    - type: mindie_format_saver\n";

TEST(MsModelSlimSd, DumpConfigDefaultsAndTheInferenceDict) {
  msmodelslim::SdConfig c = msmodelslim::readSdConfig(
      parseSd(std::string(kSdHead) + "  multimodal_sd_config:\n    dump_config: {}\n"
                                     "    inference_config: {frame_num: 81, size: '1280*720', "
                                     "video_size: [720, 1280], convert_model_dtype: True}\n")
          .root);
  EXPECT_TRUE(c.enableDump); // DumpConfig's defaults
  EXPECT_EQ(c.captureMode, "args");
  EXPECT_EQ(c.dumpDataDir, "");
  EXPECT_EQ(c.inferenceKey, "inference_config");
  ASSERT_EQ(c.inference.size(), 4u);
  EXPECT_EQ(c.inference[0], std::make_pair(std::string("frame_num"), std::string("81")));
  EXPECT_EQ(c.inference[1].second, "'1280*720'");
  EXPECT_EQ(c.inference[2].second, "[720, 1280]");
  EXPECT_EQ(c.inference[3].second, "true");
}

TEST(MsModelSlimSd, LegacyModelConfigWhenInferenceConfigIsNull) {
  msmodelslim::SdConfig c = msmodelslim::readSdConfig(
      parseSd(std::string(kSdHead) +
              "  multimodal_sd_config:\n    dump_config: {enable_dump: False}\n"
              "    inference_config: null\n    model_config: {prompt: a cat}\n")
          .root);
  EXPECT_FALSE(c.enableDump);
  EXPECT_EQ(c.inferenceKey, "model_config");
  ASSERT_EQ(c.inference.size(), 1u);
  EXPECT_EQ(c.inference[0].second, "'a cat'");
  EXPECT_TRUE(checks(std::string(kSdHead) + "  multimodal_sd_config:\n    dump_config: {}\n"
                                            "    inference_config: null\n    model_config: {}\n")
                  .empty());
}

TEST(MsModelSlimSd, LoadChecksOfTheBlock) {
  auto missing = checks(kSdHead);
  ASSERT_EQ(missing.size(), 1u);
  EXPECT_EQ(missing[0].rfind("missing-field: spec.multimodal_sd_config.dump_config", 0), 0u)
      << missing[0];
  auto bad = checks(std::string(kSdHead) + "  multimodal_sd_config:\n"
                                           "    dump_config: {capture_mode: kwargs, dump: x}\n"
                                           "    inference_config: {a: 1}\n"
                                           "    model_config: {a: 1}\n");
  ASSERT_EQ(bad.size(), 3u);
  EXPECT_NE(std::find(bad.begin(), bad.end(),
                      "sd-config: spec.multimodal_sd_config.dump_config.capture_mode: Input "
                      "should be 'args'"),
            bad.end());
  EXPECT_NE(std::find(bad.begin(), bad.end(),
                      "sd-config: inference_config and model_config are mutually exclusive; "
                      "please keep only one."),
            bad.end());
  EXPECT_EQ(std::count_if(bad.begin(), bad.end(),
                          [](const std::string &s) { return s.rfind("extra-key:", 0) == 0; }),
            1);
  // Extra keys of the block itself are kept (extra=allow); online_quarot is an SD processor.
  EXPECT_TRUE(checks(std::string(kSdHead) +
                     "  process:\n    - type: online_quarot\n      include: ['*']\n"
                     "  multimodal_sd_config:\n    dump_config: {enable_dump: 0}\n"
                     "    note: kept\n")
                  .empty());
}

const char *kSdSpec = "qspec 1\ndefaults { tier int8; weight mxfp8 per_block symmetric minmax; "
                      "act mxfp8 per_block symmetric minmax }\nprotect \"blocks.*.ffn.2\"\n"
                      "target msmodelslim { apiversion multimodal_sd_modelslim_v1\n"
                      "  save mindie_format_saver\n"
                      "  multimodal_sd_config { dump_config { enable_dump false }\n"
                      "    inference_config { frame_num 81; video_size 720, 1280 } } }\n";

TEST(MsModelSlimSd, EmittedPracticeReadsBackEqual) {
  ir::Spec spec;
  auto run = testsupport::compileAndEmit("msmodelslim", kSdSpec, kDit, spec);
  ASSERT_TRUE(run.ok) << run.out;
  SourceManager sm;
  DiagnosticEngine diags(sm);
  vendors::VendorReading reading;
  ASSERT_TRUE(vendors::readMsModelSlim(spec, *spec.target("msmodelslim"), run.out, reading, diags));
  EXPECT_TRUE(vendors::validateReading(spec, *spec.target("msmodelslim"), reading, diags));
  ASSERT_EQ(reading.modules.size(), kDit.size());
  EXPECT_EQ(reading.modules[0].tier, ir::Tier::Int8); // blocks.0.self_attn.q
  EXPECT_EQ(*reading.modules[0].weight.dtype, "mxfp8");
  EXPECT_EQ(reading.modules[2].tier, ir::Tier::Float); // blocks.0.ffn.2, protected
  EXPECT_FALSE(reading.modules[5].known);              // a norm: linear_quant never tests it
}

TEST(MsModelSlimSd, TranslationValidationComparesTheSdSettings) {
  ir::Spec spec;
  auto run = testsupport::compileAndEmit("msmodelslim", kSdSpec, kDit, spec);
  ASSERT_TRUE(run.ok);
  std::string changed = run.out;
  size_t at = changed.find("frame_num: 81");
  ASSERT_NE(at, std::string::npos) << changed;
  changed.replace(at, 13, "frame_num: 49");
  at = changed.find("enable_dump: false");
  ASSERT_NE(at, std::string::npos);
  changed.replace(at, 18, "enable_dump: true");
  SourceManager sm;
  DiagnosticEngine diags(sm);
  EXPECT_TRUE(vendors::validateSdSettings(*spec.target("msmodelslim"), parseSd(run.out), diags));
  EXPECT_FALSE(vendors::validateSdSettings(*spec.target("msmodelslim"), parseSd(changed), diags));
  std::vector<std::string> ids;
  for (const Diagnostic &d : diags.diagnostics())
    ids.push_back(d.code);
  EXPECT_EQ(std::count(ids.begin(), ids.end(), "err_msmodelslim_sd_divergence"), 2);
}

} // namespace
} // namespace qspec
