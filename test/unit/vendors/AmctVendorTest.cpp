// The AMCT vendor model: AMCT's precedence over a document (applyDocument), checked by hand and
// against the per-layer JSON AMCT itself generated for real configs (test/Inputs/conformance/amct/
// generated-json); the strict reading of every real .cfg of the corpus against its VERDICTS.txt;
// and the reader plus translation validation on the mistakes a writer can make.
#include "vendors/Reading.h"
#include "vendors/amct/AmctConfig.h"
#include "vendors/amct/AmctReader.h"

#include "../TestFiles.h"
#include "../emitters/EmitTestSupport.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdlib>
#include <deque>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <utility>

namespace qspec {
namespace {

namespace fs = std::filesystem;
using amct::Applied;
using amct::ConfigKind;
using testsupport::Mods;

amct::AmctDocument parseAmct(const std::string &text, ConfigKind kind) {
  amct::AmctDocument doc;
  std::vector<amct::ParseError> errors;
  EXPECT_TRUE(amct::parseAmctConfigAs(text, kind, doc, errors))
      << (errors.empty() ? "" : errors[0].message);
  return doc;
}

std::vector<ir::Module> modules(const Mods &mods) {
  std::vector<ir::Module> out;
  for (const auto &[n, t] : mods)
    out.push_back({n, t, -1, 0});
  return out;
}

std::vector<Applied> apply(const std::string &text, ConfigKind kind,
                           const std::vector<ir::Module> &mods,
                           std::vector<amct::Finding> *refusalsOut = nullptr) {
  std::vector<amct::Finding> refusals;
  static std::deque<amct::AmctDocument>
      docs; // the result's algorithm names are views into its document
  docs.push_back(parseAmct(text, kind));
  auto out = amct::applyDocument(docs.back(), mods, amct::Version{}, refusals);
  if (refusalsOut)
    *refusalsOut = refusals;
  else
    EXPECT_TRUE(refusals.empty());
  return out;
}

const Mods kNet = {
    {"conv1", "Conv2d"}, {"fc", "Linear"}, {"pool", "AvgPool2d"}, {"norm", "LayerNorm"}};

// The emitter's parsed document handed to the read-back: taken once, only for the same bytes
// and kind (the marker shows the remembered document came back, not a second parse).
// Each row of AmctChecks.def: its enum names its own ID, IDs are distinct and AMCT-prefixed, and
// a finding carries the enum of the check that made it.
TEST(AmctChecks, EachCheckNamesItsOwnStableId) {
  const std::pair<amct::Check, std::string> rows[] = {
#define AMCT_CHECK(ENUM, ID) {amct::Check::ENUM, ID},
#include "vendors/amct/AmctChecks.def"
#undef AMCT_CHECK
  };
  std::set<std::string> seen;
  for (const auto &[check, id] : rows) {
    EXPECT_EQ(amct::checkName(check), id);
    EXPECT_EQ(id.rfind("amct-", 0), 0u) << id;
    EXPECT_TRUE(seen.insert(id).second) << id;
  }
  EXPECT_STREQ(amct::checkName(amct::Check::QuantBits), "amct-quant-bits");
  amct::AmctDocument doc = parseAmct("batch_num: 0\n", ConfigKind::PTQ);
  std::vector<amct::Finding> findings = amct::checkDocument(doc, amct::CheckOptions{});
  ASSERT_EQ(findings.size(), 1u);
  EXPECT_EQ(findings[0].check, amct::Check::BatchNum);
}

TEST(AmctConfig, RememberedDocumentIsTakenOnceForTheSameBytesAndKind) {
  const std::string text = "batch_num: 2\nskip_layers: \"fc\"\n";
  amct::AmctDocument doc = parseAmct(text, ConfigKind::PTQ);
  ASSERT_EQ(doc.skipLayers.size(), 1u);
  doc.skipLayers[0].text = "marker";
  amct::AmctDocument got;
  amct::rememberParsed(text, ConfigKind::PTQ, doc);
  EXPECT_FALSE(amct::takeParsed(text + " ", ConfigKind::PTQ, got));
  EXPECT_FALSE(amct::takeParsed(text, ConfigKind::PTQ, got)); // the miss emptied the slot
  amct::rememberParsed(text, ConfigKind::PTQ, doc);
  EXPECT_FALSE(amct::takeParsed(text, ConfigKind::QAT, got));
  amct::rememberParsed(text, ConfigKind::PTQ, doc);
  ASSERT_TRUE(amct::takeParsed(text, ConfigKind::PTQ, got));
  ASSERT_EQ(got.skipLayers.size(), 1u);
  EXPECT_EQ(got.skipLayers[0].text, "marker");
  EXPECT_EQ(got.batchNum, 2u);
  EXPECT_FALSE(amct::takeParsed(text, ConfigKind::PTQ, got));
}

// A document printed as a temporary gives the const print's bytes with its strings moved into the
// message (not copied); the parse moves the repeated strings out of its message and gives every
// entry its own line and column.
TEST(AmctConfig, PrintMovesATemporarysStringsAndParseKeepsEachEntrysPlace) {
  for (ConfigKind kind : {ConfigKind::PTQ, ConfigKind::QAT}) {
    amct::AmctDocument doc;
    doc.kind = kind;
    for (int i = 0; i < 3; ++i)
      doc.skipLayers.push_back(
          amct::Entry{"model.layers." + std::to_string(i) + ".mlp.down_proj_long_name"});
    amct::Override o;
    o.key = "model.layers.7.self_attn.q_proj_long_name";
    doc.nameOverrides.push_back(o);
    std::string copied = amct::printAmctConfig(doc);
    amct::AmctDocument moved = doc;
    EXPECT_EQ(amct::printAmctConfig(std::move(moved)), copied);
    EXPECT_TRUE(moved.skipLayers[0].text.empty());   // NOLINT: taken by the print
    EXPECT_TRUE(moved.nameOverrides[0].key.empty()); // NOLINT
    amct::AmctDocument parsed;
    std::vector<amct::ParseError> errors;
    ASSERT_TRUE(amct::parseAmctConfigAs("# c\n" + copied, kind, parsed, errors)) << copied;
    ASSERT_EQ(parsed.skipLayers.size(), 3u);
    for (size_t i = 0; i < 3; ++i) {
      EXPECT_EQ(parsed.skipLayers[i].text, doc.skipLayers[i].text);
      EXPECT_EQ(parsed.skipLayers[i].line, i + 2) << copied;
      EXPECT_EQ(parsed.skipLayers[i].col, 1u);
    }
  }
}

// Names are printed as libprotobuf's UTF-8 escaping prints them: plain ASCII as it is; quotes,
// apostrophes, backslashes and control bytes (DEL too) escaped; bytes from 0x80 up as they are.
// Each reads back as the name it was.
TEST(AmctConfig, PrintsNamesAsProtobufsUtf8EscapingDoes) {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"model.layers.0.mlp.down_proj", "\"model.layers.0.mlp.down_proj\""},
      {"a b~c", "\"a b~c\""},
      {"say \"hi\"", "\"say \\\"hi\\\"\""},
      {"it's", "\"it\\'s\""},
      {"back\\slash", "\"back\\\\slash\""},
      {"tab\there\nline", "\"tab\\there\\nline\""},
      {std::string("nul\0x", 5), "\"nul\\000x\""},
      {"del\x7f", "\"del\\177\""},
      {"caf\xc3\xa9.\xe5\xb1\x82", "\"caf\xc3\xa9.\xe5\xb1\x82\""},
      {"bad\xff", "\"bad\xff\""}, // high bytes are left as they are, UTF-8 or not
  };
  amct::AmctDocument doc;
  for (const auto &c : cases)
    doc.skipLayers.push_back(amct::Entry{c.first});
  const std::string text = amct::printAmctConfig(doc);
  std::istringstream lines(text);
  std::string line;
  for (const auto &c : cases) {
    ASSERT_TRUE(std::getline(lines, line)) << text;
    EXPECT_EQ(line, "skip_layers: " + c.second);
  }
  amct::AmctDocument parsed;
  std::vector<amct::ParseError> errors;
  ASSERT_TRUE(amct::parseAmctConfigAs(text, ConfigKind::PTQ, parsed, errors)) << text;
  ASSERT_EQ(parsed.skipLayers.size(), cases.size());
  for (size_t i = 0; i < cases.size(); ++i)
    EXPECT_EQ(parsed.skipLayers[i].text, cases[i].first) << i;
}

