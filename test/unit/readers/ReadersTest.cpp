// Unit tests for frontend/readers: every inventory and scores format, good files and each
// malformed case (diagnostic ID, line and column).
#include "frontend/readers/Readers.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <unistd.h>

using namespace qspec;
namespace fs = std::filesystem;

namespace {

class ReadersTest : public ::testing::Test {
protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("qspec-readers-" + std::to_string(::getpid()) + "-" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  std::string write(const std::string &name, const std::string &bytes) {
    std::string p = (dir_ / name).string();
    std::ofstream(p, std::ios::binary) << bytes;
    return p;
  }

  // A .safetensors file: 8-byte little-endian length, then `header`, then `data` bytes.
  std::string safetensors(const std::string &name, const std::string &header, uint64_t length,
                          size_t data = 0) {
    std::string bytes;
    for (int i = 0; i < 8; ++i)
      bytes.push_back(static_cast<char>((length >> (8 * i)) & 0xff));
    bytes += header;
    bytes += std::string(data, '\0');
    return write(name, bytes);
  }

  bool inventory(const std::string &path, const readers::ReaderLimits &limits = {}) {
    inv_ = ir::Inventory{};
    return readers::readInventory(path, inv_, diags_, {}, limits);
  }
  bool scores(const std::string &path, const readers::ReaderLimits &limits = {}) {
    sc_ = ir::Scores{};
    return readers::readScores(path, sc_, diags_, {}, limits);
  }

  // The first error's ID ("" if none).
  std::string firstError() const {
    for (const Diagnostic &d : diags_.diagnostics())
      if (d.severity == Severity::Error || d.severity == Severity::Fatal)
        return d.code;
    return "";
  }
  const Diagnostic *first(const std::string &code) const {
    for (const Diagnostic &d : diags_.diagnostics())
      if (d.code == code)
        return &d;
    return nullptr;
  }
  unsigned count(const std::string &code) const {
    unsigned n = 0;
    for (const Diagnostic &d : diags_.diagnostics())
      n += d.code == code;
    return n;
  }
  std::vector<std::string> names() const {
    std::vector<std::string> v;
    for (const auto &m : inv_.modules)
      v.push_back(m.name + ":" + m.type);
    return v;
  }

  fs::path dir_;
  SourceManager sm_;
  DiagnosticEngine diags_{sm_};
  ir::Inventory inv_;
  ir::Scores sc_;
};

// ---- protobuf bytes for ONNX tests (a hand encoder: varints and length-delimited fields) ----

std::string varint(uint64_t v) {
  std::string s;
  do {
    uint8_t b = v & 0x7f;
    v >>= 7;
    s.push_back(static_cast<char>(b | (v ? 0x80 : 0)));
  } while (v);
  return s;
}
std::string field(int number, const std::string &payload) {
  return varint((static_cast<uint64_t>(number) << 3) | 2) + varint(payload.size()) + payload;
}
std::string node(const std::string &name, const std::string &op) {
  std::string n = field(1, "x") + field(2, "y");
  if (!name.empty())
    n += field(3, name);
  return n + field(4, op);
}
std::string model(const std::vector<std::string> &nodes, bool withGraph = true) {
  std::string m = varint((1 << 3) | 0) + varint(8); // ir_version = 8
  if (withGraph) {
    std::string g;
    for (const auto &n : nodes)
      g += field(1, n);
    g += field(2, "main_graph");
    m += field(7, g);
  }
  return m;
}

// ---- manifests -----------------------------------------------------------------------------

TEST_F(ReadersTest, ManifestKeepsFileOrderCommentsAndMissingTypes) {
  std::string p =
      write("m.txt", "# header\n\nb.q_proj Linear  # trailing\r\na.q_proj\tLinear\nmystery\n");
  ASSERT_TRUE(inventory(p));
  EXPECT_EQ(inv_.format, "manifest");
  EXPECT_EQ(names(), (std::vector<std::string>{"b.q_proj:Linear", "a.q_proj:Linear", "mystery:"}));
  EXPECT_EQ(inv_.modules[0].line, 3u);
  EXPECT_EQ(inv_.modules[2].line, 5u);
  ASSERT_NE(inv_.find("a.q_proj"), nullptr);
}

TEST_F(ReadersTest, ManifestTextIsFreedAfterEveryRead) {
  // Read without a message: the text is not kept (a million-line manifest is ~50 MB), its lines
  // are.
  std::string quiet = write("quiet.txt", "a.q_proj Linear\nb.k_proj Linear\n");
  ASSERT_TRUE(inventory(quiet));
  FileID f = sm_.find(quiet);
  ASSERT_NE(f, 0u);
  EXPECT_FALSE(sm_.hasText(f));
  EXPECT_EQ(sm_.lineRange(f, 2).begin.line, 2u);
  EXPECT_EQ(inv_.modules[1].name, "b.k_proj");
  // A read that reported something frees it too: no message quotes a line of a file that is
  // not a .qspec (it may be any file a spec names); the messages' places stay known.
  std::string bad = write("bad.txt", "a.q_proj Linear\na.q_proj Linear\n");
  EXPECT_FALSE(inventory(bad));
  FileID g = sm_.find(bad);
  ASSERT_NE(g, 0u);
  EXPECT_FALSE(sm_.hasText(g));
  EXPECT_EQ(sm_.line(g, 2), "");
  EXPECT_EQ(sm_.lineRange(g, 2).begin.line, 2u);
}

TEST_F(ReadersTest, ManifestControlCharactersAndBlanksInNames) {
  // The quick pass flags candidate bytes (C0, DEL, 0xC2), the exact walk decides: U+00A0 and
  // U+00E9 (C2 A0, C3 A9) are names; U+0085 (C2 85), DEL, a C0 control, a lone C2 (not UTF-8)
  // and a tab or space inside a CSV name are not (one error each, on the second line).
  ASSERT_TRUE(inventory(write("ok.txt", "a.\xC2\xA0x Linear\nb.\xC3\xA9 Linear\n")));
  EXPECT_EQ(inv_.modules.size(), 2u);
  EXPECT_EQ(count("err_inventory_malformed"), 0u);
  unsigned errors = 0;
  for (const char *bad :
       {"a.\xC2\x85x Linear\n", "a.x\x7f Linear\n", "a.x\x01 Linear\n", "c.\xC2 Linear\n"}) {
    EXPECT_FALSE(inventory(write("bad.txt", std::string("ok Linear\n") + bad))) << bad;
    EXPECT_EQ(count("err_inventory_malformed"), ++errors) << bad;
  }
  EXPECT_FALSE(inventory(write("tab.csv", "a.x,Linear\n\"a.\ty\",Linear\n")));
  EXPECT_EQ(count("err_inventory_malformed"), ++errors);
  EXPECT_FALSE(inventory(write("space.csv", "a.x,Linear\na. y,Linear\n")));
  EXPECT_EQ(count("err_inventory_malformed"), ++errors);
  for (const Diagnostic &d : diags_.diagnostics())
    EXPECT_EQ(d.range.begin.line, 2u) << d.message;
}

TEST_F(ReadersTest, ManifestSplitsAlikeWithAndWithoutOtherBlanks) {
  // A file whose only blank is ' ' has its lines split at spaces; a tab anywhere (here in a
  // comment) sends every line through the test against all six reader spaces. Same modules,
  // lines and columns either way.
  const std::string body = "  a.x   Linear  \nb.y Conv2d\nc\n   d.z  \n";
  for (const std::string head : {"# plain\n", "#\ttabbed\n"}) {
    ASSERT_TRUE(inventory(write("m.txt", head + body))) << head;
    EXPECT_EQ(names(), (std::vector<std::string>{"a.x:Linear", "b.y:Conv2d", "c:", "d.z:"}))
        << head;
    EXPECT_EQ(inv_.modules[3].line, 5u) << head;
    EXPECT_FALSE(inventory(write("bad.txt", head + "a L\n  b   L  extra \n"))) << head;
    const Diagnostic &d = diags_.diagnostics().back();
    EXPECT_EQ(d.code, "err_inventory_malformed") << head;
    EXPECT_EQ(d.range.begin.line, 3u) << head;
    EXPECT_EQ(d.range.begin.col, 10u) << head;
    EXPECT_EQ(d.range.end.col, 15u) << head;
  }
}

TEST_F(ReadersTest, ManifestCsvWithHeaderAndQuotes) {
  std::string p = write("m.csv", "\xEF\xBB\xBFname,type\nx.fc,Linear\n\"y.norm\", RMSNorm\nz,\n");
  ASSERT_TRUE(inventory(p));
  EXPECT_EQ(inv_.format, "manifest-csv");
  EXPECT_EQ(names(), (std::vector<std::string>{"x.fc:Linear", "y.norm:RMSNorm", "z:"}));
}

TEST_F(ReadersTest, ManifestJsonArray) {
  std::string p =
      write("m.json",
            R"([{"name":"b","type":"Linear"},{"name":"a","type":null},{"name":"c","extra":1}])");
  ASSERT_TRUE(inventory(p));
  EXPECT_EQ(inv_.format, "manifest-json");
  EXPECT_EQ(names(), (std::vector<std::string>{"b:Linear", "a:", "c:"}));
}

TEST_F(ReadersTest, ManifestErrors) {
  EXPECT_FALSE(inventory(write("three.txt", "a Linear\nb Linear extra\n")));
  ASSERT_NE(first("err_inventory_malformed"), nullptr);
  EXPECT_EQ(first("err_inventory_malformed")->range.begin.line, 2u);
  EXPECT_EQ(first("err_inventory_malformed")->range.begin.col, 10u);

  EXPECT_FALSE(inventory(write("dup.txt", "a Linear\nb Linear\na Conv2d\n")));
  const Diagnostic *d = first("err_inventory_duplicate");
  ASSERT_NE(d, nullptr);
  EXPECT_EQ(d->range.begin.line, 3u);
  ASSERT_EQ(d->notes.size(), 1u);
  EXPECT_EQ(d->notes[0].range.begin.line, 1u);

  EXPECT_FALSE(inventory(write("empty.txt", "# nothing\n\n")));
  EXPECT_EQ(count("err_inventory_empty"), 1u);

  EXPECT_FALSE(inventory(write("ctl.txt", "a\x01q Linear\n")));
  EXPECT_EQ(count("err_inventory_malformed"), 2u);

  EXPECT_FALSE(inventory(write("badjson.json", R"([{"name": 3}])")));
  EXPECT_EQ(count("err_inventory_malformed"), 3u);
}

// Names are indexed in batches (InventoryBuilder::finish), yet the first error is still the first
// in file order: a duplicate before a malformed line or the module limit wins, and the modules
// before it are kept and indexed.
TEST_F(ReadersTest, DuplicateComesBeforeLaterErrors) {
  EXPECT_FALSE(inventory(write("dup-then-bad.txt", "a L\nb L\nc L\n  b L\nx y z\n")));
  ASSERT_EQ(firstError(), "err_inventory_duplicate");
  EXPECT_EQ(count("err_inventory_malformed"), 0u);
  const Diagnostic *d = first("err_inventory_duplicate");
  EXPECT_EQ(d->range.begin.line, 4u);
  EXPECT_EQ(d->range.begin.col, 3u);
  ASSERT_EQ(d->notes.size(), 1u);
  EXPECT_EQ(d->notes[0].range.begin.line, 2u);
  EXPECT_EQ(names(), (std::vector<std::string>{"a:L", "b:L", "c:L"}));
  EXPECT_EQ(inv_.index.size(), 3u);
  EXPECT_EQ(inv_.index.at("c"), 2u);

  readers::ReaderLimits lim;
  lim.maxModules = 3;
  EXPECT_FALSE(inventory(write("dup-at-limit.txt", "a\nb\nc\nb\n"), lim));
  EXPECT_EQ(count("err_inventory_duplicate"), 2u);
  EXPECT_EQ(count("err_inventory_too_many"), 0u);
  EXPECT_FALSE(inventory(write("dup-before-limit.txt", "a\na\nb\nc\nd\n"), lim));
  EXPECT_EQ(count("err_inventory_duplicate"), 3u);
  EXPECT_EQ(count("err_inventory_too_many"), 0u);

  EXPECT_FALSE(inventory(
      write("dup-then-bad.json", R"([{"name":"a"},{"name":"b"},{"name":"a"},{"name":3}])")));
  EXPECT_EQ(count("err_inventory_duplicate"), 4u);
  EXPECT_EQ(count("err_inventory_malformed"), 0u);
  EXPECT_EQ(names(), (std::vector<std::string>{"a:", "b:"}));
}

TEST_F(ReadersTest, LargeManifestIndexMatchesModules) {
  // Enough names for a multi-pass bucket sort in InventoryBuilder::finish.
  std::string text;
  for (int i = 0; i < 20000; ++i)
    text +=
        "model.layers." + std::to_string(i / 100) + ".m" + std::to_string(i % 100) + " Linear\n";
  ASSERT_TRUE(inventory(write("large.txt", text)));
  ASSERT_EQ(inv_.modules.size(), 20000u);
  ASSERT_EQ(inv_.index.size(), 20000u);
  for (uint32_t i = 0; i < inv_.modules.size(); ++i) {
    ASSERT_EQ(inv_.index.at(inv_.modules[i].name), i);
    ASSERT_EQ(inv_.modules[i].line, i + 1);
  }
  std::string err;
  auto pat = Pattern::compile("model.layers.{i}", err);
  ASSERT_TRUE(pat);
  readers::assignBlocks(inv_, *pat);
  for (uint32_t i = 0; i < inv_.modules.size(); ++i)
    ASSERT_EQ(inv_.modules[i].block, static_cast<int32_t>(i / 100));
}

TEST_F(ReadersTest, ManifestLimitAndUnreadable) {
  readers::ReaderLimits lim;
  lim.maxModules = 2;
  EXPECT_FALSE(inventory(write("many.txt", "a\nb\nc\n"), lim));
  EXPECT_EQ(firstError(), "err_inventory_too_many");
  EXPECT_FALSE(inventory((dir_ / "absent.txt").string()));
  EXPECT_EQ(count("err_cannot_open_file"), 1u);
  EXPECT_FALSE(inventory(dir_.string()));
  EXPECT_EQ(count("err_cannot_open_file"), 2u);
  EXPECT_FALSE(inventory(write("bin.dat", std::string("\x01\x02\x00\x03zzzz", 8))));
  EXPECT_EQ(count("err_inventory_unknown_format"), 1u);
}

// ---- Hugging Face index --------------------------------------------------------------------

TEST_F(ReadersTest, IndexModulesAndTypesFromNames) {
  std::string p = write("model.safetensors.index.json", R"({
  "metadata": {"total_size": 10},
  "weight_map": {
    "lm_head.weight": "s1",
    "model.embed_tokens.weight": "s1",
    "model.layers.0.input_layernorm.weight": "s1",
    "model.layers.0.mlp.experts.3.w2.weight": "s1",
    "model.layers.0.mlp.gate_up_proj.weight": "s1",
    "model.layers.0.self_attn.o_proj.bias": "s1",
    "model.layers.0.self_attn.o_proj.weight_scale": "s1",
    "model.layers.0.self_attn.o_proj.weight": "s2",
    "model.norm.weight": "s2",
    "wte.weight": "s2"
  }
})");
  ASSERT_TRUE(inventory(p));
  EXPECT_EQ(inv_.format, "safetensors-index");
  EXPECT_EQ(names(), (std::vector<std::string>{"lm_head:Linear", "model.embed_tokens:Embedding",
                                               "model.layers.0.input_layernorm:RMSNorm",
                                               "model.layers.0.mlp.experts.3.w2:Linear",
                                               "model.layers.0.mlp.gate_up_proj:Linear",
                                               "model.layers.0.self_attn.o_proj:Linear",
                                               "model.norm:RMSNorm", "wte:Embedding"}));
  EXPECT_EQ(inv_.modules[0].line, 4u);
  EXPECT_EQ(inv_.modules[5].line, 11u);
}

TEST_F(ReadersTest, IndexErrors) {
  EXPECT_FALSE(inventory(write("a.index.json", "{\"weight_map\": {\"x.weight\": \"s\",}}")));
  const Diagnostic *d = first("err_inventory_malformed");
  ASSERT_NE(d, nullptr);
  EXPECT_EQ(d->range.begin.line, 1u);
  EXPECT_EQ(d->range.begin.col, 33u); // the '}' after the trailing comma

  EXPECT_FALSE(inventory(
      write("b.index.json", "{\"weight_map\": {\"x.weight\": \"s\",\n \"x.weight\": \"t\"}}")));
  EXPECT_EQ(count("err_inventory_malformed"), 2u);
  EXPECT_EQ(diags_.diagnostics().back().range.begin.line, 2u);
  EXPECT_EQ(diags_.diagnostics().back().range.begin.col, 2u);
  EXPECT_NE(diags_.diagnostics().back().message.find("appears twice"), std::string::npos);

  EXPECT_FALSE(inventory(write("c.index.json", "{\"metadata\": {}}")));
  EXPECT_EQ(count("err_inventory_malformed"), 3u);
  EXPECT_FALSE(inventory(write("d.index.json", "{\"weight_map\": {\"x.bias\": \"s\"}}")));
  EXPECT_EQ(count("err_inventory_empty"), 1u);
  EXPECT_FALSE(inventory(write("e.index.json", "{\"weight_map\": {\"x.weight\": 3}}")));
  EXPECT_EQ(count("err_inventory_malformed"), 4u);
}

TEST_F(ReadersTest, TypeFromName) {
  EXPECT_EQ(readers::moduleTypeFromName("model.embed_tokens"), "Embedding");
  EXPECT_EQ(readers::moduleTypeFromName("transformer.wte"), "Embedding");
  EXPECT_EQ(readers::moduleTypeFromName("model.layers.1.post_attention_layernorm"), "RMSNorm");
  EXPECT_EQ(readers::moduleTypeFromName("model.layers.1.self_attn.q_norm"), "RMSNorm");
  EXPECT_EQ(readers::moduleTypeFromName("transformer.ln_f"), "RMSNorm");
  EXPECT_EQ(readers::moduleTypeFromName("model.layers.1.mlp.gate"), "Linear");
  EXPECT_EQ(readers::moduleTypeFromName("lm_head"), "Linear");
  EXPECT_EQ(readers::moduleTypeFromName("model.normalizer_proj"), "Linear");
  // Digits are dropped for the norm and Linear rules; what no rule names has no type.
  EXPECT_EQ(readers::moduleTypeFromName("encoder.layers.0.layer_norm1"), "RMSNorm");
  EXPECT_EQ(readers::moduleTypeFromName("h.0.ln_2"), "RMSNorm");
  EXPECT_EQ(readers::moduleTypeFromName("layers.0.feed_forward.w3"), "Linear");
  EXPECT_EQ(readers::moduleTypeFromName("visual.merger.linear_fc1"), "Linear");
  EXPECT_EQ(readers::moduleTypeFromName("embeddings.position_embedding"), "Embedding");
  EXPECT_EQ(readers::moduleTypeFromName("embeddings.patch_embedding"), "");
  EXPECT_EQ(readers::moduleTypeFromName("h.0.attn.c_attn"), "");
  EXPECT_EQ(readers::moduleTypeFromName("h.0.mlp.c_proj"), "");
}

TEST_F(ReadersTest, ModelConfigParts) {
  ir::ModelConfig c;
  ASSERT_TRUE(readers::readModelConfig(
      write("config.json", R"({"architectures": ["Gemma3ForConditionalGeneration"],
        "model_type": "gemma3",
        "text_config": {"model_type": "gemma3_text", "rms_norm_eps": 1e-6,
                        "tie_word_embeddings": false},
        "vision_config": {"model_type": "siglip_vision_model", "layer_norm_eps": 1e-6},
        "quantization_config": {"bits": 4}})"),
      c, diags_));
  EXPECT_TRUE(c.present());
  ASSERT_EQ(c.architectures.size(), 1u);
  EXPECT_EQ(c.architectures[0], "Gemma3ForConditionalGeneration");
  ASSERT_EQ(c.parts.size(), 3u); // the top level, text, vision; no model type or norm: left out
  EXPECT_EQ(c.parts[0].modelType, "gemma3");
  EXPECT_EQ(c.parts[0].norm, "");
  EXPECT_EQ(c.parts[1].key, "text_config");
  EXPECT_EQ(c.parts[1].norm, "RMSNorm");
  EXPECT_EQ(c.parts[2].norm, "LayerNorm");
  EXPECT_EQ(c.tieWordEmbeddings, std::optional<bool>(false)); // from text_config
  // The top level's answer wins over text_config's; absent in both: not stated.
  ASSERT_TRUE(readers::readModelConfig(
      write("c2.json", R"({"tie_word_embeddings": true, "text_config": {"tie_word_embeddings":
      false}})"),
      c, diags_));
  EXPECT_EQ(c.tieWordEmbeddings, std::optional<bool>(true));
  ASSERT_TRUE(readers::readModelConfig(write("c3.json", "{}"), c, diags_));
  EXPECT_FALSE(c.tieWordEmbeddings);
}

