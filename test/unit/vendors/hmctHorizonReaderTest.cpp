// The HMCT and Horizon vendor models (vendors/hmct, vendors/horizon): the document models with
// locations, HMCT's node > op > model reading, the QconfigSetter's template order with prefix
// keys and march defaults, and the HMCT model against the real files in test/Inputs/conformance.
#include "vendors/Parsed.h"
#include "vendors/hmct/HmctReader.h"
#include "vendors/horizon/HorizonReader.h"
#include "vendors/horizon/HorizonRules.h"

#include "../emitters/EmitTestSupport.h"
#include "../TestFiles.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>

using namespace qspec;
namespace fs = std::filesystem;

namespace {

hmct::QuantConfigDoc hmctDoc(const std::string &text) {
  hmct::QuantConfigDoc doc;
  std::string error;
  uint32_t line = 0, col = 0;
  EXPECT_TRUE(hmct::parseQuantConfigText(text, doc, error, line, col)) << error;
  return doc;
}

horizon::QconfigSetterDoc setterDoc(const std::string &text) {
  horizon::QconfigSetterDoc doc;
  std::string error;
  uint32_t line = 0, col = 0;
  EXPECT_TRUE(horizon::parseQconfigSetter(text, doc, error, line, col))
      << error << " at " << line << ":" << col;
  return doc;
}

// test/Inputs/conformance (as lit's %conformance), or $QSPEC_CONFORMANCE.
const char *kSetter = R"(# generated
from horizon_plugin_pytorch.quantization.qconfig_setter import (
    ConvDtypeTemplate,
    ModuleNameTemplate,
    QconfigSetter,
)

MARCH = "nash-p"


def build_qconfig_setter():
    """Sets the march."""
    set_march(MARCH)
    return QconfigSetter(
        reference_qconfig=get_qconfig(observer=MSEObserver),
        templates=[
            ModuleNameTemplate({"": qint8}),
            ConvDtypeTemplate(input_dtype=qint16, weight_dtype=qint8),
            ModuleNameTemplate(
                {
                    "blk": qint16,
                    "blk.sub": {"dtype": qint8, "threshold": 6.4},
                    "mm": {"input": [qint16, qint16]},
                    "caf\u00e9": torch.float16,
                },
            ),
            ModuleNameTemplate(
                {
                    "blk.sub.x": torch.float32,
                },
                freeze=True,
            ),
        ],
    )
)";

} // namespace

TEST(HmctReading, NodeBeatsOpBeatsModel) {
  auto doc = hmctDoc(
      "{\n  \"model_config\": {\"all_node_type\": \"int16\"},\n"
      "  \"op_config\": {\"Softmax\": {\"qtype\": \"float16\"}},\n"
      "  // HMCT strips comments\n"
      "  \"node_config\": {\"/a/Softmax\": {\"qtype\": \"int8\"},\n"
      "                  \"/a/MatMul\": {\"input0\": \"int16\", \"input1\": \"int16\"}}\n}");
  auto node = vendors::hmctNodeQtype(doc, "/a/Softmax", "Softmax");
  EXPECT_EQ(node.tier, ir::Tier::Int8);
  EXPECT_EQ(node.line, 5u);
  EXPECT_EQ(node.column, 34u);
  EXPECT_EQ(vendors::hmctNodeQtype(doc, "/b/Softmax", "Softmax").tier, ir::Tier::FP16);
  EXPECT_EQ(vendors::hmctNodeQtype(doc, "/b/Add", "Add").tier, ir::Tier::Int16);
  EXPECT_EQ(vendors::hmctNodeQtype(doc, "/a/MatMul", "MatMul").tier, ir::Tier::DualInt16);
  auto none = hmctDoc("{}");
  auto builtIn = vendors::hmctNodeQtype(none, "/x", "Conv");
  EXPECT_EQ(builtIn.tier, ir::Tier::Int8);
  EXPECT_EQ(builtIn.line, 0u);
}

TEST(HmctReading, ModelWideActivation) {
  auto act = vendors::hmctActivation(hmctDoc(
      R"({"model_config": {"activation": {"calibration_type": "kl", "per_channel": true, "asymmetric": false}}})"));
  EXPECT_EQ(act.method, std::optional<std::string>("histogram"));
  EXPECT_EQ(act.scope, std::optional<std::string>("per_channel"));
  EXPECT_EQ(act.symmetric, std::optional<bool>(true));
  auto search = vendors::hmctActivation(
      hmctDoc(R"({"model_config": {"activation": {"per_channel": [true, false]}}})"));
  EXPECT_FALSE(search.method);
  EXPECT_FALSE(search.scope); // a list: HMCT searches
  EXPECT_EQ(search.symmetric, std::optional<bool>(true));
}