TEST(AmctReading, PtqSkipWinsOverAnOverride) {
  auto a = apply(
      "skip_layers: \"conv1\"\noverride_layer_configs { layer_name: \"conv1\" calibration_config { "
      "arq_quantize { quant_bits: 4 } ifmr_quantize { } } }\n",
      ConfigKind::PTQ, modules(kNet));
  EXPECT_FALSE(a[0].enabled);
  EXPECT_EQ(a[0].line, 1u);
  EXPECT_TRUE(a[1].enabled);
  EXPECT_TRUE(a[2].considered);
  EXPECT_FALSE(a[3].considered); // LayerNorm: AMCT does not quantize it
}

TEST(AmctReading, QatAnOverrideReenablesASkippedLayerAndSkipListsAreUnions) {
  auto a = apply("skip_layers: \"conv1\"\nquant_skip_layers: \"fc\"\noverride_layer_types { "
                 "layer_type: \"Conv2d\" "
                 "retrain_weight_quant_config { arq_retrain { dst_type: INT4 } } }\n",
                 ConfigKind::QAT, modules(kNet));
  EXPECT_TRUE(a[0].enabled); // the Conv2d type override sets retrain_enable back to true
  EXPECT_EQ(a[0].weightBits, 4u);
  EXPECT_EQ(a[0].act, amct::DataType::Int8); // the entry replaces: its gaps are AMCT's defaults
  EXPECT_FALSE(a[1].enabled);                // quant_skip_layers joins skip_layers
  EXPECT_FALSE(a[2].considered);             // AvgPool2d: not a QAT type
}

