// The AMCT KV-cache reading (amct::readKvDocument): a Linear of quant_layers or of an override
// entry is int8 with its entry's or the global calibration, another one stays float, another
// type is not decided; and the
// printer writes a KV-cache document that parses back to the same reading.
#include "vendors/amct/AmctConfig.h"
#include "vendors/amct/AmctReader.h"

#include <gtest/gtest.h>

namespace qspec {
namespace {

using amct::ConfigKind;

amct::AmctDocument parseKv(const std::string &text) {
  amct::AmctDocument doc;
  std::vector<amct::ParseError> errors;
  EXPECT_TRUE(amct::parseAmctConfigAs(text, ConfigKind::KVCache, doc, errors))
      << (errors.empty() ? "" : errors[0].message);
  return doc;
}

std::vector<ir::Module> kvModules() {
  return {{"q", "Linear", -1, 0},
          {"k", "Linear", -1, 0},
          {"v", "Linear", -1, 0},
          {"conv", "Conv2d", -1, 0},
          {"o", "Linear", -1, 0}};
}

TEST(AmctKvReading, ListedLinearsTakeTheirEntryOrTheGlobalCalibration) {
  auto doc = parseKv("activation_offset: false\n"
                     "kv_cache_quant_config { quant_layers: 'q' quant_layers: 'k' "
                     "quant_layers: 'conv' calibration_config { hfmg_quantize { "
                     "quant_granularity: per_channel } } }\n"
                     "override_layers_configs { layer_name: 'k' kv_data_quant_config { "
                     "ifmr_quantize { asymmetric: true } } }\n"
                     "override_layers_configs { layer_name: 'o' kv_data_quant_config { "
                     "hfmg_quantize { num_of_bins: 2048 } } }\n");
  auto r = amct::readKvDocument(doc, kvModules());
  ASSERT_EQ(r.size(), 5u);
  EXPECT_EQ(r[0].tier, ir::Tier::Int8);
  EXPECT_EQ(r[0].act.method, vendors::ReadingWord("histogram"));
  EXPECT_EQ(r[0].act.scope, vendors::ReadingWord("per_channel"));
  EXPECT_EQ(r[0].act.symmetric, std::optional<bool>(true)); // activation_offset false
  EXPECT_EQ(r[1].tier, ir::Tier::Int8);
  EXPECT_EQ(r[1].act.method, vendors::ReadingWord("ifmr"));
  EXPECT_EQ(r[1].act.scope, vendors::ReadingWord()); // quant_granularity not written
  EXPECT_EQ(r[1].act.symmetric, std::optional<bool>(false));
  EXPECT_EQ(r[1].line, 3u); // the override_layers_configs entry
  EXPECT_TRUE(r[2].known);  // an unlisted Linear: float
  EXPECT_EQ(r[2].tier, ir::Tier::Float);
  EXPECT_FALSE(r[3].known); // listed, but AMCT's KV-cache quantizes Linear only
  EXPECT_EQ(r[3].tier, ir::Tier::Float);
  // Not in quant_layers, but an override entry names it: AMCT merges the two lists.
  EXPECT_EQ(r[4].tier, ir::Tier::Int8);
  EXPECT_EQ(r[4].act.method, vendors::ReadingWord("histogram"));
  EXPECT_EQ(r[4].line, 4u);
}

TEST(AmctKvReading, NoAlgorithmWrittenIsIfmrAndThePrintedDocumentReadsTheSame) {
  auto doc = parseKv("kv_cache_quant_config { quant_layers: 'v' }\n");
  auto r = amct::readKvDocument(doc, kvModules());
  EXPECT_EQ(r[2].tier, ir::Tier::Int8);
  EXPECT_EQ(r[2].act.method, vendors::ReadingWord("ifmr"));
  EXPECT_EQ(r[2].act.symmetric, std::optional<bool>(false)); // activation_offset default true

  auto full = parseKv("batch_num: 2\nkv_cache_quant_config { quant_layers: 'q' calibration_config "
                      "{ hfmg_quantize { num_of_bins: 2048 } } }\n"
                      "override_layers_configs { layer_name: 'q' kv_data_quant_config { "
                      "ifmr_quantize { search_range_start: 0.8 quant_granularity: per_tensor } } "
                      "}\n");
  std::string printed = amct::printAmctConfig(full);
  EXPECT_NE(printed.find("kv_cache_quant_config"), std::string::npos) << printed;
  auto back = parseKv(printed);
  EXPECT_EQ(back.batchNum, std::optional<uint32_t>(2));
  EXPECT_EQ(back.global.numOfBins, std::optional<uint32_t>(2048));
  ASSERT_EQ(back.nameOverrides.size(), 1u);
  EXPECT_EQ(back.nameOverrides[0].recipe.searchStart, full.nameOverrides[0].recipe.searchStart);
  EXPECT_EQ(back.nameOverrides[0].recipe.perChannelAct, std::optional<bool>(false));
  auto a = amct::readKvDocument(full, kvModules()), b = amct::readKvDocument(back, kvModules());
  EXPECT_EQ(a[0].act.method, b[0].act.method);
  EXPECT_EQ(b[0].act.method, vendors::ReadingWord("ifmr"));
}

} // namespace
} // namespace qspec