TEST(HmctReading, SearchBlocks) {
  auto s = vendors::hmctSearches(hmctDoc(R"({"model_config": {
    "modelwise_search": {"similarity": 0.99500},
    "layerwise_search": {"metric": "mae", "metric": "mse", "topk": 8, "qtype": "int16"}}})"));
  ASSERT_TRUE(s.modelwise.present);
  EXPECT_EQ(s.modelwise.metric, "cosine-similarity"); // HMCT's default metric
  EXPECT_EQ(s.modelwise.similarity, std::optional<double>(0.995));
  EXPECT_EQ(s.modelwise.line, 2u);
  EXPECT_EQ(s.layerwise.metric, "mse"); // json.loads keeps the last of a repeated key
  EXPECT_EQ(s.layerwise.topk, std::optional<double>(8));
  EXPECT_EQ(s.layerwise.qtype, "int16");
  // Equal when HMCT reads them the same (written default metric, 1 and 1.0).
  auto t = vendors::hmctSearches(hmctDoc(
      R"({"model_config": {"modelwise_search": {"metric": "cosine-similarity", "similarity": 0.995}}})"));
  EXPECT_EQ(vendors::hmctSearchDifference(s.modelwise, t.modelwise), "");
  EXPECT_EQ(vendors::hmctSearchDifference(s.layerwise, t.layerwise), "block: present vs absent");
  auto u = vendors::hmctSearches(
      hmctDoc(R"({"model_config": {"modelwise_search": {"similarity": 1}}})"));
  EXPECT_EQ(vendors::hmctSearchDifference(s.modelwise, u.modelwise), "similarity: '0.995' vs '1'");
  // A string is no number to HMCT.
  auto v = vendors::hmctSearches(
      hmctDoc(R"({"model_config": {"modelwise_search": {"similarity": "0.995"}}})"));
  EXPECT_FALSE(v.modelwise.similarity);
}

TEST(HorizonDocument, ParsesTheGeneratedSubsetWithLocations) {
  auto doc = setterDoc(kSetter);
  EXPECT_TRUE(doc.marchSet);
  EXPECT_EQ(doc.march, "nash-p");
  ASSERT_EQ(doc.templates().size(), 4u);
  const auto &names = doc.templates()[2];
  EXPECT_EQ(names.text, "ModuleNameTemplate");
  ASSERT_EQ(names.items.size(), 1u);
  ASSERT_EQ(names.items[0].entries.size(), 4u);
  EXPECT_EQ(names.items[0].entries[3].first.text, "caf\xc3\xa9"); // \u00e9 decoded
  EXPECT_EQ(names.items[0].entries[0].first.line, 21u);
  EXPECT_EQ(names.items[0].entries[0].first.column, 21u);
  EXPECT_TRUE(horizon::checkQconfigSetter(doc).empty());
}

TEST(HorizonDocument, RefusesWhatItDoesNotKnow) {
  horizon::QconfigSetterDoc doc;
  std::string error;
  uint32_t line = 0, col = 0;
  EXPECT_FALSE(horizon::parseQconfigSetter("x = 1\n", doc, error, line, col));
  EXPECT_FALSE(horizon::parseQconfigSetter(
      "QconfigSetter(templates=[ModuleNameTemplate({\"\": qint8}) + 1])", doc, error, line, col));
  EXPECT_EQ(line, 1u);
  ASSERT_TRUE(horizon::parseQconfigSetter(
      "QconfigSetter(march=\"nash-e\", reference_qconfig=get_qconfig(observer=X), "
      "templates=[ConvDtypeTemplate()])",
      doc, error, line, col));
  std::vector<std::string> checks;
  for (const auto &i : horizon::checkQconfigSetter(doc))
    checks.push_back(i.check);
  EXPECT_EQ(checks, (std::vector<std::string>{"no-set-march", "march-kwarg", "observer",
                                              "global-template-first", "template-arguments",
                                              "template-arguments"}));
}

TEST(HorizonReading, TemplateOrderPrefixKeysAndFreeze) {
  horizon::QconfigSetterDoc doc = setterDoc(kSetter);
  horizon::SetterReading r(doc);
  EXPECT_EQ(r.actMethod(), "mse");
  EXPECT_EQ(r.module("other", "LayerNorm").tier, ir::Tier::Int8);   // the global template
  EXPECT_EQ(r.module("conv", "Conv2d").tier, ir::Tier::Int16);      // ConvDtypeTemplate
  EXPECT_EQ(r.module("blk", "Block").tier, ir::Tier::Int16);        // its key
  EXPECT_EQ(r.module("blk.other", "Conv2d").tier, ir::Tier::Int16); // prefix `blk`
  EXPECT_EQ(r.module("blk.sub", "Linear").tier, ir::Tier::Int8);    // longest key wins
  EXPECT_EQ(r.module("blk.sub.y", "Linear").tier, ir::Tier::Int8);  // prefix `blk.sub`
  EXPECT_EQ(r.module("blk.sub.x", "Linear").tier, ir::Tier::Float); // the frozen template
  EXPECT_EQ(r.module("blk2", "Linear").tier, ir::Tier::Int16);      // not under `blk`: Conv
  EXPECT_EQ(r.module("mm", "MatMul").tier, ir::Tier::DualInt16);    // port map
  EXPECT_EQ(r.module("caf\xc3\xa9", "Add").tier, ir::Tier::FP16);
  auto at = r.module("blk.sub", "Linear");
  EXPECT_EQ(at.line, 22u);
}

TEST(HorizonReading, MarchDefaultsBeforeAnyTemplate) {
  auto doc = setterDoc("set_march(\"nash-p\")\nQconfigSetter(reference_qconfig=get_qconfig("
                       "observer=HistogramObserver), "
                       "templates=[])");
  horizon::SetterReading r(doc);
  EXPECT_EQ(r.module("norm", "LayerNorm").tier, ir::Tier::FP16);
  EXPECT_EQ(r.module("fc", "Linear").tier, ir::Tier::Int8);
  auto e = setterDoc("set_march(\"nash-e\")\nQconfigSetter(templates=[])");
  EXPECT_EQ(horizon::SetterReading(e).module("norm", "LayerNorm").tier, ir::Tier::Int8);
}