TEST(AmctReading, NameBeatsTypeBeatsGlobalAndEntriesReplace) {
  auto a = apply(
      "common_config { arq_quantize { quant_bits: 4 } hfmg_quantize { asymmetric: false } }\n"
      "override_layer_types { layer_type: \"Linear\" calibration_config { ifmr_quantize { } } }\n"
      "override_layer_configs { layer_name: \"conv1\" calibration_config { ifmr_quantize { "
      "dst_type: "
      "INT16 } } }\n",
      ConfigKind::PTQ, modules(kNet));
  EXPECT_EQ(a[0].act, amct::DataType::Int16);
  EXPECT_EQ(a[0].weightBits, 8u); // not the global 4 bits: the name entry replaces
  EXPECT_EQ(a[1].weightBits, 8u);
  EXPECT_EQ(a[1].actAlgo, "ifmr");
  EXPECT_EQ(a[2].weightBits, 4u);
  EXPECT_EQ(a[2].actAlgo, "hfmg");
  // asymmetric: the entry's own ▸ common_config's only with the same algorithm ▸ activation_offset.
  EXPECT_EQ(a[1].asymmetric, true); // ifmr entry, hfmg global: activation_offset's default
  EXPECT_EQ(a[2].asymmetric, false);
  EXPECT_EQ(a[1].channelWise, false); // Linear's per-type default
  EXPECT_EQ(a[0].channelWise, true);
}

TEST(AmctReading, GlobalInt16FallsBackOnABiaslessLinearAndAnOverrideIsRefused) {
  std::vector<ir::Module> mods = modules({{"q_proj", "Linear"}, {"o_proj", "Linear"}});
  mods[0].biasKnown = mods[1].biasKnown = true;
  mods[1].hasBias = true;
  auto a = apply("common_config { ifmr_quantize { dst_type: INT16 } }\n", ConfigKind::PTQ, mods);
  EXPECT_EQ(a[0].act, amct::DataType::Int8);
  EXPECT_EQ(a[1].act, amct::DataType::Int16);
  std::vector<amct::Finding> refusals;
  apply("override_layer_configs { layer_name: \"q_proj\" calibration_config { ifmr_quantize { "
        "dst_type: INT16 } } }\n",
        ConfigKind::PTQ, mods, &refusals);
  ASSERT_EQ(refusals.size(), 1u);
  EXPECT_EQ(refusals[0].message, "int16_quantizable not support for q_proj layer");
}

// ---- The corpus ------------------------------------------------------------------------------

fs::path amctDir() { return conformanceDir() / "amct"; }

// The layer types of the model AMCT's generator used (a ResNet: conv*, fc, avgpool).
std::string generatedType(const std::string &name) {
  if (name.find("conv") != std::string::npos || name.find("downsample") != std::string::npos)
    return "Conv2d";
  if (name == "fc")
    return "Linear";
  return name == "avgpool" ? "AvgPool2d" : "";
}

// The configs of the generated-JSON corpus that have AMCT's per-layer JSON beside them.
std::vector<fs::path> generatedConfigs() {
  std::vector<fs::path> out;
  fs::path dir = amctDir() / "generated-json";
  if (!fs::is_directory(dir))
    return out;
  for (const auto &entry : fs::directory_iterator(dir))
    if (entry.path().extension() == ".cfg" &&
        fs::exists(fs::path(entry.path()).replace_extension(".json")))
      out.push_back(entry.path());
  std::sort(out.begin(), out.end());
  return out;
}

// The layers of a generated JSON that have `field`, as modules of the generator's model, and
// their rows in the same order.
void generatedLayers(const nlohmann::json &layers, std::initializer_list<const char *> fields,
                     std::vector<ir::Module> &mods, std::vector<const nlohmann::json *> &rows) {
  for (auto it = layers.begin(); it != layers.end(); ++it) {
    bool has = false;
    for (const char *f : fields)
      has = has || (it->is_object() && it->contains(f));
    if (has) {
      mods.push_back({it.key(), generatedType(it.key()), -1, 0});
      rows.push_back(&*it);
    }
  }
}