TEST_F(ReadersTest, ModelConfigMalformed) {
  ir::ModelConfig c;
  unsigned errors = 0;
  for (const char *bad : {"[1, 2]", "{\"architectures\": \"GPT2\"}", "{\"architectures\": [1]}",
                          "{\"model_type\": 3}", "{\"tie_word_embeddings\": \"yes\"}",
                          "{\"a\": 1, \"a\": 2}", "{\"a\": }", "\xff"}) {
    EXPECT_FALSE(readers::readModelConfig(write("bad.json", bad), c, diags_)) << bad;
    EXPECT_EQ(count("err_model_config_malformed"), ++errors) << bad;
    EXPECT_FALSE(c.present());
  }
  EXPECT_FALSE(readers::readModelConfig((dir_ / "absent.json").string(), c, diags_));
  EXPECT_EQ(count("err_cannot_open_file"), 1u);
  readers::ReaderLimits small;
  small.maxConfigBytes = 8;
  EXPECT_FALSE(readers::readModelConfig(write("big.json", "{\"model_type\": \"llama\"}"), c, diags_,
                                        {}, small));
  EXPECT_EQ(count("err_cannot_open_file"), 2u);
}

TEST_F(ReadersTest, TypesFromConfig) {
  ASSERT_TRUE(inventory(write("model.safetensors.index.json", R"({"weight_map": {
    "h.0.attn.c_attn.weight": "s", "h.0.ln_1.weight": "s", "vision_model.post_layernorm.weight": "s",
    "model.layers.0.block_sparse_moe.input_linear.weight": "s", "conv.weight": "s"}})")));
  EXPECT_EQ(readers::configBesideInventory(inv_), "");
  ir::ModelConfig c;
  ASSERT_TRUE(readers::readModelConfig(
      write("config.json", R"({"model_type": "gpt2", "layer_norm_epsilon": 1e-5,
        "vision_config": {"layer_norm_eps": 1e-6, "model_type": "granitemoe"}})"),
      c, diags_));
  EXPECT_EQ(readers::configBesideInventory(inv_), (dir_ / "config.json").string());
  readers::typeModules(inv_, c, diags_, {});
  EXPECT_EQ(inv_.modules[0].type, "Conv1D");
  EXPECT_EQ(inv_.modules[1].type, "LayerNorm");
  EXPECT_EQ(inv_.modules[2].type, "LayerNorm");
  EXPECT_EQ(inv_.modules[3].type, ""); // granitemoe is the vision part's type, not this module's
  EXPECT_EQ(inv_.modules[4].type, "");
  EXPECT_EQ(count("warn_inventory_type_unknown"), 1u);
  // A manifest says the type or leaves it out on purpose: no warning.
  ASSERT_TRUE(inventory(write("m.txt", "conv\n")));
  readers::typeModules(inv_, c, diags_, {});
  EXPECT_EQ(count("warn_inventory_type_unknown"), 1u);
}