// Every real quant_config in test/Inputs/conformance/hmct parses through the vendor model, passes
// HMCT's load checks, and reads: each node entry decides its node, op entries their op type.
TEST(HmctConformance, VendorModelReadsEveryRealFile) {
  fs::path dir = conformanceDir() / "hmct";
  ASSERT_TRUE(fs::is_directory(dir)) << "missing conformance corpus: " << dir;
  size_t files = 0;
  for (const auto &entry : fs::directory_iterator(dir)) {
    std::ifstream in(entry.path());
    std::string text((std::istreambuf_iterator<char>(in)), {});
    SCOPED_TRACE(entry.path().filename().string());
    hmct::QuantConfigDoc doc = hmctDoc(text);
    for (const hmct::Issue &i : hmct::checkQuantConfig(doc, "nash-m"))
      EXPECT_FALSE(i.error) << hmct::checkName(i.check) << ": " << i.message;
    ++files;
    const hmct::JsonValue *nodes = doc.root.get("node_config");
    const hmct::JsonValue *ops = doc.root.get("op_config");
    ASSERT_TRUE(nodes && ops);
    for (const auto &[name, e] : nodes->members) {
      auto q = vendors::hmctNodeQtype(doc, name, "Unlisted");
      EXPECT_EQ(q.line, e.members.front().second.line) << name;
      EXPECT_GT(q.column, 1u) << name;
    }
    for (const auto &[type, e] : ops->members) {
      auto q = vendors::hmctNodeQtype(doc, "/not/a/node", type);
      EXPECT_EQ(q.tier, vendors::tierForQtype(e.get("qtype")->text)) << type;
    }
  }
  EXPECT_GE(files, 2u);
}

TEST(HmctConformance, KnownReadings) {
  fs::path file = conformanceDir() / "hmct" / "07_rdt_dit_nash_m_quant_config_EXCERPT.json";
  ASSERT_TRUE(fs::exists(file)) << "missing conformance corpus: " << file;
  std::ifstream in(file);
  std::string text((std::istreambuf_iterator<char>(in)), {});
  auto doc = hmctDoc(text);
  // Legacy InputType0/InputType1 both int16: node-level dual-int16.
  EXPECT_EQ(vendors::hmctNodeQtype(doc, "/blocks.0/attn/MatMul", "MatMul").tier,
            ir::Tier::DualInt16);
  EXPECT_EQ(vendors::hmctNodeQtype(doc, "/t_embedder/Cos", "Cos").tier, ir::Tier::Float);
  EXPECT_EQ(vendors::hmctNodeQtype(doc, "/x/Softmax", "Softmax").tier, ir::Tier::Int16);
  EXPECT_EQ(vendors::hmctNodeQtype(doc, "/x/Conv", "Conv").tier, ir::Tier::Int16); // all_node_type
  auto act = vendors::hmctActivation(doc);
  EXPECT_FALSE(act.method); // calibration_type is a list: a search
  EXPECT_EQ(act.scope, std::optional<std::string>("per_channel"));
  EXPECT_FALSE(act.symmetric); // asymmetric is a list
}

// Translation validation catches the prefix-key and march-default cases in a file as qcc used to
// write them: the `blk` key also reaching `blk.sub`, and nash-p's fp16 default under an int8 IR.
TEST(HorizonValidation, OldOutputDivergesFromTheIR) {
  ir::Spec spec;
  testsupport::Mods mods = {{"blk", "Block"}, {"blk.sub", "Linear"}, {"norm", "LayerNorm"}};
  auto r = testsupport::compileAndEmit("horizon",
                                       "tiers int8 < int16 < fp16 < float\noverride name \"blk\" { "
                                       "tier int16 }\ntarget horizon { march \"nash-p\" }\n",
                                       mods, spec);
  ASSERT_TRUE(r.ok) << r.out;
  const char *old =
      "MARCH = \"nash-p\"\ndef build_qconfig_setter():\n    set_march(MARCH)\n    return "
      "QconfigSetter(\n"
      "        reference_qconfig=get_qconfig(observer=HistogramObserver),\n        templates=[\n"
      "            ModuleNameTemplate({\"\": torch.float16}),\n"
      "            ConvDtypeTemplate(input_dtype=qint8, weight_dtype=qint8),\n"
      "            ModuleNameTemplate({\"blk\": qint16}),\n        ],\n    )\n";
  SourceManager sm;
  DiagnosticEngine diags(sm);
  vendors::VendorReading reading;
  ASSERT_TRUE(vendors::readHorizon(spec, *spec.target("horizon"), old, reading, diags));
  EXPECT_FALSE(vendors::validateReading(spec, *spec.target("horizon"), reading, diags));
  std::string all;
  for (const auto &d : diags.diagnostics())
    all += d.code + ": " + d.message + "\n";
  EXPECT_NE(all.find("module 'blk.sub'"), std::string::npos) << all;
  EXPECT_NE(all.find("module 'norm'"), std::string::npos) << all;
  // What qcc writes now reads back as the IR.
  vendors::VendorReading now;
  DiagnosticEngine d2(sm);
  ASSERT_TRUE(vendors::readHorizon(spec, *spec.target("horizon"), r.out, now, d2));
  EXPECT_TRUE(vendors::validateReading(spec, *spec.target("horizon"), now, d2));
}

