// compressed-tensors' document model and matching rules (vendors/compressed_tensors), on hand-made
// documents and on the real llm-compressor recipes in test/Inputs/conformance/compressed-tensors.
#include "vendors/compressed_tensors/CompressedTensors.h"
#include "../TestFiles.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

using namespace qspec;
using namespace qspec::vendors::ct;
namespace fs = std::filesystem;

namespace {

Doc parseCt(const std::string &text) {
  Doc d;
  std::string error;
  Loc at;
  EXPECT_TRUE(parseDoc(text, d, error, at)) << error << " at " << at.line << ":" << at.column;
  return d;
}

bool matches(const std::string &entry, const std::string &name) {
  std::unique_ptr<Matcher> m;
  std::string error;
  EXPECT_TRUE(Matcher::compile(entry, m, error)) << error;
  return m && m->matchesName(name);
}

} // namespace

TEST(CompressedTensors, ReMatchIsAnchoredAtTheStartOnly) {
  EXPECT_TRUE(matches("re:model.layers.1", "model.layers.10.mlp.down_proj")); // a prefix
  EXPECT_TRUE(matches("re:model.layers.1", "modelXlayersY1"));                // '.' is any char
  EXPECT_FALSE(matches("re:layers.1", "model.layers.1.mlp"));                 // start-anchored
  EXPECT_TRUE(matches("re:.*layers.1", "model.layers.1.mlp"));
  EXPECT_TRUE(matches("lm_head", "lm_head"));
  EXPECT_FALSE(matches("lm_head", "model.lm_head"));
  std::unique_ptr<Matcher> m;
  std::string error;
  EXPECT_FALSE(Matcher::compile("re:(?P<x>a)", m, error));
  EXPECT_NE(error.find("Python-only"), std::string::npos);
}

TEST(CompressedTensors, VllmTakesTheFirstTargetTheLibraryTheExactName) {
  Doc d = parseCt(R"({"config_groups": {
      "group_0": {"targets": ["re:.*proj$"], "weights": {"num_bits": 8}},
      "group_1": {"targets": ["model.layers.0.mlp.down_proj"], "weights": {"num_bits": 4, "strategy": "group", "group_size": 128}}},
    "format": "pack-quantized", "quant_method": "compressed-tensors"})");
  Rules r;
  std::string error;
  Loc at;
  ASSERT_TRUE(r.build(d, error, at)) << error;
  EXPECT_EQ(r.vllmGroup("model.layers.0.mlp.down_proj", "Linear"), 0);
  EXPECT_EQ(r.libraryGroup("model.layers.0.mlp.down_proj", "Linear"), 1);
  EXPECT_EQ(r.vllmGroup("model.layers.0.mlp.up_proj", "Linear"), 0);
}

TEST(CompressedTensors, ClassTargets) {
  Doc d = parseCt("{\"config_groups\": {\"g\": {\"targets\": [\"Linear\"], \"weights\": {}}}}");
  Rules r;
  std::string error;
  Loc at;
  ASSERT_TRUE(r.build(d, error, at));
  EXPECT_EQ(r.vllmGroup("x", "QKVParallelLinear"), 0);     // contained, case-insensitive
  EXPECT_EQ(r.libraryGroup("x", "QKVParallelLinear"), -1); // the library: the exact class
  EXPECT_EQ(r.libraryGroup("x", "Linear"), 0);
  EXPECT_EQ(r.vllmGroup("x", "Embedding"), -1);
}

TEST(CompressedTensors, ATargetInTwoGroupsTakesTheLastScheme) {
  Doc d = parseCt(R"({"config_groups": {
      "a": {"targets": ["Linear", "lm_head"], "weights": {"num_bits": 8}},
      "b": {"targets": ["lm_head"], "weights": {"num_bits": 4, "strategy": "channel"}}}})");
  Rules r;
  std::string error;
  Loc at;
  ASSERT_TRUE(r.build(d, error, at));
  EXPECT_EQ(r.vllmGroup("lm_head", "Linear"), 1);
  EXPECT_EQ(r.libraryGroup("lm_head", "Linear"), 1);
}

