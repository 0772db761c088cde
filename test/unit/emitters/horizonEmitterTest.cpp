// Horizon QconfigSetter emitter: the one escaper, and the generated module executed against the
// stub plugin (test/Inputs/horizon_stub) with the recorded names and dtypes compared with the
// resolved IR, including names a manifest cannot hold (newlines, tabs).
#include "emitters/Emitter.h"
#include "vendors/horizon/HorizonRules.h"
#include "emitters/horizon/PyPrinter.h"
#include "frontend/Frontend.h"
#include "passes/Pass.h"

#include "EmitTestSupport.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <unistd.h>

using namespace qspec;
namespace fs = std::filesystem;

namespace {

using testsupport::Mods;
using HorizonRun = testsupport::EmitRun;

fs::path horizonTempDir() {
  fs::path dir = fs::temp_directory_path() / ("qspec_emitB_horizon_" + std::to_string(::getpid()));
  fs::create_directories(dir);
  return dir;
}

HorizonRun compileHorizon(const std::string &specText, const Mods &mods, ir::Spec &spec) {
  return testsupport::compileAndEmit("horizon", specText, mods, spec);
}

// Runs the module against the stub plugin; returns the records (one JSON object per line).
std::vector<nlohmann::json> record(const std::string &module) {
  fs::path dir = horizonTempDir();
  fs::path py = dir / "setter.py", out = dir / "records.txt";
  std::ofstream(py) << module;
  std::string stub = std::string(QSPEC_SOURCE_DIR) + "/test/Inputs/horizon_stub/record_setter.py";
  std::string cmd =
      "/usr/bin/python3 '" + stub + "' '" + py.string() + "' > '" + out.string() + "'";
  EXPECT_EQ(std::system(cmd.c_str()), 0) << module;
  std::vector<nlohmann::json> recs;
  std::ifstream in(out);
  std::string line;
  while (std::getline(in, line))
    recs.push_back(nlohmann::json::parse(line));
  return recs;
}

const char *dtypeOf(ir::Tier t) {
  switch (t) {
  case ir::Tier::Int8:
    return "qint8";
  case ir::Tier::Int16:
    return "qint16";
  case ir::Tier::FP16:
    return "torch.float16";
  case ir::Tier::Float:
    return "torch.float32";
  default:
    return "?";
  }
}

} // namespace

TEST(HorizonRulesTest, OneEscaper) {
  std::string out, why;
  ASSERT_TRUE(horizon::pythonStringLiteral("a\"b\\c\nd\re\tf\x01g\x7f", out, why));
  EXPECT_EQ(out, "\"a\\\"b\\\\c\\nd\\re\\tf\\x01g\\x7f\"");
  ASSERT_TRUE(horizon::pythonStringLiteral("h\xc3\xa9llo \xe2\x80\xa8 \xf0\x9f\x98\x80", out, why));
  EXPECT_EQ(out, "\"h\\u00e9llo \\u2028 \\U0001f600\"");
  EXPECT_FALSE(horizon::pythonStringLiteral(std::string("a\0b", 3), out, why));
  EXPECT_FALSE(horizon::pythonStringLiteral("bad\xff", out, why));
  EXPECT_FALSE(horizon::pythonStringLiteral("\xed\xa0\x80", out, why)); // a surrogate
  EXPECT_FALSE(horizon::pythonStringLiteral("\xc0\xaf", out, why));     // overlong
  for (const char *name :
       {"backbone.layer1.0.conv", "a", "_", "_x9", "A.B", "0", "0.12.3", "x_1.23.y"})
    EXPECT_TRUE(horizon::isDottedModuleName(name)) << name;
  for (const char *name : {"", ".", "a.", ".a", "a..b", "sp ace", "1a", "a.1b", "a-b", "a.b:c",
                           "caf\xc3\xa9", "a.\xff"})
    EXPECT_FALSE(horizon::isDottedModuleName(name)) << name;
}

TEST(HorizonRulesTest, VendorFacts) {
  double t;
  std::string why;
  ASSERT_TRUE(horizon::thresholdForScale(0.05, "qint8", t, why));
  EXPECT_DOUBLE_EQ(t, 6.4);
  ASSERT_TRUE(horizon::thresholdForScale(1.0 / 32768, "qint16", t, why));
  EXPECT_DOUBLE_EQ(t, 1.0);
  EXPECT_FALSE(horizon::thresholdForScale(0.1, "torch.float16", t, why));
  EXPECT_EQ(horizon::pythonFloat(1.0), "1.0");
  EXPECT_EQ(horizon::pythonFloat(6.4), "6.4");
  EXPECT_TRUE(horizon::marchDefaultsToFloat16("nash-p"));
  EXPECT_FALSE(horizon::marchDefaultsToFloat16("nash-m"));
  EXPECT_EQ(horizon::observerClass("mse"), "MSEObserver");
  EXPECT_EQ(horizon::observerClass("percentile"), "");
}

TEST(HorizonPrinterTest, Substitutes) {
  horizon::PyPrinter p;
  p.print("x = $a$\n", {{"a", "1"}});
  p.indent();
  p.print("y = $$ $b$\n", {{"b", "\"s\""}});
  EXPECT_EQ(p.str(), "x = 1\n    y = $ \"s\"\n");
}