TEST(AmctReading, AnEntrysPruneReplacesTheGlobalOneAndASkipWins) {
  amct::AmctDocument doc = parseAmct(
      "prune_config { filter_pruner { balanced_l2_norm_filter_prune { prune_ratio: 0.3 } } }\n"
      "skip_layers: \"conv1\"\nregular_prune_skip_types: \"Linear\"\n"
      "override_layer_configs { layer_name: \"conv1\" prune_config { filter_pruner { "
      "balanced_l2_norm_filter_prune { prune_ratio: 0.5 } } } }\n"
      "override_layer_configs { layer_name: \"conv2\" retrain_data_quant_config { ulq_quantize "
      "{ } } }\n"
      "override_layer_types { layer_type: \"Conv2d\" prune_config { n_out_of_m_pruner { "
      "l1_selective_prune { update_freq: 3 } } } }\n",
      ConfigKind::QAT);
  std::vector<ir::Module> mods =
      modules({{"conv1", "Conv2d"}, {"conv2", "Conv2d"}, {"conv3", "Conv2d"}, {"fc", "Linear"}});
  std::vector<amct::PruneApplied> p = amct::pruneReading(doc, mods);
  EXPECT_EQ(p[0].kind, amct::PruneApplied::Skipped); // skip_layers: the skip wins over its entry
  EXPECT_EQ(p[1].kind, amct::PruneApplied::Filter);  // an entry without prune: the global one
  EXPECT_FLOAT_EQ(p[1].ratio, 0.3f);
  EXPECT_TRUE(p[1].ascendOptimized);                 // AMCT's default
  EXPECT_EQ(p[2].kind, amct::PruneApplied::NOutOfM); // the type entry's own replaces it
  EXPECT_EQ(p[2].updateFreq, 3u);
  EXPECT_EQ(amct::pruneText(p[2]), "n_out_of_m update_freq 3");
  EXPECT_EQ(p[3].kind, amct::PruneApplied::Skipped); // regular_prune_skip_types
  // PTQ prunes nothing.
  EXPECT_EQ(amct::pruneReading(parseAmct("", ConfigKind::PTQ), mods)[1].kind,
            amct::PruneApplied::None);
}

// AMCT's generated per-layer JSON of the QAT/prune configs: regular_prune_enable and
// regular_prune_config against pruneReading.
TEST(AmctConformance, PruneReadingEqualsTheLayerJsonAmctGenerated) {
  std::vector<fs::path> configs = generatedConfigs();
  ASSERT_FALSE(configs.empty()) << "missing conformance corpus: " << amctDir();
  int compared = 0;
  for (const fs::path &cfg : configs) {
    fs::path json = fs::path(cfg).replace_extension(".json");
    SCOPED_TRACE(cfg.filename().string());
    amct::AmctDocument doc;
    std::vector<amct::ParseError> errors;
    ASSERT_TRUE(amct::parseAmctConfig(slurp(cfg), doc, errors)) << errors[0].message;
    if (doc.kind != ConfigKind::QAT)
      continue;
    nlohmann::json layers = nlohmann::json::parse(slurp(json));
    std::vector<ir::Module> mods;
    std::vector<const nlohmann::json *> rows;
    generatedLayers(layers, {"regular_prune_enable"}, mods, rows);
    std::vector<amct::PruneApplied> p = amct::pruneReading(doc, mods);
    for (size_t i = 0; i < mods.size(); ++i) {
      SCOPED_TRACE(mods[i].name);
      const nlohmann::json &row = *rows[i];
      if (!row.value("regular_prune_enable", false)) {
        EXPECT_EQ(p[i].kind, amct::PruneApplied::Skipped);
        ++compared;
        continue;
      }
      nlohmann::json c = row.value("regular_prune_config", nlohmann::json::object());
      bool filter = c.value("prune_type", std::string()) == "filter_prune";
      EXPECT_EQ(p[i].kind, filter ? amct::PruneApplied::Filter : amct::PruneApplied::NOutOfM);
      if (filter) {
        EXPECT_FLOAT_EQ(p[i].ratio, c.value("prune_ratio", 0.0f));
        EXPECT_EQ(p[i].ascendOptimized, c.value("ascend_optimized", true));
      } else {
        EXPECT_EQ(p[i].updateFreq, c.value("update_freq", 0u));
      }
      ++compared;
    }
  }
  EXPECT_GT(compared, 4);
}