TEST(CompressedTensors, FusedLayers) {
  auto f = fusedLayerOf("model.layers.3.self_attn.k_proj");
  ASSERT_TRUE(f);
  EXPECT_EQ(f->name, "model.layers.3.self_attn.qkv_proj");
  ASSERT_EQ(f->shards.size(), 3u);
  EXPECT_EQ(f->shards[2], "model.layers.3.self_attn.v_proj");
  EXPECT_EQ(fusedLayerOf("model.layers.3.mlp.up_proj")->name, "model.layers.3.mlp.gate_up_proj");
  EXPECT_FALSE(fusedLayerOf("model.layers.3.mlp.down_proj"));
  // vLLM reads a fused layer by its class before its shards' names: a class target wins over
  // exact shard names.
  Doc d = parseCt(R"({"config_groups": {
      "a": {"targets": ["Linear"], "weights": {"num_bits": 8}},
      "b": {"targets": ["m.q_proj", "m.k_proj", "m.v_proj"], "weights": {"num_bits": 4, "strategy": "group", "group_size": 64}}}})");
  Rules r;
  std::string error;
  Loc at;
  ASSERT_TRUE(r.build(d, error, at));
  EXPECT_EQ(r.vllmFusedGroup(*fusedLayerOf("m.q_proj"), "ParallelLinear"), 0);
  EXPECT_EQ(r.vllmFusedGroup(*fusedLayerOf("m.q_proj"), "Unnamed"), 1); // all shards by name
  EXPECT_EQ(r.libraryGroup("m.q_proj", "Linear"), 1);
}

TEST(CompressedTensors, RealRecipesParse) {
  fs::path dir = conformanceDir() / "compressed-tensors";
  ASSERT_TRUE(fs::is_directory(dir)) << "missing conformance corpus: " << dir;
  Doc int8 = parseCt(
      slurp(dir / "llm-compressor__INT8__recipe_int8_channel_weight_static_per_tensor_act.yaml"));
  EXPECT_TRUE(int8.recipe);
  ASSERT_EQ(int8.groups.size(), 1u);
  EXPECT_EQ(int8.groups[0].targets[0].text, "Linear");
  EXPECT_EQ(int8.groups[0].weights->strategy, "channel");
  ASSERT_TRUE(int8.groups[0].acts);
  EXPECT_EQ(int8.groups[0].acts->strategy, "tensor");
  EXPECT_EQ(int8.ignore.at(0).text, "lm_head");
  EXPECT_EQ(int8.ignore.at(0).at.line, 6u);

  Doc w4 =
      parseCt(slurp(dir / "llm-compressor__WNA16__recipe_w4a16_group_quant_first_10_layers.yaml"));
  ASSERT_EQ(w4.groups.size(), 1u);
  EXPECT_EQ(w4.groups[0].weights->numBits, 4);
  EXPECT_EQ(w4.groups[0].weights->groupSize.value_or(0), 128);
  EXPECT_TRUE(w4.groups[0].weights->symmetric); // `True`, Python's spelling
  EXPECT_FALSE(w4.groups[0].acts);
  ASSERT_EQ(w4.ignore.size(), 3u);
  EXPECT_EQ(w4.ignore[1].at.line, 7u);

  Doc kv = parseCt(slurp(dir / "llm-compressor__kv_cache__gptq.yaml"));
  ASSERT_TRUE(kv.kvCache);
  EXPECT_EQ(kv.kvCache->type, "float");
  EXPECT_EQ(kv.ignore.size(), 5u);
}

// The first-10-layers recipe's ignore list on a 12-block model: layers 10 and 11 are ignored, and
// `re:.*mlp[.]gate[.].*` ignores nothing, because a router is the module `mlp.gate` itself.
TEST(CompressedTensors, RealIgnoreListOnAnInventory) {
  Doc w4 = parseCt(slurp(conformanceDir() / "compressed-tensors" /
                         "llm-compressor__WNA16__recipe_w4a16_group_quant_first_10_layers.yaml"));
  Rules r;
  std::string error;
  Loc at;
  ASSERT_TRUE(r.build(w4, error, at)) << error;
  EXPECT_TRUE(r.ignored("model.layers.10.mlp.down_proj"));
  EXPECT_TRUE(r.ignored("model.layers.11.self_attn.q_proj"));
  EXPECT_FALSE(r.ignored("model.layers.1.self_attn.q_proj"));
  EXPECT_FALSE(r.ignored("model.layers.0.mlp.gate"));
  EXPECT_TRUE(r.ignored("lm_head"));

  std::vector<ir::Module> mods;
  for (int i = 0; i < 12; ++i)
    for (const char *n : {"self_attn.q_proj", "mlp.gate", "mlp.down_proj"})
      mods.push_back({"model.layers." + std::to_string(i) + "." + n, "Linear", i, 0});
  SourceManager sm;
  DiagnosticEngine diags(sm);
  EXPECT_TRUE(checkPattern(w4.ignore[1].text, mods, SourceRange{}, diags));
  EXPECT_FALSE(checkPattern(w4.ignore[2].text, mods, SourceRange{}, diags));
  ASSERT_EQ(diags.diagnostics().size(), 1u);
  EXPECT_EQ(diags.diagnostics()[0].code, "err_llmc_pattern_no_match");
}