// ---- .safetensors header -------------------------------------------------------------------

TEST_F(ReadersTest, SafetensorsHeaderOnlyTypesFromShapes) {
  std::string h =
      R"({"__metadata__":{"format":"pt"},)"
      R"("conv.weight":{"dtype":"F16","shape":[8,3,3,3],"data_offsets":[0,432]},)"
      R"("conv.bias":{"dtype":"F16","shape":[8],"data_offsets":[432,448]},)"
      R"("tok.embed_tokens.weight":{"dtype":"BF16","shape":[100,8],"data_offsets":[448,2048]},)"
      R"("c1.weight":{"dtype":"F32","shape":[4,4,3],"data_offsets":[0,0]},)"
      R"("fc.weight":{"dtype":"F32","shape":[4,8],"data_offsets":[0,0]},)"
      R"("ln.weight":{"dtype":"F32","shape":[8],"data_offsets":[0,0]}}    )";
  // The data is not there at all: only the header is ever read.
  ASSERT_TRUE(inventory(safetensors("m.safetensors", h, h.size())));
  EXPECT_EQ(inv_.format, "safetensors");
  EXPECT_EQ(names(), (std::vector<std::string>{"conv:Conv2d", "tok.embed_tokens:Embedding",
                                               "c1:Conv1d", "fc:Linear", "ln:RMSNorm"}));
  // Without the suffix the content gives it away.
  ASSERT_TRUE(inventory(safetensors("model.bin", h, h.size(), 16)));
  EXPECT_EQ(inv_.format, "safetensors");
}