// The corpus's distillation and auto-search configs are told apart by their own fields; no
// config the document model reads is taken for one.
TEST(AmctConformance, OtherApisConfigsAreToldByTheirFields) {
  fs::path dir = amctDir();
  ASSERT_TRUE(fs::is_directory(dir)) << "missing conformance corpus: " << dir;
  int distill = 0, search = 0;
  for (const auto &entry : fs::directory_iterator(dir)) {
    std::string name = entry.path().filename().string();
    if (entry.path().extension() != ".cfg")
      continue;
    SCOPED_TRACE(name);
    std::string text = slurp(entry.path());
    std::optional<amct::OtherConfig> other = amct::otherAmctConfig(text);
    amct::AmctDocument doc;
    std::vector<amct::ParseError> errors;
    if (amct::parseAmctConfig(text, doc, errors)) {
      EXPECT_FALSE(other.has_value());
    }
    if (name.find("distill") != std::string::npos) {
      ASSERT_TRUE(other.has_value());
      EXPECT_EQ(other->api, "distillation");
      ++distill;
    }
    if (name.find("auto_prune") != std::string::npos ||
        name.find("auto_channel_prune") != std::string::npos) {
      ASSERT_TRUE(other.has_value());
      EXPECT_EQ(other->api, "auto-search");
      EXPECT_EQ(other->field, "compress_ratio");
      EXPECT_GT(other->line, 0u);
      ++search;
    }
  }
  EXPECT_GE(distill, 5);
  EXPECT_GE(search, 4);
}

// Compares one layer of AMCT's generated JSON with applyDocument's reading.
void expectLayer(const nlohmann::json &layer, const Applied &a, bool qat) {
  if (qat) {
    EXPECT_EQ(a.enabled, layer.value("retrain_enable", true));
    if (!a.enabled)
      return; // AMCT still lists a skipped layer's recipe; nothing of it applies
    nlohmann::json d = layer.value("retrain_data_config", nlohmann::json::object());
    nlohmann::json w = layer.value("retrain_weight_config", nlohmann::json::object());
    EXPECT_EQ(a.act == amct::DataType::Int16 ? "INT16" : "INT8",
              d.value("dst_type", std::string("INT8")));
    EXPECT_EQ(a.weightBits == 4 ? "INT4" : "INT8", w.value("dst_type", std::string("INT8")));
    EXPECT_EQ(std::string(a.wtsAlgo) + "_retrain", w.value("algo", std::string()));
    EXPECT_EQ(a.channelWise, w.value("channel_wise", false));
    return;
  }
  EXPECT_EQ(a.enabled, layer.value("quant_enable", true));
  if (!a.enabled)
    return;
  nlohmann::json act = layer.value("activation_quant_params", nlohmann::json::object());
  nlohmann::json w = layer.value("weight_quant_params", nlohmann::json::object());
  EXPECT_EQ(a.act == amct::DataType::Int16 ? 16 : 8, act.value("num_bits", 8));
  EXPECT_EQ(a.actAlgo, act.value("act_algo", std::string()));
  EXPECT_EQ(a.asymmetric, act.value("asymmetric", true));
  EXPECT_EQ(static_cast<int>(a.weightBits), w.value("num_bits", 8));
  EXPECT_EQ(std::string(a.wtsAlgo) + "_quantize", w.value("wts_algo", std::string()));
  EXPECT_EQ(a.channelWise, w.value("channel_wise", false));
}

TEST(AmctConformance, ReadingEqualsTheLayerJsonAmctGenerated) {
  std::vector<fs::path> configs = generatedConfigs();
  ASSERT_FALSE(configs.empty()) << "missing conformance corpus: " << amctDir();
  int compared = 0;
  for (const fs::path &cfg : configs) {
    fs::path json = fs::path(cfg).replace_extension(".json");
    SCOPED_TRACE(cfg.filename().string());
    amct::AmctDocument doc;
    std::vector<amct::ParseError> errors;
    ASSERT_TRUE(amct::parseAmctConfig(slurp(cfg), doc, errors)) << errors[0].message;
    // A text both messages read (an empty file) is what the generator was asked for.
    std::string stem = cfg.filename().string();
    if (doc.ambiguous && stem.find("__ptq_") == std::string::npos)
      doc = parseAmct(slurp(cfg), ConfigKind::QAT);
    nlohmann::json layers = nlohmann::json::parse(slurp(json));
    std::vector<ir::Module> mods;
    std::vector<const nlohmann::json *> rows;
    generatedLayers(layers, {"quant_enable", "retrain_enable"}, mods, rows);
    std::vector<amct::Finding> refusals;
    auto applied = amct::applyDocument(doc, mods, amct::Version{}, refusals);
    EXPECT_TRUE(refusals.empty());
    for (size_t i = 0; i < mods.size(); ++i) {
      SCOPED_TRACE(mods[i].name);
      ASSERT_TRUE(applied[i].considered);
      expectLayer(*rows[i], applied[i], doc.kind == ConfigKind::QAT);
      ++compared;
    }
  }
  EXPECT_GT(compared, 20);
}