// An int8 quant_config for a two-node ONNX inventory, as qcc emits it.
static testsupport::EmitRun emitTwoNodeHmct(ir::Spec &spec) {
  testsupport::Mods mods = {{"/a/Conv", "Conv"}, {"/a/Softmax", "Softmax"}};
  return testsupport::compileAndEmit("hmct", "qspec 1\ndefaults { tier int8 }\ntarget hmct { }\n",
                                     mods, spec, {}, "onnx");
}

// A quant_config HMCT would refuse is reported with its line and column, and a node entry that
// disagrees with the IR is a divergence at the node.
TEST(HmctValidation, RefusalAndDivergence) {
  ir::Spec spec;
  auto r = emitTwoNodeHmct(spec);
  ASSERT_TRUE(r.ok) << r.out;
  SourceManager sm;
  DiagnosticEngine diags(sm);
  vendors::VendorReading reading;
  EXPECT_FALSE(vendors::readHmct(spec, *spec.target("hmct"),
                                 "{\n  \"model_config\": {\"ON\": 1}\n}", reading, diags));
  ASSERT_EQ(diags.diagnostics().size(), 1u);
  EXPECT_EQ(diags.diagnostics()[0].code, "err_hmct_refused");
  EXPECT_NE(diags.diagnostics()[0].message.find("line 2, column 20"), std::string::npos)
      << diags.diagnostics()[0].message;
  DiagnosticEngine d2(sm);
  ASSERT_TRUE(vendors::readHmct(
      spec, *spec.target("hmct"),
      R"({"model_config": {"all_node_type": "int8"}, "node_config": {"/a/Softmax": {"qtype": "int16"}}})",
      reading, d2));
  EXPECT_FALSE(vendors::validateReading(spec, *spec.target("hmct"), reading, d2));
  ASSERT_FALSE(d2.diagnostics().empty());
  EXPECT_EQ(d2.diagnostics()[0].code, "err_emit_divergence");
  EXPECT_NE(d2.diagnostics()[0].message.find("'/a/Softmax'"), std::string::npos)
      << d2.diagnostics()[0].message;
  EXPECT_EQ(reading.modules[1].line, 1u);
}

// The document model is built from nlohmann's SAX events with a hash index per large object: a
// repeated key keeps its first position and takes its last value (as nlohmann::ordered_json and
// HMCT's Python json.load do), in small and in large objects; keys keep their lines.
TEST(HmctDocumentModel, RepeatedKeysFirstPositionLastValue) {
  for (int members : {3, 40}) {
    std::string text = "{\n \"node_config\": {\n";
    for (int i = 0; i < members; ++i)
      text += "  \"n" + std::to_string(i) + "\": {\"qtype\": \"int8\"},\n";
    text += "  \"n1\": {\"qtype\": \"int16\", \"input0\": \"float16\"}\n }\n}\n";
    hmct::QuantConfigDoc doc = hmctDoc(text);
    const hmct::JsonValue *nodes = doc.root.get("node_config");
    ASSERT_NE(nodes, nullptr);
    ASSERT_EQ(nodes->members.size(), static_cast<size_t>(members)) << members;
    EXPECT_EQ(nodes->members[1].first, "n1");
    const hmct::JsonValue &n1 = nodes->members[1].second;
    EXPECT_EQ(n1.line, 4u); // the first occurrence's line
    ASSERT_EQ(n1.members.size(), 2u);
    EXPECT_EQ(n1.get("qtype")->text, "int16");
    EXPECT_EQ(n1.get("input0")->text, "float16");
    EXPECT_EQ(nodes->members[0].second.line, 3u);
    EXPECT_EQ(nodes->members[0].second.column, 3u);
  }
  hmct::QuantConfigDoc doc =
      hmctDoc("{\"a\": [1, -2, 18446744073709551615, 1.5e3, true, null, \"s\"]}");
  const hmct::JsonValue *a = doc.root.get("a");
  ASSERT_NE(a, nullptr);
  std::string texts;
  for (const hmct::JsonValue &v : a->items)
    texts += std::to_string(v.kind) + ":" + v.text + " ";
  EXPECT_EQ(texts, "2:1 2:-2 2:18446744073709551615 3:1500.0 1:true 0: 4:s ");
}

// Keys in ascending order are appended without a lookup; the first key out of order builds the
// index over every member so far (here past the small-object scan), and later repeats still find
// their first position. A text without comment markers is parsed in place.
TEST(HmctDocumentModel, RepeatAfterALongAscendingRun) {
  std::string text = "{\n \"node_config\": {\n";
  for (int i = 0; i < 40; ++i)
    text += "  \"n" + std::string(i < 10 ? "0" : "") + std::to_string(i) +
            "\": {\"qtype\": \"int8\"},\n";
  text += "  \"n03\": {\"qtype\": \"int16\"},\n  \"m\": {\"qtype\": \"float16\"},\n";
  text += "  \"n39\": {\"qtype\": \"float32\"},\n  \"m\": {\"qtype\": \"int16\"}\n }\n}\n";
  hmct::QuantConfigDoc doc = hmctDoc(text);
  EXPECT_FALSE(doc.hadComments);
  const hmct::JsonValue *nodes = doc.root.get("node_config");
  ASSERT_NE(nodes, nullptr);
  ASSERT_EQ(nodes->members.size(), 41u);
  EXPECT_EQ(nodes->members[3].first, "n03");
  EXPECT_EQ(nodes->members[3].second.get("qtype")->text, "int16");
  EXPECT_EQ(nodes->members[3].second.line, 6u);
  EXPECT_EQ(nodes->members[39].second.get("qtype")->text, "float32");
  EXPECT_EQ(nodes->members[40].first, "m");
  EXPECT_EQ(nodes->members[40].second.get("qtype")->text, "int16");
}