TEST_F(ReadersTest, SafetensorsLengthChecks) {
  auto reason = [&]() { return diags_.diagnostics().back().message; };
  std::string h = R"({"a.weight":{"dtype":"F16","shape":[2,2],"data_offsets":[0,8]}})";
  EXPECT_FALSE(inventory(safetensors("lying.safetensors", h, 4096, 8)));
  EXPECT_NE(reason().find("larger than the rest of the file"), std::string::npos) << reason();
  EXPECT_FALSE(inventory(safetensors("absurd.safetensors", h, uint64_t(1) << 63)));
  EXPECT_NE(reason().find("over the limit"), std::string::npos) << reason();
  EXPECT_FALSE(inventory(safetensors("zero.safetensors", h, 0)));
  EXPECT_NE(reason().find("is 0"), std::string::npos) << reason();
  EXPECT_FALSE(inventory(write("short.safetensors", "abc")));
  EXPECT_NE(reason().find("too short"), std::string::npos) << reason();
  readers::ReaderLimits lim;
  lim.maxSafetensorsHeader = 16;
  EXPECT_FALSE(inventory(safetensors("limit.safetensors", h, h.size()), lim));
  EXPECT_NE(reason().find("over the limit of 16"), std::string::npos) << reason();
  EXPECT_EQ(count("err_safetensors_header"), 5u);
}