TEST(AmctConformance, EveryRealConfigReadsAsVerdictsSays) {
  fs::path dir = amctDir();
  ASSERT_TRUE(fs::is_directory(dir)) << "missing conformance corpus: " << dir;
  std::ifstream verdicts(dir / "VERDICTS.txt");
  std::string line;
  int files = 0;
  while (std::getline(verdicts, line)) {
    if (line.empty() || line[0] == '#')
      continue;
    std::string verdict = line.substr(0, line.find(' '));
    std::string name = line.substr(line.rfind(' ') + 1);
    SCOPED_TRACE(name);
    amct::AmctDocument doc;
    std::vector<amct::ParseError> errors;
    bool ok = amct::parseAmctConfig(slurp(dir / name), doc, errors);
    if (verdict == "OK") {
      // Accepted as the message VERDICTS names (KV-cache files are AMCT's third message).
      ASSERT_TRUE(ok) << errors[0].message;
      std::string message = line.substr(3, line.find(' ', 3) - 3);
      if (message !=
          amct::rootMessageName(doc.kind)) { // text both messages read (no QAT-only field)
        EXPECT_TRUE(doc.ambiguous);
        ASSERT_EQ(message, "AMCTRetrainConfig");
        doc = parseAmct(slurp(dir / name), ConfigKind::QAT);
      }
      // The reading applies it to the layers it names without refusing.
      std::vector<ir::Module> mods;
      for (const auto &o : doc.nameOverrides)
        mods.push_back({o.key, "", -1, 0});
      std::vector<amct::Finding> refusals;
      if (doc.kind != ConfigKind::KVCache)
        amct::applyDocument(doc, mods, amct::Version{}, refusals);
      EXPECT_TRUE(refusals.empty());
    } else if (!ok) {
      ASSERT_FALSE(errors.empty());
      EXPECT_FALSE(errors[0].message.empty()); // refused with libprotobuf's message
    } else {
      // Strict-parse FAIL for both PyTorch messages, but AMCT's KV-cache message reads it.
      EXPECT_EQ(doc.kind, ConfigKind::KVCache);
    }
    ++files;
  }
  EXPECT_GT(files, 80);
}

// ---- The reader and translation validation ----------------------------------------------------

struct Validated {
  bool read = false, valid = false;
  std::vector<std::string> ids, messages;
};

// The spec the last validate() compiled.
ir::Spec &validateSpec() {
  static ir::Spec spec; // the diagnostics' ranges point into it
  return spec;
}

Validated validate(const std::string &specText, const Mods &mods, const std::string &cfg,
                   const std::function<void(ir::Spec &)> &graph = {}) {
  ir::Spec &spec = validateSpec();
  spec = ir::Spec{};
  // The ONNX graph (two graphs) is there before the passes, as the frontend reads it.
  testsupport::compileAndEmit("amct", specText, mods, spec, {}, "manifest", graph);
  SourceManager sm;
  DiagnosticEngine diags(sm);
  Validated v;
  vendors::VendorReading reading;
  const ir::Target &target = *spec.target("amct");
  v.read = vendors::readAmct(spec, target, cfg, reading, diags);
  v.valid = v.read && vendors::validateReading(spec, target, reading, diags);
  for (const auto &d : diags.diagnostics()) {
    v.ids.push_back(d.code);
    v.messages.push_back(d.message);
  }
  return v;
}

const Mods kBlock = {{"model.layers.0.mlp.up_proj", "Linear"},
                     {"model.layers.0.mlp.down_proj", "Linear"}};
const char *kHistogramSpec = R"(qspec 1
defaults { tier int8; weight int8 symmetric minmax; act int8 asymmetric minmax }
override name "model.layers.*.mlp.down_proj" { act int8 asymmetric histogram }
target amct ptq { act_algo ifmr }
)";

TEST(AmctValidation, ActAlgoReplacingARulesMethodIsADivergence) {
  // What qcc wrote before the fix: act_algo ifmr everywhere, down_proj's histogram lost.
  Validated before =
      validate(kHistogramSpec, kBlock,
               "common_config { arq_quantize { } ifmr_quantize { asymmetric: true } }\n");
  EXPECT_TRUE(before.read);
  EXPECT_FALSE(before.valid);
  ASSERT_FALSE(before.ids.empty());
  EXPECT_EQ(before.ids[0], "err_emit_divergence");
  EXPECT_NE(before.messages[0].find("model.layers.0.mlp.down_proj"), std::string::npos)
      << before.messages[0];
  EXPECT_NE(before.messages[0].find("act method"), std::string::npos) << before.messages[0];
  // The fixed file: down_proj gets its own HFMG entry.
  Validated after = validate(
      kHistogramSpec, kBlock,
      "common_config { arq_quantize { } ifmr_quantize { asymmetric: true } }\n"
      "override_layer_configs { layer_name: \"model.layers.0.mlp.down_proj\" calibration_config "
      "{ arq_quantize { } hfmg_quantize { asymmetric: true } } }\n");
  EXPECT_TRUE(after.valid) << (after.messages.empty() ? "" : after.messages[0]);
}