// The checks spell a finding's place out only when there is a finding: node and op entries by
// their path, a ModuleNameTemplate entry by its key.
TEST(HmctDocumentModel, FindingsNameTheirPath) {
  hmct::QuantConfigDoc doc =
      hmctDoc("{\"op_config\": {\"Conv\": {\"qtype\": \"int3\"}},\n"
              " \"node_config\": {\"a\": {\"qtype\": \"int8\"}, \"b.c\": {\"input0\": 7}}}\n");
  std::string messages;
  for (const hmct::Issue &i : hmct::checkQuantConfig(doc))
    messages += std::string(hmct::checkName(i.check)) + " " + i.message + "\n";
  EXPECT_NE(messages.find("qtype op_config.Conv.qtype: 'int3' is not an HMCT qtype"),
            std::string::npos)
      << messages;
  EXPECT_NE(messages.find("value-type node_config.b.c.input0: a qtype is a string"),
            std::string::npos)
      << messages;
  EXPECT_EQ(messages.find("node_config.a"), std::string::npos) << messages;
  horizon::QconfigSetterDoc setter = setterDoc(
      "MARCH = "
      "\"nash-e\"\nset_march(MARCH)\nQconfigSetter(reference_qconfig=get_qconfig(observer="
      "MinMaxObserver),\n"
      "  templates=[ModuleNameTemplate({\"\": qint8, \"x.y\": qint9, \"z\": qint16})])\n");
  std::string found;
  for (const horizon::SetterIssue &i : horizon::checkQconfigSetter(setter))
    found += i.check + " " + i.message + "\n";
  EXPECT_NE(found.find("dtype ModuleNameTemplate[\"x.y\"]: not a dtype"), std::string::npos)
      << found;
  EXPECT_EQ(found.find("\"z\""), std::string::npos) << found;
}

// A dict or list is reserved once for its items (commas at its own depth, not those of a nested
// dict, list or call), not grown by doubling.
TEST(HorizonSetterDoc, DictsAndListsReservedForTheirItems) {
  std::string text =
      "QconfigSetter(reference_qconfig=get_qconfig(observer=MinMaxObserver), templates=[\n"
      "  ModuleNameTemplate({\"\": qint8}),\n  ModuleNameTemplate({\n";
  for (int i = 0; i < 40; ++i)
    text += "    \"m" + std::to_string(i) + "\": torch.float32,\n";
  text += "    \"n\": {\"dtype\": qint16, \"threshold\": [1, 2, 3]},\n  }, freeze=True),\n])\n";
  horizon::QconfigSetterDoc doc = setterDoc(text);
  ASSERT_EQ(doc.templates().size(), 2u);
  const horizon::PyValue &dict = doc.templates()[1].items[0];
  ASSERT_EQ(dict.entries.size(), 41u);
  EXPECT_LE(dict.entries.capacity(), 42u); // doubling would leave 64
  EXPECT_EQ(dict.entries[40].second.entries.capacity(), 2u);
  EXPECT_EQ(dict.entries[40].second.entries[1].second.items.capacity(), 3u);
  EXPECT_LE(doc.setter.kwarg("templates")->items.capacity(), 3u);
}

// Each string reads back as the escaper wrote it (every escape it uses, the text between
// escapes, one string right after another), a docstring as written, names and numbers as their
// text, and an unterminated string or a bad escape fails where it is.
TEST(HorizonSetterDoc, StringsReadBackAsTheEscaperWroteThem) {
  const std::vector<std::string> keys = {"plain.name",
                                         "a\"b\\c",
                                         "tab\there\nline\rcr",
                                         "\x01\x7f",
                                         "caf\xc3\xa9 \xe2\x80\xa8 \xf0\x9f\x98\x80",
                                         "",
                                         "end\\"};
  std::string march, why;
  ASSERT_TRUE(horizon::pythonStringLiteral("na\"sh-p", march, why));
  std::string text = "\"\"\"A doc \\n \"string\".\"\"\"\nMARCH = " + march +
                     "\n\ndef f():\n    set_march(MARCH)\n    return QconfigSetter(x=-1.5e-3, "
                     "templates=[ModuleNameTemplate({";
  for (const std::string &k : keys) {
    std::string lit;
    ASSERT_TRUE(horizon::pythonStringLiteral(k, lit, why)) << why;
    text += lit + ": torch . float32, ";
  }
  text += "})])\n";
  horizon::QconfigSetterDoc doc = setterDoc(text);
  EXPECT_EQ(doc.march, "na\"sh-p");
  EXPECT_EQ(doc.setter.kwarg("x")->text, "-1.5e-3");
  ASSERT_EQ(doc.templates().size(), 1u);
  const horizon::PyValue &dict = doc.templates()[0].items[0];
  ASSERT_EQ(dict.entries.size(), keys.size());
  for (size_t i = 0; i < keys.size(); ++i) {
    EXPECT_EQ(dict.entries[i].first.text, keys[i]) << i;
    EXPECT_EQ(dict.entries[i].second.text, "torch.float32") << i;
  }
  horizon::QconfigSetterDoc bad;
  uint32_t line = 0, col = 0;
  EXPECT_FALSE(horizon::parseQconfigSetter("QconfigSetter(a=\"x\\q\")", bad, why, line, col));
  EXPECT_EQ(why, "escape the generated Python does not use");
  EXPECT_EQ(col, 21u);
  EXPECT_FALSE(horizon::parseQconfigSetter("QconfigSetter(\n  a=\"open)\n", bad, why, line, col));
  EXPECT_EQ(why, "unterminated string literal");
  EXPECT_EQ(line, 2u);
}