TEST(HorizonEmitterTest, StubRecordsMatchIR) {
  Mods mods = {
      {"backbone.conv1", "Conv2d"}, {"backbone.conv2", "Conv2d"}, {"attn.matmul", "MatMul"},
      {"head.fc", "Linear"},        {"head.norm", "LayerNorm"},   {"lm_head", "Linear"},
      {"new\nline", "Linear"},      {"tab\tname", "Conv2d"},      {"q\"uote", "LayerNorm"}};
  ir::Spec spec;
  HorizonRun r = compileHorizon("tiers int8 < int16 < dual-int16 < fp16 < float\n"
                                "defaults { tier int8 }\n"
                                "protect \"lm_head\"\n"
                                "override name \"backbone.conv2\", \"new\\nline\" { tier int16 }\n"
                                "override name \"attn.matmul\" { tier dual-int16 }\n"
                                "override type LayerNorm { tier fp16 }\n"
                                "tune { exclude \"tab\\tname\" }\n"
                                "target horizon { march \"nash-m\" }\n",
                                mods, spec);
  ASSERT_TRUE(r.ok) << ::testing::PrintToString(r.ids);
  auto recs = record(r.out);
  ASSERT_FALSE(recs.empty());
  EXPECT_EQ(recs[0]["march"], "nash-m");
  EXPECT_EQ(recs[0]["global"], "qint8");
  std::map<std::string, nlohmann::json> byName;
  for (const auto &rec : recs)
    if (rec.contains("name"))
      byName[rec["name"].get<std::string>()] = rec;
  // Every module: its entry (if any) or the templates give it exactly its resolved tier; pinned
  // modules are frozen.
  for (size_t i = 0; i < spec.inventory.modules.size(); ++i) {
    const auto &m = spec.inventory.modules[i];
    const auto &rm = spec.resolution.modules[i];
    SCOPED_TRACE(m.name);
    auto it = byName.find(m.name);
    if (rm.tier.value == ir::Tier::DualInt16) {
      ASSERT_NE(it, byName.end());
      EXPECT_EQ(it->second["dtype"], "{'input': [qint16, qint16]}");
      continue;
    }
    std::string got = it == byName.end() ? "qint8" : it->second["dtype"].get<std::string>();
    EXPECT_EQ(got, dtypeOf(rm.tier.value));
    if (rm.isProtected || rm.tuned) {
      ASSERT_NE(it, byName.end());
      EXPECT_TRUE(it->second["freeze"].get<bool>());
    } else if (it != byName.end()) {
      EXPECT_FALSE(it->second["freeze"].get<bool>());
    }
  }
  // backbone.conv2, new\nline, attn.matmul, head.norm, q"uote, lm_head, tab\tname.
  EXPECT_EQ(byName.size(), 7u);
}

TEST(HorizonEmitterTest, NulRefused) {
  ir::Spec spec;
  HorizonRun r = compileHorizon(
      "tiers int8 < float\ndefaults { tier int8 }\nprotect type Conv2d\ntarget horizon { }\n",
      {{std::string("a\0b", 3), "Conv2d"}}, spec);
  EXPECT_FALSE(r.ok);
  EXPECT_NE(std::find(r.ids.begin(), r.ids.end(), "err_horizon_name"), r.ids.end());
}

// Without an inventory the file lowers the symbolic resolution: a name listed twice keeps the
// value precedence gives it (the higher priority), once; a name the tuning state pins is not also
// an override entry, and an exclude keeps it float under a raise, as with an inventory (an
// override lowering a protected name is err_protected_lowered); each template is sorted.
TEST(HorizonEmitterTest, AsWrittenEntriesOncePerNameByPrecedenceSorted) {
  ir::Spec spec;
  HorizonRun r = compileHorizon(
      "tiers int8 < int16 < dual-int16 < fp16 < float\ndefaults { tier int8 }\n"
      "override name \"z.a\", \"b.x\", \"a.b\" { tier int16 }\n"
      "override name \"a.b\" priority 1 { tier fp16 }\n"
      "tune { metric accuracy >= 0.5; exclude \"b.x\", \"m.n\"; raise \"m.n\" to fp16 }\n"
      "target horizon { }\n",
      {}, spec);
  ASSERT_TRUE(r.ok);
  auto body = [&](const std::string &after) {
    size_t at = r.out.find(after);
    return at == std::string::npos ? std::string() : r.out.substr(at, r.out.find("}", at) - at);
  };
  EXPECT_EQ(body("ModuleNameTemplate(\n"),
            "ModuleNameTemplate(\n                {\n"
            "                    \"a.b\": torch.float16,\n"
            "                    \"z.a\": qint16,\n                ");
  size_t frozen = r.out.find("freeze=True");
  ASSERT_NE(frozen, std::string::npos);
  std::string pinned = r.out.substr(r.out.rfind("ModuleNameTemplate(", frozen),
                                    frozen - r.out.rfind("ModuleNameTemplate(", frozen));
  EXPECT_NE(pinned.find("\"b.x\": torch.float32,\n                    \"m.n\": torch.float32,\n"),
            std::string::npos)
      << pinned;
  EXPECT_EQ(r.out.find("\"b.x\": qint16"), std::string::npos);
}