// The QAT/PTQ mapping is part of the expected reading (ir::TargetInfo::methodOf): a spec that
// names no method but a target algorithm expects that algorithm on every module, so a file that
// applies another one is a divergence, decided by the target's setting.
TEST(AmctValidation, TheTargetsAlgorithmIsComparedWithoutAMethod) {
  const char *spec = "qspec 1\ndefaults { tier int8; act int8 asymmetric }\n"
                     "target amct ptq { act_algo hfmg }\n";
  Validated wrong = validate(
      spec, kBlock, "common_config { arq_quantize { } ifmr_quantize { asymmetric: true } }\n");
  EXPECT_TRUE(wrong.read);
  EXPECT_FALSE(wrong.valid);
  ASSERT_FALSE(wrong.ids.empty());
  EXPECT_EQ(wrong.ids[0], "err_emit_divergence");
  EXPECT_NE(wrong.messages[0].find("act method"), std::string::npos) << wrong.messages[0];
  EXPECT_NE(wrong.messages[0].find("histogram"), std::string::npos) << wrong.messages[0];
  Validated right = validate(
      spec, kBlock, "common_config { arq_quantize { } hfmg_quantize { asymmetric: true } }\n");
  EXPECT_TRUE(right.valid) << (right.messages.empty() ? "" : right.messages[0]);
  // The expected reading says so, at the target's act_algo.
  const ir::Spec &s = validateSpec();
  const ir::TargetReading *r = s.readingOf(*s.target("amct"));
  ASSERT_NE(r, nullptr);
  const ir::TargetChange *c = r->changeOf(0);
  ASSERT_NE(c, nullptr);
  ASSERT_TRUE(c->actMethod);
  EXPECT_EQ(c->actMethod->value.str(), "histogram");
  EXPECT_EQ(c->actMethod->from.source, ir::Decision::VendorMethod);
  EXPECT_FALSE(c->weightMethod); // nothing names a weight algorithm
}

// The reader names each module's method from the rule's method, its amct { act_algo } and the
// algorithm the file applies, and reuses the last name while the three stay the same: a module
// that differs from the one before in only one of them is named on its own.
TEST(AmctValidation, NeighboursDifferingInOneInputAreNamedEach) {
  struct Case {
    const char *spec, *cfg, *diverges;
  };
  const Case cases[] = {
      // The same rule (one method text) for both; the file applies HFMG to up_proj, IFMR to
      // down_proj: only down_proj diverges.
      {"qspec 1\ndefaults { tier int8; act int8 asymmetric histogram }\ntarget amct ptq { }\n",
       "common_config { arq_quantize { } hfmg_quantize { asymmetric: true } }\n"
       "override_layer_configs { layer_name: \"model.layers.0.mlp.down_proj\" calibration_config "
       "{ arq_quantize { } ifmr_quantize { asymmetric: true } } }\n",
       "model.layers.0.mlp.down_proj"},
      // The defaults' method (no AMCT word) for both, HFMG applied to both; down_proj's rule asks
      // for HFMG (its minmax is what AMCT applies), up_proj's target IFMR (HFMG is a divergence).
      {"qspec 1\ndefaults { tier int8; act int8 asymmetric minmax }\n"
       "override name \"model.layers.0.mlp.down_proj\" { amct { act_algo hfmg } }\ntarget amct ptq "
       "{ act_algo ifmr }\n",
       "common_config { arq_quantize { } hfmg_quantize { asymmetric: true } }\n",
       "model.layers.0.mlp.up_proj"},
      // IFMR applied to both, no rule option; up_proj's rule asks for histogram (a divergence),
      // down_proj has the defaults' minmax.
      {"qspec 1\ndefaults { tier int8; act int8 asymmetric minmax }\n"
       "override name \"model.layers.0.mlp.up_proj\" { act int8 asymmetric histogram }\ntarget "
       "amct ptq { act_algo ifmr }\n",
       "common_config { arq_quantize { } ifmr_quantize { asymmetric: true } }\n",
       "model.layers.0.mlp.up_proj"},
  };
  for (const Case &c : cases) {
    Validated v = validate(c.spec, kBlock, c.cfg);
    EXPECT_TRUE(v.read) << c.spec;
    ASSERT_EQ(v.ids.size(), 1u) << c.spec;
    EXPECT_NE(v.messages[0].find(c.diverges), std::string::npos) << v.messages[0];
  }
}