TEST(HmctDocumentModel, SyntaxErrorsKeepNlohmannsMessageAndPlace) {
  hmct::QuantConfigDoc doc;
  std::string error;
  uint32_t line = 0, col = 0;
  EXPECT_FALSE(hmct::parseQuantConfigText("{\n  \"a\": 1,\n  \"b\" 2\n}\n", doc, error, line, col));
  EXPECT_EQ(line, 3u);
  EXPECT_EQ(col, 7u);
  EXPECT_EQ(error.rfind("parse error at line 3, column 0: syntax error while parsing object "
                        "separator - unexpected number literal; expected ':'",
                        0),
            0u)
      << error;
  EXPECT_EQ(doc.root.kind, hmct::JsonValue::Null);
}

// Keys are placed where the parser read them: one that needs escapes ("a\"b", a tab) is found as
// written, and the lines after it stay right; a comment-stripped line counts.
TEST(HmctDocumentModel, EscapedKeysAndLinesAfterThem) {
  hmct::QuantConfigDoc doc =
      hmctDoc("{\n \"node_config\": {\n  \"a\\\"b\": {\"qtype\": \"int8\"},\n"
              "  // a comment\n  \"t\\tc\": {\"qtype\": \"int16\"},\n"
              "  \"d\":\n   {\"qtype\": \"int16\"}\n }\n}\n");
  const hmct::JsonValue *nodes = doc.root.get("node_config");
  ASSERT_NE(nodes, nullptr);
  ASSERT_EQ(nodes->members.size(), 3u);
  EXPECT_EQ(nodes->members[0].first, "a\"b");
  EXPECT_EQ(nodes->members[0].second.line, 3u);
  EXPECT_EQ(nodes->members[1].first, "t\tc");
  EXPECT_EQ(nodes->members[1].second.line, 5u);
  EXPECT_EQ(nodes->members[1].second.column, 3u);
  EXPECT_EQ(nodes->members[1].second.get("qtype")->line, 5u);
  EXPECT_EQ(nodes->members[2].second.line, 6u);
  EXPECT_EQ(nodes->members[2].second.get("qtype")->line, 7u);
  EXPECT_EQ(nodes->members[2].second.get("qtype")->column, 5u);
}

// A key's place is where the parser read it, even where its spelling appears earlier as a value
// ("b", line 2), or where it is spelled with a \u escape (c); a repeated key keeps its first place.
TEST(HmctDocumentModel, KeysArePlacedWhereTheParserReadThem) {
  hmct::QuantConfigDoc doc =
      hmctDoc("{\"node_config\": {\n"
              "  \"a\": {\"qtype\": \"int8\", \"note\": \"b\"},\n"
              "  \"b\": {\"qtype\": \"int8\"},\n"
              "   \"\\u0063\": {\"qtype\": \"int16\", \"qtype\": \"int8\"}}}\n");
  const hmct::JsonValue *nodes = doc.root.get("node_config");
  ASSERT_NE(nodes, nullptr);
  ASSERT_EQ(nodes->members.size(), 3u);
  const hmct::JsonValue &a = nodes->members[0].second;
  EXPECT_EQ(a.line, 2u);
  EXPECT_EQ(a.column, 3u);
  EXPECT_EQ(a.get("note")->column, 26u);
  EXPECT_EQ(nodes->members[1].first, "b");
  EXPECT_EQ(nodes->members[1].second.line, 3u);
  EXPECT_EQ(nodes->members[1].second.column, 3u);
  EXPECT_EQ(nodes->members[1].second.get("qtype")->column, 9u);
  EXPECT_EQ(nodes->members[2].first, "c");
  const hmct::JsonValue &c = nodes->members[2].second;
  EXPECT_EQ(c.line, 4u);
  EXPECT_EQ(c.column, 4u);
  ASSERT_EQ(c.members.size(), 1u);
  EXPECT_EQ(c.get("qtype")->text, "int8");
  EXPECT_EQ(c.get("qtype")->column, 15u);
  hmct::QuantConfigDoc items = hmctDoc("{\"x\": \"\\\\\",\n \"l\\\\\\\"\": [{\"k\": 1}, 2]}");
  const hmct::JsonValue *l = items.root.get("l\\\"");
  ASSERT_NE(l, nullptr);
  EXPECT_EQ(l->column, 2u);
  ASSERT_EQ(l->items.size(), 2u);
  EXPECT_EQ(l->items[1].line, 2u); // an array item: at its array's place
  EXPECT_EQ(l->items[1].column, 2u);
  EXPECT_EQ(l->items[0].get("k")->column, 13u);
}