TEST_F(ReadersTest, SafetensorsBadHeaderJson) {
  std::string cut = R"({"a.weight":{"dtype":"F16","shape":[2,2]},"b.wei)";
  EXPECT_FALSE(inventory(safetensors("cut.safetensors", cut, cut.size())));
  EXPECT_EQ(firstError(), "err_safetensors_header");
  EXPECT_EQ(diags_.diagnostics().back().range.begin.line, 1u);
  std::string arr = "[1,2]";
  EXPECT_FALSE(inventory(safetensors("arr.safetensors", arr, arr.size())));
  std::string shape = R"({"a.weight":{"dtype":"F16","shape":"2x2"}})";
  EXPECT_FALSE(inventory(safetensors("shape.safetensors", shape, shape.size())));
  EXPECT_EQ(diags_.diagnostics().back().range.begin.col, 2u);
  std::string meta = R"({"__metadata__":{}})";
  EXPECT_FALSE(inventory(safetensors("meta.safetensors", meta, meta.size())));
  std::string offsets = R"({"a.weight":{"dtype":"F16","shape":[2,2],"data_offsets":[8,0]}})";
  EXPECT_FALSE(inventory(safetensors("offsets.safetensors", offsets, offsets.size())));
  EXPECT_NE(diags_.diagnostics().back().message.find("data_offsets"), std::string::npos);
  EXPECT_EQ(count("err_safetensors_header"), 4u);
  EXPECT_EQ(count("err_inventory_empty"), 1u);
}

// ---- ONNX ----------------------------------------------------------------------------------

TEST_F(ReadersTest, OnnxNodesInOrderUnnamedGetIndex) {
  std::string p = write(
      "m.onnx", model({node("/conv1/Conv", "Conv"), node("", "Relu"), node("/fc/Gemm", "Gemm")}));
  ASSERT_TRUE(inventory(p)) << (diags_.diagnostics().empty() ? ""
                                                             : diags_.diagnostics().back().message);
  EXPECT_EQ(inv_.format, "onnx");
  EXPECT_EQ(names(),
            (std::vector<std::string>{"/conv1/Conv:Conv", "Relu_1:Relu", "/fc/Gemm:Gemm"}));
}

TEST_F(ReadersTest, OnnxErrors) {
  EXPECT_FALSE(inventory(write("text.onnx", "hello, this is not protobuf\n")));
  EXPECT_EQ(firstError(), "err_onnx_malformed");
  EXPECT_FALSE(inventory(write("empty.onnx", "")));
  EXPECT_FALSE(inventory(write("nograph.onnx", model({}, false))));
  EXPECT_FALSE(inventory(write("noop.onnx", model({node("n", "")}))));
  EXPECT_EQ(count("err_onnx_malformed"), 4u);
  EXPECT_FALSE(inventory(write("dup.onnx", model({node("a", "Relu"), node("a", "Relu")}))));
  EXPECT_EQ(count("err_inventory_duplicate"), 1u);
  EXPECT_FALSE(inventory(write("nonodes.onnx", model({}))));
  EXPECT_EQ(count("err_inventory_empty"), 1u);
  readers::ReaderLimits lim;
  lim.maxOnnxBytes = 8;
  EXPECT_FALSE(inventory(write("big.onnx", model({node("a", "Relu")})), lim));
  EXPECT_EQ(count("err_onnx_malformed"), 5u);
}