TEST(AmctValidation, TierAndDtypesComparedAsThePairAmctApplies) {
  const char *spec =
      "qspec 1\ndefaults { tier int8; weight int8; act int8 }\n"
      "override name \"model.layers.0.mlp.up_proj\" { tier int16 }\ntarget amct ptq { }\n";
  // The name override's tier beats the defaults' act dtype: A16 is what the IR asks for.
  Validated ok = validate(
      spec, kBlock,
      "common_config { arq_quantize { } ifmr_quantize { } }\noverride_layer_configs { layer_name: "
      "\"model.layers.0.mlp.up_proj\" calibration_config { arq_quantize { } ifmr_quantize { "
      "dst_type: INT16 } } }\n");
  EXPECT_TRUE(ok.valid) << (ok.messages.empty() ? "" : ok.messages[0]);
  Validated lost = validate(spec, kBlock, "common_config { arq_quantize { } ifmr_quantize { } }\n");
  EXPECT_FALSE(lost.valid);
  ASSERT_FALSE(lost.messages.empty());
  EXPECT_NE(lost.messages[0].find("tier"), std::string::npos) << lost.messages[0];
}

TEST(AmctValidation, GlobalInt16OnABiaslessLinearIsReadAsInt8) {
  const char *spec = "qspec 1\ndefaults { tier int16 }\ntarget amct ptq { }\n";
  auto noBias = [](ir::Spec &s) {
    for (ir::Module &m : s.inventory.modules)
      m.biasKnown = true;
    s.inventory.modules[1].hasBias = true;
  };
  Validated v =
      validate(spec, kBlock,
               "common_config { arq_quantize { } ifmr_quantize { dst_type: INT16 } }\n", noBias);
  EXPECT_TRUE(v.read);
  EXPECT_FALSE(v.valid);
  ASSERT_EQ(v.ids.size(), 1u); // up_proj only: down_proj has a bias
  EXPECT_NE(v.messages[0].find("model.layers.0.mlp.up_proj"), std::string::npos) << v.messages[0];
}

TEST(AmctValidation, AConfigAmctRefusesIsNotRead) {
  Validated v =
      validate("qspec 1\ntarget amct ptq { }\n", kBlock, "skip_layer_types: \"Embedding\"\n");
  EXPECT_FALSE(v.read);
  ASSERT_FALSE(v.messages.empty());
  EXPECT_NE(v.messages[0].find("Layer type Embedding does not support quantize."),
            std::string::npos);
  Validated garbage = validate("qspec 1\ntarget amct ptq { }\n", kBlock, "no_such_field: 1\n");
  EXPECT_FALSE(garbage.read);
  EXPECT_EQ(garbage.ids[0], "err_amct_parse");
}

// Two graphs, framework onnx: the file is read in the ONNX name space. A module is read through
// its nodes, so the node names verify and the module names (what AMCT for ONNX would never match)
// do not; a module read through two nodes that disagree is a divergence.
void twoGraphs(ir::Spec &s) {
  s.onnx.path = "<test>.onnx";
  s.onnx.nodes = {
      {"/model/layers.0/mlp/up_proj/MatMul", "MatMul", "model.layers.0.mlp.up_proj", {}, false},
      {"/model/layers.0/mlp/down_proj/MatMul", "MatMul", "model.layers.0.mlp.down_proj", {}, false},
      {"/model/layers.0/mlp/down_proj/MatMul_1",
       "MatMul",
       "model.layers.0.mlp.down_proj",
       {},
       false}};
  s.onnx.modules.assign(2, ir::NodeMapping{});
  s.onnx.modules[0].how = s.onnx.modules[1].how = ir::NodeMapping::MapFile;
  s.onnx.modules[0].nodes = {0};
  s.onnx.modules[1].nodes = {1, 2};
}

TEST(AmctValidation, TwoGraphsReadTheFileInTheOnnxNameSpace) {
  const char *spec =
      "qspec 1\nprotect \"model.layers.0.mlp.down_proj\"\ntarget amct ptq { framework onnx }\n";
  const std::string global = "common_config { arq_quantize { } ifmr_quantize { } }\n";
  Validated nodes = validate(spec, kBlock,
                             "skip_layers: \"/model/layers.0/mlp/down_proj/MatMul\"\n"
                             "skip_layers: \"/model/layers.0/mlp/down_proj/MatMul_1\"\n" +
                                 global,
                             twoGraphs);
  EXPECT_TRUE(nodes.valid) << (nodes.messages.empty() ? "" : nodes.messages[0]);
  Validated modules =
      validate(spec, kBlock, "skip_layers: \"model.layers.0.mlp.down_proj\"\n" + global, twoGraphs);
  EXPECT_FALSE(modules.valid);
  Validated split = validate(
      spec, kBlock, "skip_layers: \"/model/layers.0/mlp/down_proj/MatMul\"\n" + global, twoGraphs);
  EXPECT_TRUE(split.read);
  EXPECT_FALSE(split.valid);
  ASSERT_FALSE(split.ids.empty());
  EXPECT_EQ(split.ids[0], "err_emit_divergence");
  EXPECT_NE(split.messages[0].find("model.layers.0.mlp.down_proj"), std::string::npos)
      << split.messages[0];
}

} // namespace
} // namespace qspec