// A value nested deeper than 200 levels is kept as a null with nothing below it, placed at its
// key or array; what follows the deep part is read as usual.
TEST(HmctDocumentModel, NothingIsKeptBelowDepth200) {
  for (bool objects : {false, true}) {
    std::string open = objects ? "{\"k\": " : "[", close = objects ? "}" : "]";
    std::string deep;
    for (int i = 0; i < 300; ++i)
      deep += open;
    deep += "1";
    for (int i = 0; i < 300; ++i)
      deep += close;
    hmct::QuantConfigDoc doc = hmctDoc("{\"x\": " + deep + ",\n \"y\": 1}");
    const hmct::JsonValue *v = doc.root.get("x");
    ASSERT_NE(v, nullptr);
    for (int depth = 1; depth <= 200; ++depth) {
      ASSERT_EQ(v->kind, objects ? hmct::JsonValue::Object : hmct::JsonValue::Array) << depth;
      ASSERT_EQ(v->items.size() + v->members.size(), 1u) << depth;
      v = objects ? &v->members[0].second : &v->items[0];
    }
    EXPECT_EQ(v->kind, hmct::JsonValue::Null);
    EXPECT_TRUE(v->items.empty() && v->members.empty() && v->text.empty());
    EXPECT_EQ(v->line, 1u);
    EXPECT_EQ(v->column, objects ? 8u + 6u * 199u : 2u); // the last kept key, or "x"
    const hmct::JsonValue *y = doc.root.get("y");
    ASSERT_NE(y, nullptr);
    EXPECT_EQ(y->text, "1");
    EXPECT_EQ(y->line, 2u);
    EXPECT_EQ(y->column, 2u);
  }
}

// ModuleNameTemplate keys: the longest key that is the name or a dotted prefix of it ("" only
// when asked, or for a name starting with a dot), a repeated key keeping its last value, and
// many keys (the table grows past its first size).
TEST(HorizonPrefixKeys, LongestDottedPrefix) {
  std::vector<std::string> many;
  for (int i = 0; i < 1000; ++i)
    many.push_back("m.l" + std::to_string(i));
  horizon::PrefixKeys keys;
  EXPECT_FALSE(keys.longest("a", true));
  keys.add("blk", 1);
  keys.add("blk.sub", 2);
  keys.add("blk", 3);
  keys.add("", 4);
  for (size_t i = 0; i < many.size(); ++i)
    keys.add(many[i], 10 + i);
  auto hit = keys.longest("blk.sub.conv", false);
  ASSERT_TRUE(hit);
  EXPECT_EQ(hit->value, 2u);
  EXPECT_EQ(hit->length, 7u);
  hit = keys.longest("blk.other", false);
  ASSERT_TRUE(hit);
  EXPECT_EQ(hit->value, 3u); // the last value of the repeated key
  hit = keys.longest("blk", false);
  ASSERT_TRUE(hit);
  EXPECT_EQ(hit->length, 3u);                    // the name itself
  EXPECT_FALSE(keys.longest("blkx.sub", false)); // not a dotted prefix
  hit = keys.longest("blkx.sub", true);
  ASSERT_TRUE(hit);
  EXPECT_EQ(hit->value, 4u); // "" reaches every name
  hit = keys.longest(".x", false);
  ASSERT_TRUE(hit);
  EXPECT_EQ(hit->length, 0u);
  hit = keys.longest("m.l999.fc", false);
  ASSERT_TRUE(hit);
  EXPECT_EQ(hit->value, 1009u);
  EXPECT_FALSE(keys.longest("m.l1000", false));
  // An index whose one key is "" (the emitter's `ModuleNameTemplate({"": qint8})`) answers
  // without reading the name: the same rule.
  horizon::PrefixKeys global;
  global.add("", 7);
  horizon::PrefixKeys::Cursor cursor;
  for (const char *name : {"blk.sub", ".x", "", "blk"}) {
    bool reached = !*name || *name == '.';
    EXPECT_EQ(global.longest(name, false, cursor).has_value(), reached) << name;
    hit = global.longest(name, true, cursor);
    ASSERT_TRUE(hit) << name;
    EXPECT_EQ(hit->value, 7u);
    EXPECT_EQ(hit->length, 0u);
  }
  // A repeated "" keeps its last value too, in both kinds of index.
  keys.add("", 5);
  global.add("", 8);
  EXPECT_EQ(keys.longest("blkx.sub", true)->value, 5u);
  EXPECT_EQ(global.longest("blk", true)->value, 8u);
}

