// printIRJSON streams the "modules", "groups" and "excluded" arrays by hand (ir/IRPrinter.cpp). It
// must be exactly what nlohmann's dump(2) prints for the same document: parsing the output and
// dumping it again must give the same bytes, for plain names and for names that need escaping or
// are not ASCII.
#include "emitters/Emitter.h"
#include "frontend/Frontend.h"
#include "ir/IRPrinter.h"
#include "passes/Pass.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <sstream>

using namespace qspec;

namespace {

std::string printIR(const std::string &text,
                    const std::vector<std::pair<std::string, std::string>> &modules) {
  emit::registerAllEmitters();
  SourceManager sm;
  DiagnosticEngine diags(sm);
  FileID f = sm.addFile("t.qspec", text);
  auto root = frontend::parse(f, diags);
  frontend::FrontendOptions o;
  o.loadInputs = false;
  ir::Spec spec;
  EXPECT_TRUE(root && frontend::buildSpec(*root, "t.qspec", spec, diags, o));
  spec.inventory.path = "hand-built";
  spec.inventory.format = "manifest";
  for (const auto &[name, type] : modules)
    spec.inventory.modules.push_back({name, type, -1, 0});
  spec.inventory.rebuildIndex();
  if (spec.blockPattern)
    readers::assignBlocks(spec.inventory, *spec.blockPattern);
  EXPECT_TRUE(passes::runPipeline(spec, diags));
  std::ostringstream os;
  ir::printIRJSON(spec, sm, os);
  return os.str();
}

void expectSameAsNlohmann(const std::string &out) {
  auto doc = nlohmann::ordered_json::parse(out, nullptr, false);
  ASSERT_FALSE(doc.is_discarded()) << out;
  EXPECT_EQ(out, doc.dump(2, ' ', false, nlohmann::ordered_json::error_handler_t::replace) + "\n");
}

const char *kSpec = R"(qspec 1
model "m" { blocks "model.layers.{i}" }
defaults { tier int8 weight per_channel symmetric minmax act int8 per_tensor }
protect "lm_head"
group "model.layers.{i}.mlp.gate_proj" with "model.layers.{i}.mlp.up_proj"
override type Linear { weight int8 asymmetric }
override name "model.layers.1.*" { tier int16 act int16 }
tune { metric accuracy >= 0.5  exclude "model.layers.0.mlp.gate_proj", "model.layers.0.mlp.up_proj" }
target horizon { march nash-p }
)";

TEST(IRPrinter, StreamedModulesMatchNlohmannDump) {
  std::string out = printIR(kSpec, {{"model.embed_tokens", "Embedding"},
                                    {"model.layers.0.mlp.gate_proj", "Linear"},
                                    {"model.layers.0.mlp.up_proj", "Linear"},
                                    {"model.layers.1.mlp.gate_proj", "Linear"},
                                    {"model.layers.1.mlp.up_proj", "Linear"},
                                    {"model.norm", "RMSNorm"},
                                    {"lm_head", "Linear"}});
  expectSameAsNlohmann(out);
  auto doc = nlohmann::ordered_json::parse(out);
  ASSERT_EQ(doc["modules"].size(), 7u);
  EXPECT_EQ(doc["modules"][1]["tuned"], true);
  EXPECT_EQ(doc["modules"][1]["group"], "group@5:1[0]");
  EXPECT_EQ(doc["modules"][3]["tier"], "int16");
  EXPECT_EQ(doc["modules"][3]["block"], 1);
  EXPECT_EQ(doc["modules"][3]["weight"]["symmetric"]["value"], false);
  EXPECT_EQ(doc["modules"][6]["protected"], true);
  EXPECT_TRUE(doc["modules"][5]["weight"]["scope"]["from"]["at"].get<std::string>().rfind(
                  "t.qspec:3:", 0) == 0);
}

TEST(IRPrinter, StreamedGroupsAndExcludedMatchNlohmannDump) {
  std::string out = printIR(kSpec, {{"model.layers.0.mlp.gate_proj", "Linear"},
                                    {"model.layers.0.mlp.up_proj", "Linear"},
                                    {"model.layers.1.mlp.gate_proj", "Linear"},
                                    {"model.layers.1.mlp.up_proj", "Linear"},
                                    {"model.norm", "RMSNorm"},
                                    {"lm_head", "Linear"}});
  expectSameAsNlohmann(out);
  auto doc = nlohmann::ordered_json::parse(out);
  ASSERT_EQ(doc["groups"].size(), 2u);
  EXPECT_EQ(doc["groups"][1]["kind"], "declared");
  EXPECT_EQ(doc["groups"][1]["members"],
            (nlohmann::ordered_json{"model.layers.1.mlp.gate_proj", "model.layers.1.mlp.up_proj"}));
  // The tuning excludes and the protect are float.
  EXPECT_EQ(doc["excluded"], (nlohmann::ordered_json{"model.layers.0.mlp.gate_proj",
                                                     "model.layers.0.mlp.up_proj", "lm_head"}));
  // Without float modules or groups both are empty arrays.
  std::string none =
      printIR("qspec 1\ndefaults { tier int8 }\ntarget hmct { march nash-p }\n", {{"a", "MatMul"}});
  expectSameAsNlohmann(none);
  EXPECT_NE(none.find("\"groups\": [],\n  \"excluded\": []\n}"), std::string::npos);
}

TEST(IRPrinter, NamesNeedingEscapesMatchNlohmannDump) {
  std::string out = printIR(kSpec, {{"a\"quote", "Linear"},
                                    {"back\\slash", "Linear"},
                                    {"tab\there", "Linear"},
                                    {"caf\xc3\xa9.\xe6\xa8\xa1\xe5\x9e\x8b", "Linear"},
                                    {"bad\xff utf8", "Linear"},
                                    {"del\x7f", "Linear"},
                                    {"lm_head", "Linear"}});
  expectSameAsNlohmann(out);
  auto doc = nlohmann::ordered_json::parse(out);
  EXPECT_EQ(doc["modules"][0]["name"], "a\"quote");
  EXPECT_EQ(doc["modules"][2]["name"], "tab\there");
}

TEST(IRPrinter, NoInventoryPrintsAnEmptyModuleArray) {
  SourceManager sm;
  DiagnosticEngine diags(sm);
  ir::Spec spec;
  std::ostringstream os;
  ir::printIRJSON(spec, sm, os);
  expectSameAsNlohmann(os.str());
  EXPECT_NE(os.str().find("\"modules\": []"), std::string::npos);
}

} // namespace