// ---- assignBlocks --------------------------------------------------------------------------

TEST_F(ReadersTest, AssignBlocks) {
  ASSERT_TRUE(inventory(write(
      "m.txt", "model.layers.12.mlp.up_proj Linear\nmodel.norm RMSNorm\nmodel.layers.3 X\n")));
  std::string err;
  auto pat = Pattern::compile("model.layers.{i}", err);
  ASSERT_TRUE(pat);
  readers::assignBlocks(inv_, *pat);
  EXPECT_EQ(inv_.modules[0].block, 12);
  EXPECT_EQ(inv_.modules[1].block, -1);
  EXPECT_EQ(inv_.modules[2].block, -1); // the block itself has no dotted suffix

  // Consecutive modules of one block reuse its prefix; a longer number is another block.
  ASSERT_TRUE(
      inventory(write("m2.txt", "model.layers.1.a X\nmodel.layers.1.b X\nmodel.layers.12.c X\n"
                                "model.layers.1 X\nmodel.layers.1.d.e X\nmodel.layers.1x.f X\n"
                                "model.layers.3.g X\n")));
  readers::assignBlocks(inv_, *pat);
  std::vector<int32_t> blocks;
  for (const ir::Module &m : inv_.modules)
    blocks.push_back(m.block);
  EXPECT_EQ(blocks, (std::vector<int32_t>{1, 1, 12, -1, 1, -1, 3}));
}

// ---- scores --------------------------------------------------------------------------------

TEST_F(ReadersTest, AnalyzeLogRowsBehindLoggerPrefix) {
  std::string p =
      write("analyze.log",
            "2025-01-01 00:00:00,000 - msmodelslim-logger - INFO - === Layer Analysis Results "
            "(mse_model_wise method) ===\n"
            "2025-01-01 00:00:00,001 - msmodelslim-logger - INFO -   1. model.layers.2             "
            "                        | Score:   2.4396e+03\n"
            "  2. model.layers.0.mlp.down_proj                       | Score:   1.5000e+00\n"
            "  3. model.layers.7.*                                   | Score:   1.5000e+00\n"
            "top 3:\n  - 'model.layers.2.*'\n");
  ASSERT_TRUE(scores(p));
  EXPECT_EQ(sc_.format, "msmodelslim-log");
  EXPECT_EQ(sc_.metric, "mse_model_wise");
  EXPECT_TRUE(sc_.higherIsMoreSensitive);
  ASSERT_EQ(sc_.entries.size(), 3u);
  EXPECT_EQ(sc_.entries[0].name, "model.layers.2");
  EXPECT_DOUBLE_EQ(sc_.entries[0].score, 2439.6);
  EXPECT_EQ(sc_.entries[0].line, 2u);
  EXPECT_EQ(sc_.entries[2].name, "model.layers.7");
  EXPECT_EQ(sc_.entries[1].score, sc_.entries[2].score);
}

TEST_F(ReadersTest, AnalyzeTopListIsRankBased) {
  std::string p = write(
      "top.yaml", "top 3:\n  - 'model.layers.9.*'\n  - \"model.layers.1.*\"\n  - model.layers.4\n");
  ASSERT_TRUE(scores(p));
  EXPECT_EQ(sc_.format, "msmodelslim-top");
  ASSERT_EQ(sc_.entries.size(), 3u);
  EXPECT_EQ(sc_.entries[0].name, "model.layers.9");
  EXPECT_EQ(sc_.entries[2].name, "model.layers.4");
  EXPECT_GT(sc_.entries[0].score, sc_.entries[1].score);
  EXPECT_GT(sc_.entries[1].score, sc_.entries[2].score);
  EXPECT_EQ(sc_.entries[1].line, 3u);
}

TEST_F(ReadersTest, AnalyzeLogErrors) {
  std::string p = write("bad.log", "  1. a | Score: 1.0\n  2. b | Score: x\n  c | Score: 2.0\n  4. "
                                   "d Score: 3\n  5. e | Score: nan\n  6. a | Score: 1\n");
  EXPECT_FALSE(scores(p));
  EXPECT_EQ(count("err_scores_malformed"), 3u); // lines 2, 3, 4: every malformed line
  EXPECT_EQ(count("err_scores_not_finite"), 1u);
  EXPECT_EQ(count("err_scores_duplicate"), 1u);
  EXPECT_EQ(first("err_scores_not_finite")->range.begin.line, 5u);
  EXPECT_EQ(first("err_scores_duplicate")->range.begin.line, 6u);
  EXPECT_EQ(first("err_scores_duplicate")->notes.at(0).range.begin.line, 1u);
}

TEST_F(ReadersTest, AnalysisYaml) {
  std::string p = write(
      "analysis_result.yaml",
      "layer_scores:\n  - {name: model.layers.0, score: 12.5}\n"
      "  - name: model.layers.1.mlp.*\n    score: 3\nmethod: mse_layer_wise\npatterns: ['*']\n");
  ASSERT_TRUE(scores(p));
  EXPECT_EQ(sc_.format, "analysis-yaml");
  EXPECT_EQ(sc_.metric, "mse_layer_wise");
  ASSERT_EQ(sc_.entries.size(), 2u);
  EXPECT_EQ(sc_.entries[1].name, "model.layers.1.mlp");
  EXPECT_EQ(sc_.entries[1].line, 3u);

  EXPECT_FALSE(scores(write("nan.yaml", "layer_scores:\n  - {name: a, score: .nan}\n")));
  EXPECT_EQ(count("err_scores_not_finite"), 1u);
  EXPECT_FALSE(
      scores(write("bad.yaml", "layer_scores:\n  - {name: a, score: [1]}\n  - {name: b}\n")));
  EXPECT_EQ(count("err_scores_malformed"), 2u);
  EXPECT_FALSE(scores(write("syntax.yaml", "layer_scores:\n  - {name: a, score: 1\n")));
  EXPECT_EQ(count("err_scores_malformed"), 3u);
  EXPECT_FALSE(scores(write("notlist.yaml", "layer_scores: 3\n")));
  EXPECT_EQ(count("err_scores_malformed"), 4u);
}