// A cursor resumes after the dotted prefix a name shares with the previous one: every answer is
// the one-shot answer, whatever the order (tree order, jumps back, a name and its own prefix,
// names sharing text but not a whole segment, a name back after a sibling that differs in one
// character, a second index with the same cursor).
TEST(HorizonPrefixKeys, CursorGivesTheOneShotAnswerInAnyOrder) {
  horizon::PrefixKeys keys, other;
  for (const char *k : {"a", "a.b", "a.b.c1", "a.bx", "m.l1", "m.l1.x.y", ".d"})
    keys.add(k, std::string_view(k).size());
  other.add("a.b.c", 99);
  const std::vector<std::string> names = {
      "a.b.c1.k", "a.b.c2.k", "a.b.c1.k", "a.b.c1",     "a.b.c2.k", "a.b",     "a.bx.c",
      "a.b.c1.k", "a.c",      "a",        "m.l1.x.y.z", "m.l1.x.z", "m.l10.x", "m.l1",
      "z.y",      ".d.e",     ".",        "",           "a..b",     "a.b.",    "m.l1.x.y"};
  horizon::PrefixKeys::Cursor cursor;
  for (bool withEmpty : {false, true})
    for (int pass = 0; pass < 2; ++pass)
      for (size_t n = 0; n < names.size(); ++n) {
        const std::string &name = names[pass ? names.size() - 1 - n : n];
        auto want = keys.longest(name, withEmpty), got = keys.longest(name, withEmpty, cursor);
        ASSERT_EQ(want.has_value(), got.has_value()) << name;
        if (want) {
          EXPECT_EQ(want->value, got->value) << name;
          EXPECT_EQ(want->length, got->length) << name;
        }
      }
  auto hit = other.longest("a.b.c.d", false, cursor); // another index: the cursor starts over
  ASSERT_TRUE(hit);
  EXPECT_EQ(hit->value, 99u);
  hit = keys.longest("a.b.c.d", false, cursor);
  ASSERT_TRUE(hit);
  EXPECT_EQ(hit->length, 3u);
}

// The emitter's parsed document handed to the read-back (vendors/Parsed.h): the HMCT and
// Horizon readers take what the emitter remembered for exactly these bytes (a doctored document
// shows it was taken, not parsed again), once; another document type, other bytes, another tag
// or forgetParsed miss it.
TEST(ParsedHandoff, ReadersTakeTheEmittersDocumentOnlyForItsBytes) {
  ir::Spec spec;
  auto r = emitTwoNodeHmct(spec);
  ASSERT_TRUE(r.ok) << r.out;
  SourceManager sm;
  auto reads = [&](const hmct::QuantConfigDoc *remembered) {
    if (remembered)
      vendors::rememberParsed(r.out, 0, *remembered);
    DiagnosticEngine diags(sm);
    vendors::VendorReading reading;
    EXPECT_TRUE(vendors::readHmct(spec, *spec.target("hmct"), r.out, reading, diags));
    return vendors::validateReading(spec, *spec.target("hmct"), reading, diags);
  };
  EXPECT_TRUE(reads(nullptr)); // what the emitter remembered is what it wrote
  hmct::QuantConfigDoc doctored = hmctDoc(r.out);
  for (auto &[key, v] : doctored.root.members)
    if (key == "model_config")
      for (auto &[k, w] : v.members)
        if (k == "all_node_type")
          w.text = "int16";
  EXPECT_FALSE(reads(&doctored)); // taken: the doctored qtype diverges
  EXPECT_TRUE(reads(nullptr));    // the take emptied the slot: parsed again
  vendors::rememberParsed(r.out, 0, doctored);
  horizon::QconfigSetterDoc setter;
  EXPECT_FALSE(vendors::takeParsed(r.out, 0, setter)); // another document type misses (and empties)
  EXPECT_TRUE(reads(nullptr));
  hmct::QuantConfigDoc got;
  vendors::rememberParsed(r.out, 0, doctored);
  EXPECT_FALSE(vendors::takeParsed(r.out, 1, got)); // another tag
  vendors::rememberParsed(r.out, 0, doctored);
  EXPECT_FALSE(vendors::takeParsed(r.out + " ", 0, got)); // other bytes
  vendors::rememberParsed(r.out, 0, doctored);
  vendors::forgetParsed();
  EXPECT_FALSE(vendors::takeParsed(r.out, 0, got));
  vendors::rememberParsed(r.out, 0, doctored);
  EXPECT_TRUE(vendors::takeParsed(r.out, 0, got));
}

namespace {

// The value checks qlint reports as hmct-search-config and hmct-value-type: a search metric or
// layerwise qtype HMCT does not know, and a list of two types (one finding, at the odd item).
TEST(HmctDocumentModel, SearchConfigAndMixedLists) {
  hmct::QuantConfigDoc doc = hmctDoc(
      "{\"model_config\": {\"layerwise_search\": {\"metric\": \"l2\", \"qtype\": \"fp16\"},\n"
      " \"activation\": {\"calibration_type\": \"max\", \"per_channel\": [true, \"false\"]}}}\n");
  std::string messages;
  for (const hmct::Issue &i : hmct::checkQuantConfig(doc))
    messages += std::string(hmct::checkName(i.check)) + " " + i.message + "\n";
  EXPECT_NE(messages.find("search-config model_config.layerwise_search.metric: 'l2'"),
            std::string::npos)
      << messages;
  EXPECT_NE(messages.find("search-config model_config.layerwise_search.qtype: 'fp16'"),
            std::string::npos)
      << messages;
  EXPECT_NE(messages.find("value-type model_config.activation.per_channel: a list holds values of "
                          "one type only"),
            std::string::npos)
      << messages;
  EXPECT_EQ(messages.find("expects true or false"), std::string::npos) << messages;
}

} // namespace