TEST(CompressedTensors, OverMatchSuggestsTheLiteralPattern) {
  std::vector<ir::Module> mods;
  for (int i = 0; i < 12; ++i)
    mods.push_back({"model.layers." + std::to_string(i) + ".mlp.down_proj", "Linear", i, 0});
  SourceManager sm;
  DiagnosticEngine diags(sm);
  EXPECT_FALSE(checkPattern("re:model.layers.1.*", mods, SourceRange{}, diags));
  EXPECT_TRUE(checkPattern("re:model\\.layers\\.1\\..*", mods, SourceRange{}, diags));
  EXPECT_TRUE(checkPattern("re:.*down_proj", mods, SourceRange{}, diags));
  ASSERT_EQ(diags.diagnostics().size(), 1u);
  EXPECT_EQ(diags.diagnostics()[0].code, "err_llmc_pattern_over_match");
}

TEST(CompressedTensors, RefusesWhatItCannotRead) {
  Doc d;
  std::string error;
  Loc at;
  EXPECT_FALSE(parseDoc("a: [", d, error, at));
  EXPECT_FALSE(parseDoc("stage: {}", d, error, at));
  EXPECT_NE(error.find("QuantizationModifier"), std::string::npos);
  Doc bad;
  EXPECT_FALSE(parseDoc("{\"config_groups\": {\"g\": {\"targets\": [\"Linear\"], \"weights\": "
                        "{\"num_bits\": \"eight\"}}}}",
                        bad, error, at));
  EXPECT_EQ(at.line, 1u);
}

// Without an inventory, only a `re:` number that starts a component and is left open is flagged.
TEST(CompressedTensors, NumberLeftOpen) {
  EXPECT_EQ(numberPrefixDigits("re:model.layers.1.*"), "1");
  EXPECT_EQ(numberPrefixDigits("re:model\\.layers\\.12"), "12");
  EXPECT_EQ(numberPrefixDigits("re:model\\.layers\\.1\\..*"), "");
  EXPECT_EQ(numberPrefixDigits("re:.*layers\\.1$"), "");
  EXPECT_EQ(numberPrefixDigits("re:.*model\\.layers\\.([1-9][0-9])\\..*"), "");
  EXPECT_EQ(numberPrefixDigits("re:.*fc1.*"), "");     // 1 ends a word, not a number component
  EXPECT_EQ(numberPrefixDigits("model.layers.1"), ""); // a plain name is matched exactly
}

// checkDocument: the issues of each check, at their entries; a warning stays a warning.
TEST(CompressedTensors, CheckDocument) {
  const char *recipe = "s:\n"
                       "  m:\n"
                       "    QuantizationModifier:\n"
                       "      ignore: [\"re:model.layers.1.*\"]\n"
                       "      config_groups:\n"
                       "        g0: {targets: [Linear], weights: {num_bits: 8, type: int}}\n"
                       "        g1: {targets: [\"re:.*v_proj$\"], weights: {num_bits: 4, "
                       "type: int, strategy: group}}\n";
  std::vector<Issue> issues = checkDocument(recipe, nullptr);
  std::vector<std::string> seen;
  for (const Issue &i : issues)
    seen.push_back(std::string(checkName(i.check)) + "@" + std::to_string(i.at.line) +
                   (i.error ? "" : " warning"));
  EXPECT_EQ(seen, (std::vector<std::string>{"pattern-over-match@4 warning", "fused-split@7",
                                            "unsupported-scheme@7"}));
  std::vector<ir::Module> mods;
  for (const char *n : {"model.layers.1.mlp.up_proj", "model.layers.10.mlp.up_proj"})
    mods.push_back(ir::Module{n, "Linear"});
  // With the model: the over-match is an error naming the extra module; 're:.*v_proj$' matches
  // nothing there (a warning).
  issues = checkDocument(recipe, &mods);
  ASSERT_GE(issues.size(), 2u);
  EXPECT_EQ(issues[0].check, Check::PatternNoMatch);
  EXPECT_FALSE(issues[0].error);
  EXPECT_EQ(issues[1].check, Check::PatternOverMatch);
  EXPECT_TRUE(issues[1].error);
  EXPECT_NE(issues[1].message.find("model.layers.10.mlp.up_proj"), std::string::npos);
  issues = checkDocument("a: [", nullptr);
  ASSERT_EQ(issues.size(), 1u);
  EXPECT_EQ(issues[0].check, Check::Parse);
}
