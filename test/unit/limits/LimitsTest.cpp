// Count limits that a lit test cannot reach at their real size (5 million modules is a 150 MB
// file): each is lowered through its options struct, and the error must be the documented one
// (docs/limits.md) with the tool refusing the input.
#include "frontend/Frontend.h"
#include "frontend/readers/Readers.h"

#include <gtest/gtest.h>

#include <fstream>
#include <string>
#include <unistd.h>

using namespace qspec;

namespace {

std::string writeTemp(const std::string &name, const std::string &text) {
  std::string path =
      ::testing::TempDir() + "/qspec-limits-" + std::to_string(::getpid()) + "-" + name;
  std::ofstream(path, std::ios::binary) << text;
  return path;
}

bool hasDiag(const DiagnosticEngine &diags, DiagID id) {
  for (const Diagnostic &d : diags.diagnostics())
    if (d.code == diagInfo(id).id)
      return true;
  return false;
}

} // namespace

TEST(Limits, TooManyModulesManifest) {
  std::string path = writeTemp("modules.txt", "a Linear\nb Linear\nc Linear\nd Linear\n");
  SourceManager sm;
  DiagnosticEngine diags(sm);
  ir::Inventory inv;
  readers::ReaderLimits limits;
  limits.maxModules = 3;
  EXPECT_FALSE(readers::readInventory(path, inv, diags, SourceRange{}, limits));
  EXPECT_TRUE(hasDiag(diags, DiagID::err_inventory_too_many));
  // At the limit: accepted.
  SourceManager sm2;
  DiagnosticEngine diags2(sm2);
  limits.maxModules = 4;
  EXPECT_TRUE(readers::readInventory(path, inv, diags2, SourceRange{}, limits));
  EXPECT_EQ(inv.modules.size(), 4u);
  ::unlink(path.c_str());
}

TEST(Limits, TooManyModulesIndexJson) {
  std::string path =
      writeTemp("model.safetensors.index.json",
                R"({"weight_map": {"a.weight": "x", "b.weight": "x", "c.weight": "x"}})");
  SourceManager sm;
  DiagnosticEngine diags(sm);
  ir::Inventory inv;
  readers::ReaderLimits limits;
  limits.maxModules = 2;
  EXPECT_FALSE(readers::readInventory(path, inv, diags, SourceRange{}, limits));
  EXPECT_TRUE(hasDiag(diags, DiagID::err_inventory_too_many));
  ::unlink(path.c_str());
}

TEST(Limits, TooManyScores) {
  std::string path = writeTemp("analysis_result.yaml", "layer_scores:\n"
                                                       "  - {name: model.layers.0, score: 3}\n"
                                                       "  - {name: model.layers.1, score: 2}\n"
                                                       "  - {name: model.layers.2, score: 1}\n"
                                                       "method: mse_layer_wise\n");
  SourceManager sm;
  DiagnosticEngine diags(sm);
  ir::Scores scores;
  readers::ReaderLimits limits;
  limits.maxScores = 2;
  EXPECT_FALSE(readers::readScores(path, scores, diags, SourceRange{}, limits));
  EXPECT_TRUE(hasDiag(diags, DiagID::err_scores_too_many));
  ::unlink(path.c_str());
}

TEST(Limits, TooManyRules) {
  std::string path = writeTemp("rules.qspec", "qspec 1\n"
                                              "override name \"a\" { tier float }\n"
                                              "override name \"b\" { tier float }\n"
                                              "protect \"c\"\n");
  SourceManager sm;
  DiagnosticEngine diags(sm);
  ir::Spec spec;
  frontend::FrontendOptions opts;
  opts.maxRules = 2;
  opts.loadInputs = false;
  EXPECT_FALSE(frontend::loadSpec(path, spec, diags, opts));
  EXPECT_TRUE(hasDiag(diags, DiagID::err_too_many_rules));
  ::unlink(path.c_str());
}

TEST(Limits, FileSizeFromOptions) {
  std::string path = writeTemp("size.qspec", "qspec 1\n// " + std::string(200, 'x') + "\n");
  SourceManager sm;
  DiagnosticEngine diags(sm);
  ir::Spec spec;
  frontend::FrontendOptions opts;
  opts.parseLimits.maxFileBytes = 100;
  EXPECT_FALSE(frontend::loadSpec(path, spec, diags, opts));
  EXPECT_TRUE(diags.hasErrors());
  ::unlink(path.c_str());
}