// analysis_result.yaml is read from libyaml's events when it has the common shape, else by the
// yaml-cpp tree reader: both give the same scores and the same diagnostics on every file.
TEST_F(ReadersTest, AnalysisYamlStreamedEqualsTreeReader) {
  const char *const docs[] = {
      "method: std\nlayer_scores:\n- name: a.b\n  score: 1.5e-3\n- name: 'c.*'\n  score: \"-2\"\n",
      "layer_scores:\n  - {name: model.layers.0, score: 12.5, extra: [1, {x: 2}]}\nmethod: "
      "m\npatterns: ['*']\n",
      "\xEF\xBB\xBFlayer_scores: [{name: x, score: 1}, {name: y, score: +.inf}]\n",
      "layer_scores:\n  - {name: a, score: .nan}\n",
      "layer_scores:\n  - {name: a, score: 1}\n  - {name: a, score: 2}\n",
      "layer_scores:\n  - {name: a.*, score: 1}\n  - {name: a, score: 2}\n",
      "layer_scores:\n  - {name: a, score: [1]}\n  - {name: b}\n",
      "layer_scores:\n  - {name: a, score: 1\n",
      "layer_scores: 3\n",
      "layer_scores: []\n",
      "layer_scores:\n  - {name: '', score: 1}\n",
      "layer_scores:\n  - {name: ~, score: 1}\n",
      "layer_scores:\n  - {name: a, score: abc}\n",
      "layer_scores:\n  - &x {name: a, score: 1}\n  - *x\n",
      "layer_scores:\n  - {name: a, score: 1, name: b}\n",
      "layer_scores:\n  - {name: a, score: 1}\nlayer_scores:\n  - {name: b, score: 1}\n",
      "method: ~\nlayer_scores:\n  - {name: a, score: 1}\n",
      "method: |\n  block\nlayer_scores:\n  - {name: a, score: 1}\n",
      "layer_scores:\n  - name: >\n      folded\n    score: 2\n",
      "layer_scores:\n  - {name: !!str 7, score: !!float 1}\n",
      "layer_scores:\n  - 5\n",
      "layer_scores:\n  - {name: a, score: 1}\n---\nother: 1\n",
      "- layer_scores\n",
      "\"layer_scores\": [{\"name\": \"q\", \"score\": 0.25}]\n",
      // The plain layout (read line by line) and its near misses (read from events or the tree).
      "method: std\nlayer_scores:\n- name: m.l.0.mlp.*\n  score: 1.5e-03\n- score: -2\n  name: "
      "/b/Conv_1\n",
      "layer_scores:\n  - name: a\n    score: 1\n\n  - name: b\n    score: 2\nmethod: kurtosis\n",
      "layer_scores:\n- name: a\n  score: 1\n- name: a\n  score: 2\n",
      "layer_scores:\n- name: a.*\n  score: 1\n- name: a\n  score: 2\n",
      "layer_scores:\n- name: a\n  score: 1\n  rank: 3\n",
      "layer_scores:\n- name: a\n  score: 1 # c\n",
      "layer_scores:\n- name: null\n  score: 1\n",
      "layer_scores:\n- name: a\n  score: 1e400\n",
      "layer_scores:\n- name: a\n  score: 0x1F\n",
      "layer_scores:\n- name: a\n  score: 1\n- name: b\n",
      "layer_scores:\n- name: a\n  score: 1\n   \n- name: b\n  score: 2\n",
      "layer_scores:\n- name: a\n  score: 1\nlayer_scores:\n- name: b\n  score: 2\n",
      "method: std\nmethod: x\nlayer_scores:\n- name: a\n  score: 1\n",
      "layer_scores:\n- name: a\r\n  score: 1\r\n- name: b\r\n  score: 2\r\n",
      "layer_scores:\n- name: a\n  score: 1\n---\n",
      "layer_scores:\n- name:  spaced\n  score:   3\n",
  };
  auto describe = [&](const std::string &path, bool stream) {
    SourceManager sm;
    DiagnosticEngine diags(sm);
    ir::Scores out;
    readers::ReaderLimits limits;
    limits.streamAnalysisYaml = stream;
    bool ok = readers::readScores(path, out, diags, {}, limits);
    std::string d = std::string(ok ? "ok " : "failed ") + out.format + " " + out.metric + " " +
                    (out.higherIsMoreSensitive ? "higher" : "lower") + "\n";
    for (const ir::ScoreEntry &e : out.entries)
      d += e.name + " " + std::to_string(e.score) + " line " + std::to_string(e.line) + "\n";
    for (const Diagnostic &g : diags.diagnostics()) {
      d += g.code + " " + std::to_string(g.range.begin.line) + ":" +
           std::to_string(g.range.begin.col) + " " + g.message + "\n";
      for (const Diagnostic &n : g.notes)
        d += "  " + n.code + " " + std::to_string(n.range.begin.line) + ":" +
             std::to_string(n.range.begin.col) + "\n";
    }
    return d;
  };
  size_t good = 0, i = 0;
  for (const char *doc : docs) {
    std::string path = write("doc" + std::to_string(i++) + ".yaml", doc);
    std::string streamed = describe(path, true), tree = describe(path, false);
    EXPECT_EQ(streamed, tree) << doc;
    good += streamed.rfind("ok ", 0) == 0;
  }
  EXPECT_GE(good, 5u);
}

TEST_F(ReadersTest, HmctJsonMetricAndDirection) {
  std::string p =
      write("s.json", "{\n \"/b/Conv\": {\"cosine-similarity\": \"0.98\", \"mse\": \"0.1\"},\n"
                      " \"/a/Conv\": {\"cosine-similarity\": 0.999}\n}\n");
  ASSERT_TRUE(scores(p));
  EXPECT_EQ(sc_.format, "hmct-json");
  EXPECT_EQ(sc_.metric, "cosine-similarity");
  EXPECT_FALSE(sc_.higherIsMoreSensitive);
  ASSERT_EQ(sc_.entries.size(), 2u);
  EXPECT_EQ(sc_.entries[0].name, "/b/Conv");
  EXPECT_DOUBLE_EQ(sc_.entries[0].score, 0.98);
  EXPECT_EQ(sc_.entries[1].line, 3u);

  ASSERT_TRUE(scores(write("mse.json", R"({"n": {"mse": "0.5"}})")));
  EXPECT_TRUE(sc_.higherIsMoreSensitive);

  EXPECT_FALSE(scores(write("nan.json", R"({"n": {"sqnr": "nan"}})")));
  EXPECT_EQ(count("err_scores_not_finite"), 1u);
  EXPECT_FALSE(scores(write("dup.json", "{\"n\": {\"mse\": 1},\n\"n\": {\"mse\": 2}}")));
  ASSERT_EQ(count("err_scores_duplicate"), 1u); // a node listed twice, as in every format
  EXPECT_EQ(first("err_scores_duplicate")->range.begin.line, 2u);
  EXPECT_EQ(first("err_scores_duplicate")->notes.at(0).range.begin.line, 1u);
  EXPECT_FALSE(scores(write("flat.json", R"({"n": 0.5})")));
  EXPECT_EQ(count("err_scores_malformed"), 1u);
  EXPECT_FALSE(scores(write("deep.json", R"({"n": {"mse": 1, "mse": 2}})")));
  EXPECT_EQ(count("err_scores_malformed"), 2u);
}

TEST_F(ReadersTest, HmctLogTable) {
  std::string p = write("node_sensitivity.log", "=====node sensitivity=====\n"
                                                "Node      sqnr     mse\n"
                                                "--------------------------\n"
                                                "conv_a    12.5     0.1\n"
                                                "...ery_long_node_name_tail   30.25   0.01\n");
  ASSERT_TRUE(scores(p));
  EXPECT_EQ(sc_.format, "hmct-log");
  EXPECT_EQ(sc_.metric, "sqnr");
  EXPECT_FALSE(sc_.higherIsMoreSensitive);
  ASSERT_EQ(sc_.entries.size(), 2u);
  EXPECT_EQ(sc_.entries[1].name, "...ery_long_node_name_tail");
  EXPECT_EQ(count("warn_scores_truncated_name"), 1u);

  EXPECT_FALSE(scores(write("bad.log", "Node  mse\n-----\nx 0.1 0.2\ny\n")));
  EXPECT_EQ(count("err_scores_malformed"), 2u);
}

TEST_F(ReadersTest, HorizonTable) {
  std::string p = write("sens.txt", "op_name  sensitive_type  op_type  ATOL  dtype\n"
                                    "-------  --------------  -------  ----  -----\n"
                                    "m.fc     activation      Linear   2.5   qint8\n"
                                    "m.conv   weight          Conv2d   1.5\n"
                                    "m.fc     weight          Linear   0.5   qint8   10(2%)\n");
  ASSERT_TRUE(scores(p));
  EXPECT_EQ(sc_.format, "horizon-table");
  EXPECT_EQ(sc_.metric, "ATOL");
  EXPECT_TRUE(sc_.higherIsMoreSensitive);
  ASSERT_EQ(sc_.entries.size(), 2u); // m.fc's weight row: same op, other kind, first row counts
  EXPECT_EQ(sc_.entries[1].name, "m.conv");

  EXPECT_FALSE(scores(write("dup.txt", "a activation Conv2d 1.0\na activation Conv2d 2.0\n")));
  EXPECT_EQ(count("err_scores_duplicate"), 1u);
  EXPECT_FALSE(scores(write("cols.txt", "a activation Conv2d 1.0\nb activation\n")));
  EXPECT_EQ(count("err_scores_malformed"), 1u);
}

TEST_F(ReadersTest, ScoresUnknownAndLimits) {
  EXPECT_FALSE(scores(write("prose.txt", "layers 0 and 1 are sensitive\n")));
  EXPECT_FALSE(scores(write("empty.txt", "")));
  EXPECT_FALSE(scores(write("array.json", "[1, 2]\n")));
  EXPECT_EQ(count("err_scores_unknown_format"), 3u); // a JSON array is no scores format
  EXPECT_EQ(count("err_scores_malformed"), 0u);
  EXPECT_FALSE(scores((dir_ / "absent.log").string()));
  EXPECT_EQ(count("err_cannot_open_file"), 1u);
  readers::ReaderLimits lim;
  lim.maxScores = 1;
  EXPECT_FALSE(scores(write("two.log", "  1. a | Score: 1\n  2. b | Score: 2\n"), lim));
  EXPECT_EQ(count("err_scores_too_many"), 1u);
}

TEST_F(ReadersTest, ExampleInputsRead) {
  const std::string root = QSPEC_SOURCE_DIR "/examples/";
  ASSERT_TRUE(inventory(root + "qwen3-32b/model.safetensors.index.json"));
  EXPECT_EQ(inv_.modules.size(), 64u * 11 + 3);
  ASSERT_TRUE(inventory(root + "qwen3-30b-a3b/modules.txt"));
  EXPECT_EQ(inv_.modules.size(), 48u * (9 + 128 * 3) + 3);
  ASSERT_TRUE(inventory(root + "resnet50/resnet50.onnx"));
  EXPECT_EQ(inv_.modules.front().name, "/conv1/Conv");
  EXPECT_EQ(inv_.modules.back().name, "/fc/Gemm");
  ASSERT_TRUE(scores(root + "qwen3-30b-a3b/analyze.log"));
  ir::Scores log = sc_;
  ASSERT_TRUE(scores(root + "qwen3-30b-a3b/analysis_result.yaml"));
  ASSERT_EQ(log.entries.size(), sc_.entries.size());
  for (size_t i = 0; i < log.entries.size(); ++i) {
    EXPECT_EQ(log.entries[i].name, sc_.entries[i].name);
    EXPECT_DOUBLE_EQ(log.entries[i].score, sc_.entries[i].score);
  }
  EXPECT_TRUE(diags_.diagnostics().empty());
}

} // namespace
