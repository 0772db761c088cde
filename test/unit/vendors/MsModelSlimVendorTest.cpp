// The msModelSlim vendor model: brace semantics, the reading of a practice, and translation
// validation against a resolved spec.
#include "vendors/Reading.h"
#include "vendors/msmodelslim/MsModelSlimBraces.h"
#include "vendors/msmodelslim/MsModelSlimReader.h"
#include "vendors/msmodelslim/MsModelSlimRules.h"

#include "../emitters/EmitTestSupport.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <set>

namespace qspec {
namespace {

using msmodelslim::braceExpansions;
using msmodelslim::splitBraces;
using testsupport::Mods;

TEST(MsModelSlimBraces, CountsLikeWcmatch) {
  EXPECT_EQ(braceExpansions("model.layers.0.q_proj"), 1u);
  EXPECT_EQ(braceExpansions("a.{0..11}.b.{0..99}.c"), 1200u);
  EXPECT_EQ(braceExpansions("a.{x,y,{1..3}}"), 5u);
  EXPECT_EQ(braceExpansions("a.{0..10..2}"), 6u);
  EXPECT_EQ(braceExpansions("a.{i}.b"), 1u);   // literal for wcmatch
  EXPECT_EQ(braceExpansions("[{]0..9}"), 1u);  // a bracket expression hides the brace
  EXPECT_EQ(braceExpansions("a\\{0..9}"), 1u); // escaped
  EXPECT_EQ(braceExpansions("{a..e}"), 5u);
}

TEST(MsModelSlimBraces, LiteralVariablesAreEscapedForThePatternMatcher) {
  EXPECT_EQ(msmodelslim::vendorPatternText("model.layers.{i}.mlp.gate"),
            "model.layers.\\{i\\}.mlp.gate");
  EXPECT_EQ(msmodelslim::literalBraceVariable("model.layers.{i}.x"), "i");
  EXPECT_EQ(msmodelslim::literalBraceVariable("a.{b,{layer}}"), "layer");
  EXPECT_EQ(msmodelslim::literalBraceVariable("model.layers.{0..3}.x"), "");
  std::string err;
  auto p = Pattern::compile(msmodelslim::vendorPatternText("model.layers.{i}.mlp.gate"), err);
  ASSERT_TRUE(p);
  EXPECT_FALSE(p->matches("model.layers.3.mlp.gate"));
  EXPECT_TRUE(p->matches("model.layers.{i}.mlp.gate"));
}

// Every piece is within the limit and the pieces select exactly what the entry selects.
void expectSameSelection(const std::string &entry, const std::vector<std::string> &pieces,
                         const std::vector<std::string> &names) {
  std::string err;
  auto whole = Pattern::compile(entry, err);
  ASSERT_TRUE(whole) << err;
  std::vector<Pattern> parts;
  for (const auto &p : pieces) {
    EXPECT_LE(braceExpansions(p), msmodelslim::kPatternLimit) << p;
    parts.push_back(*Pattern::compile(p, err));
  }
  for (const auto &n : names) {
    bool any = false;
    for (const auto &p : parts)
      any = any || p.matches(n);
    EXPECT_EQ(whole->matches(n), any) << n;
  }
}

TEST(MsModelSlimBraces, SplitKeepsTheSelection) {
  std::vector<std::string> names;
  for (int l = 0; l < 14; ++l)
    for (int e = 0; e < 105; e += 3)
      names.push_back("a." + std::to_string(l) + ".b." + std::to_string(e) + ".c");
  auto pieces = splitBraces("a.{0..11}.b.{0..99}.c");
  EXPECT_EQ(pieces, (std::vector<std::string>{"a.{0..9}.b.{0..99}.c", "a.{10..11}.b.{0..99}.c"}));
  expectSameSelection("a.{0..11}.b.{0..99}.c", pieces, names);
  auto stepped = splitBraces("a.{0..13..1}.b.{0..102..3}.c", 100);
  expectSameSelection("a.{0..13}.b.{0..102..3}.c", stepped, names);
  auto list = splitBraces("a.{1,2,{4..13}}.b.{0..99}.c", 300);
  expectSameSelection("a.{1,2,{4..13}}.b.{0..99}.c", list, names);
  EXPECT_EQ(splitBraces("a.{00..1500}.x").size(), 2u);
  EXPECT_EQ(splitBraces("a.{00..1500}.x")[1], "a.{1000..1500}.x");
  EXPECT_EQ(splitBraces("a.{0000..1500}.x")[0], "a.{0000..0999}.x"); // zero padding kept
  EXPECT_EQ(splitBraces("model.x"), std::vector<std::string>{"model.x"});
}

// A compressed entry longer than msModelSlim's 200 characters becomes entries within it that
// select the same modules (as the 1M x 1,000-pattern bench spec's self_attn list needs).
TEST(MsModelSlimBraces, SplitToLengthKeepsTheSelection) {
  std::string layers =
      "2,3,{9..15},{20..23},{25..44},{47..60},{63..66},{69..72},{74..77},{81..102},110,111,"
      "{114..117},{119..124},{127..137},{142..148},{152..159},{162..179},{186..193},{196..205},"
      "{208..211},{213..230},{234..250},259,260,{263..274},{278..283},286,287,{291..302},{305.."
      "319}";
  std::string entry = "model.layers.{" + layers + "}.self_attn.{q,k,{v,o}}_proj";
  ASSERT_GT(entry.size(), 200u);
  std::vector<std::string> pieces = msmodelslim::splitToLength(entry, 60);
  ASSERT_GT(pieces.size(), 1u);
  for (const auto &p : pieces)
    EXPECT_LE(p.size(), 60u) << p;
  std::vector<std::string> names;
  for (int l = 0; l < 330; ++l)
    for (const char *m : {"q", "k", "v", "o", "x"})
      names.push_back("model.layers." + std::to_string(l) + ".self_attn." + m + "_proj");
  expectSameSelection(entry, pieces, names);
  EXPECT_EQ(msmodelslim::splitToLength(entry, 1000), std::vector<std::string>{entry});
  // Nothing left to cut: the entry stays (the emitter reports it).
  std::string flat(250, 'a');
  EXPECT_EQ(msmodelslim::splitToLength(flat, 200), std::vector<std::string>{flat});
  // An item cut alone is spliced in without the braces around it.
  std::vector<std::string> nested = msmodelslim::splitToLength("x.{{a,b},{c,d}}.y", 9);
  EXPECT_EQ(nested, (std::vector<std::string>{"x.{a,b}.y", "x.{c,d}.y"}));
}

// The name trie is built in one pass when the names come subtree by subtree (the model's order,
// its reverse) and through the table of every edge otherwise (sorted with '-' < '.', which puts
// `model.layers.2-b.x` between `model.layers.2` and its children; shuffled): the lists are the
// same, and they select what was asked.
TEST(SelectionCompressor, SameListsWhateverTheInventoryOrder) {
  // Empty components ("model.", "model..x") and names that are prefixes of others included.
  std::vector<std::string> names = {"model.embed_tokens", "model.", "model..x", "model..y"};
  for (int l = 0; l < 6; ++l) {
    if (l == 2)
      names.push_back("model.layers.2");
    for (int e = 0; e < 12; ++e)
      for (const char *p : {"gate_proj", "up_proj", "down_proj"})
        names.push_back("model.layers." + std::to_string(l) + ".mlp.experts." + std::to_string(e) +
                        "." + p);
    if (l == 2)
      names.push_back("model.layers.2-b.x");
  }
  names.push_back("lm_head");
  using W = msmodelslim::Want;
  auto wantOf = [](const std::string &n) {
    auto has = [&](const char *part) { return n.find(part) != std::string::npos; };
    if (has(".2.mlp.experts.") && has("down_proj"))
      return has("experts.11.") ? W::DontCare : W::Must;
    if (n == "model.layers.2-b.x" || n == "model..x" || has(".4.mlp.experts."))
      return W::Must;
    return n == "model.embed_tokens" || n == "model." ? W::DontCare : W::Forbid;
  };
  std::vector<std::string> sorted = names, reversed(names.rbegin(), names.rend()), shuffled = names;
  std::sort(sorted.begin(), sorted.end());
  std::mt19937 rng(19);
  std::shuffle(shuffled.begin(), shuffled.end(), rng);
  std::vector<std::string> first;
  for (const auto &[order, onePass] : std::vector<std::pair<std::vector<std::string>, bool>>{
           {names, true}, {reversed, true}, {sorted, false}, {shuffled, false}}) {
    ir::Inventory inv;
    inv.path = "x";
    std::vector<W> want;
    for (const std::string &n : order) {
      inv.modules.push_back({n, "Linear"});
      want.push_back(wantOf(n));
    }
    inv.rebuildIndex();
    msmodelslim::SelectionCompressor c(inv);
    EXPECT_EQ(c.builtInOnePass(), onePass) << order.front();
    bool verified = false;
    std::vector<std::string> list = c.compress(want, verified);
    EXPECT_TRUE(verified);
    EXPECT_TRUE(c.verify(list, want));
    if (first.empty())
      first = list;
    EXPECT_EQ(list, first) << order.front();
  }
  EXPECT_EQ(first, (std::vector<std::string>{"model..x", "model.layers.2-b.*",
                                             "model.layers.2.mlp.experts.{0..10}.down_proj",
                                             "model.layers.4.*"}));
}

// A brace group of 100 alternatives or more becomes `*` where the list still selects what it
// must and nothing it must not (layers 1 and 2), and stays where `*` would take a Forbid module
// (layer 3's expert 5); the replacement is checked by what it changes.
TEST(SelectionCompressor, StarOnlyWhereTheSelectionStays) {
  ir::Inventory inv;
  inv.path = "x";
  std::vector<msmodelslim::Want> want;
  for (int l = 0; l < 4; ++l)
    for (int e = 0; e < 128; ++e)
      for (const char *p : {"gate_proj", "up_proj"}) {
        std::string name =
            "model.layers." + std::to_string(l) + ".mlp.experts." + std::to_string(e) + "." + p;
        inv.modules.push_back({name, "Linear"});
        bool must = l > 0 && std::string(p) == "gate_proj" && !(l == 3 && e == 5);
        want.push_back(must ? msmodelslim::Want::Must : msmodelslim::Want::Forbid);
      }
  inv.rebuildIndex();
  msmodelslim::SelectionCompressor c(inv);
  bool verified = false;
  std::vector<std::string> list = c.compress(want, verified);
  EXPECT_TRUE(verified);
  EXPECT_EQ(list,
            (std::vector<std::string>{"model.layers.3.mlp.experts.{{0..4},{6..127}}.gate_proj",
                                      "model.layers.{1,2}.mlp.experts.*.gate_proj"}));
  EXPECT_TRUE(c.verify(list, want));
  // simplify alone does the same on the narrow list, and leaves a list that does not verify as is.
  EXPECT_EQ(c.simplify({"model.layers.3.mlp.experts.{{0..4},{6..127}}.gate_proj",
                        "model.layers.{1,2}.mlp.experts.{0..127}.gate_proj"},
                       want),
            list);
  EXPECT_EQ(c.simplify({"model.layers.{1,2}.mlp.experts.{0..127}.gate_proj"}, want),
            std::vector<std::string>{"model.layers.{1,2}.mlp.experts.{0..127}.gate_proj"});
}

// A hand-written practice read over a small inventory.
struct Reading {
  ir::Spec spec;
  vendors::VendorReading reading;
  bool ok = false;
  std::vector<std::string> ids;
};

const Mods kMods = {{"m.0.q", "Linear"}, {"m.0.k", "Linear"},   {"m.1.q", "Linear"},
                    {"m.1.k", "Linear"}, {"m.norm", "RMSNorm"}, {"lm_head", "Linear"}};

void read(Reading &r, const std::string &yaml,
          const std::string &specText = "qspec 1\ntarget msmodelslim { }\n") {
  testsupport::compileAndEmit("msmodelslim", specText, kMods, r.spec);
  SourceManager sm;
  DiagnosticEngine diags(sm);
  r.ok = vendors::readMsModelSlim(r.spec, *r.spec.target("msmodelslim"), yaml, r.reading, diags);
  for (const auto &d : diags.diagnostics())
    r.ids.push_back(d.code);
}

const char *kHead = "apiversion: modelslim_v1\nmetadata: {config_id: x}\nspec:\n  process:\n";
std::string quant(const std::string &dtype, const std::string &include,
                  const std::string &exclude) {
  return "    - type: linear_quant\n      qconfig:\n        weight: {scope: per_channel, dtype: " +
         dtype + ", symmetric: true, method: minmax}\n      include: " + include +
         "\n      exclude: " + exclude + "\n";
}

TEST(MsModelSlimReader, FirstProcessorWinsAndExcludeWins) {
  Reading r;
  read(r, std::string(kHead) + quant("int4", "[\"m.0.*\"]", "[\"m.0.k\"]") +
              quant("int8", "[\"*\"]", "[\"lm_head\"]"));
  ASSERT_TRUE(r.ok);
  const auto &m = r.reading.modules;
  ASSERT_EQ(m.size(), kMods.size());
  EXPECT_EQ(*m[0].weight.dtype, "int4"); // m.0.q: the first processor
  EXPECT_EQ(*m[1].weight.dtype, "int8"); // m.0.k: excluded there, taken by the second
  EXPECT_EQ(*m[2].weight.dtype, "int8");
  EXPECT_FALSE(m[4].known);              // RMSNorm: linear_quant does not test it
  EXPECT_EQ(m[5].tier, ir::Tier::Float); // lm_head: excluded everywhere
  EXPECT_EQ(*m[0].act.dtype, "float");   // no act: W4A16
  EXPECT_GT(m[0].line, 0u);
}

TEST(MsModelSlimReader, BracesAndLiteralVariables) {
  Reading r;
  read(r, std::string(kHead) + quant("int8", "[\"m.{0..1}.q\", \"m.{i}.k\"]", "[]"));
  ASSERT_TRUE(r.ok);
  EXPECT_NE(r.reading.modules[0].tier, ir::Tier::Float);
  EXPECT_NE(r.reading.modules[2].tier, ir::Tier::Float);
  EXPECT_EQ(r.reading.modules[1].tier, ir::Tier::Float); // `{i}` is literal text for wcmatch
  EXPECT_EQ(r.reading.modules[3].tier, ir::Tier::Float);
}

TEST(MsModelSlimReader, RefusesWhatMsModelSlimRefuses) {
  Reading limit;
  read(limit, std::string(kHead) + quant("int8", "[\"m.{0..11}.x.{0..99}\"]", "[]"));
  EXPECT_FALSE(limit.ok);
  ASSERT_EQ(limit.ids.size(), 1u);
  EXPECT_EQ(limit.ids[0], "err_msmodelslim_refused");
  Reading longName;
  read(longName, std::string(kHead) + quant("int8", "[\"" + std::string(201, 'a') + "\"]", "[]"));
  EXPECT_FALSE(longName.ok);
}

// autoround_quant reads like one linear_quant per strategy: the first strategy that selects a
// Linear configures it, a Linear none selects stays float, and its own dtype parsing applies.
TEST(MsModelSlimReader, AutoroundStrategiesFirstMatchWins) {
  auto strategy = [](const std::string &w, const std::string &a, const std::string &include,
                     const std::string &exclude) {
    return "        - qconfig:\n            weight: {scope: per_channel, dtype: " + w +
           ", symmetric: true, method: autoround}\n            act: {scope: per_token, dtype: " +
           a + ", symmetric: true, method: minmax}\n          include: " + include +
           "\n          exclude: " + exclude + "\n";
  };
  Reading r;
  read(r, std::string(kHead) + "    - type: autoround_quant\n      iters: 4\n      strategies:\n" +
              strategy("int8", "int8", "[\"m.*.q\"]", "[]") +
              strategy("int4", "int4", "[\"m.*\"]", "[\"m.1.k\"]") +
              strategy("mxfp4", "fp8_e4m3", "[\"lm_head\"]", "[]"));
  ASSERT_TRUE(r.ok);
  const auto &m = r.reading.modules;
  ASSERT_EQ(m.size(), kMods.size());
  EXPECT_EQ(*m[0].weight.dtype, "int8"); // m.0.q: the first strategy
  EXPECT_EQ(*m[0].act.dtype, "int8");
  EXPECT_EQ(*m[1].weight.dtype, "int4"); // m.0.k: the second
  EXPECT_EQ(m[1].tier, ir::Tier::Int4);
  EXPECT_EQ(*m[2].weight.dtype, "int8"); // m.1.q: the first again
  EXPECT_EQ(m[3].tier, ir::Tier::Float); // m.1.k: excluded by the only one selecting it
  EXPECT_FALSE(m[4].known);              // RMSNorm: never tested
  EXPECT_EQ(*m[5].weight.dtype, "int8"); // mxfp4 is no dtype of autoround's: 8-bit int
  EXPECT_EQ(*m[5].act.dtype, "float");   // and fp8 activations 16-bit float
}

// What autoround_quant's config validator refuses (group_size, scale_dtype), and an
// adapt_rotation field of the other stage, are refused when the practice loads.
TEST(MsModelSlimReader, RefusesAutoroundAndAdaptRotationConfigs) {
  auto one = [](const std::string &ext) {
    return std::string(kHead) +
           "    - type: autoround_quant\n      strategies:\n        - qconfig:\n"
           "            weight: {scope: per_channel, dtype: int8, symmetric: true, method: "
           "autoround, ext: " +
           ext + "}\n";
  };
  for (const char *ext : {"{scale_dtype: int8}", "{group_size: 64}"}) {
    Reading r;
    read(r, one(ext));
    EXPECT_FALSE(r.ok) << ext;
  }
  Reading good;
  read(good, one("{scale_dtype: float16}"));
  EXPECT_TRUE(good.ok);
  Reading stage;
  read(stage, std::string(kHead) + "    - {type: adapt_rotation, stage: 2, steps: 20}\n" +
                  quant("int8", "[\"*\"]", "[]"));
  EXPECT_FALSE(stage.ok);
  std::vector<msmodelslim::Issue> issues;
  SourceManager sm;
  DiagnosticEngine diags(sm);
  msmodelslim::PracticeDoc doc;
  ASSERT_TRUE(msmodelslim::parsePractice(
      std::string(kHead) + "    - {type: adapt_rotation, stage: 2, steps: 20}\n", 0, doc, diags));
  issues = msmodelslim::checkPractice(doc);
  ASSERT_FALSE(issues.empty());
  EXPECT_NE(issues[0].message.find("stage=2 allows only ['block_size', 'down_proj_online_layers', "
                                   "'max_tp_size', 'online', 'stage', 'type']; got extra: "
                                   "['steps']"),
            std::string::npos)
      << issues[0].message;
}

TEST(TranslationValidation, ReportsEachDivergenceWithTheRule) {
  Reading r;
  // The spec quantizes everything at int8 but protects lm_head; the practice quantizes lm_head
  // at int4 and leaves m.1.k out.
  read(r,
       std::string(kHead) + quant("int4", "[\"lm_head\"]", "[]") +
           quant("int8", "[\"*\"]", "[\"m.1.k\"]"),
       "qspec 1\ndefaults { tier int8; weight int8 }\ntiers int8 < float\nprotect "
       "\"lm_head\"\ntarget msmodelslim { }\n");
  ASSERT_TRUE(r.ok);
  SourceManager sm;
  DiagnosticEngine diags(sm);
  EXPECT_FALSE(vendors::validateReading(r.spec, *r.spec.target("msmodelslim"), r.reading, diags));
  std::vector<std::string> messages;
  for (const auto &d : diags.diagnostics()) {
    EXPECT_EQ(d.code, "err_emit_divergence");
    messages.push_back(d.message);
  }
  ASSERT_EQ(messages.size(), 2u);
  EXPECT_NE(
      messages[0].find(
          "module 'm.1.k' differently: the spec's tier is 'int8', the written file gives 'float'"),
      std::string::npos)
      << messages[0];
  EXPECT_NE(messages[1].find("module 'lm_head' differently: the spec's tier is 'float'"),
            std::string::npos)
      << messages[1];
  EXPECT_EQ(diags.diagnostics()[1].notes.size(), 1u); // at the protect
}

TEST(TranslationValidation, ComparesTheWeightWidthAndCapsTheReport) {
  Reading r;
  read(r, std::string(kHead) + quant("int8", "[\"*\"]", "[]"),
       "qspec 1\ndefaults { tier int8; weight int4 per_channel }\ntiers int8 < float\ntarget "
       "msmodelslim { }\n");
  ASSERT_TRUE(r.ok);
  SourceManager sm;
  DiagnosticEngine diags(sm);
  EXPECT_FALSE(vendors::validateReading(r.spec, *r.spec.target("msmodelslim"), r.reading, diags));
  ASSERT_EQ(diags.diagnostics().size(), 5u); // the five Linears
  EXPECT_NE(
      diags.diagnostics()[0].message.find("weight dtype is 'int4', the written file gives 'int8'"),
      std::string::npos);
  // The cap: one note counts what is not shown.
  vendors::VendorReading many = r.reading;
  ir::Spec &spec = r.spec;
  for (int i = 0; i < 30; ++i) {
    spec.inventory.modules.push_back({"extra." + std::to_string(i), "Linear", -1, 0});
    spec.resolution.modules.push_back(spec.resolution.modules[0]);
    many.modules.push_back(many.modules[0]);
  }
  DiagnosticEngine capped(sm);
  EXPECT_FALSE(vendors::validateReading(spec, *spec.target("msmodelslim"), many, capped));
  EXPECT_EQ(capped.diagnostics().size(), 20u);
  EXPECT_NE(capped.diagnostics().back().notes.back().message.find("15 more differences"),
            std::string::npos);
}

} // namespace
} // namespace qspec

namespace qspec {
namespace {

// The vendor model on every real practice of test/Inputs/conformance/msmodelslim/: each v1 file
// with a linear_quant that msModelSlim accepts reads (groups entered, anchors resolved) and
// quantizes some Linear of a small DeepSeek/Qwen-shaped inventory.
TEST(MsModelSlimReaderConformance, EveryRealPracticeReads) {
  namespace fs = std::filesystem;
  fs::path dir = fs::path(QSPEC_SOURCE_DIR) / "test" / "Inputs" / "conformance" / "msmodelslim";
  ASSERT_TRUE(fs::is_directory(dir)) << "missing conformance corpus: " << dir;
  // The practices msModelSlim itself refuses to load (and qlint with them), so there is no
  // vendor reading to model; each must still be refused by the reader, which keeps the list
  // current (docs/lint/conformance.md).
  const std::set<std::string> refused = {
      // modelslim_v1 with spec.default_text, a multimodal_vlm_modelslim_v1 key: msModelSlim's
      // schema forbids extra keys (msmodelslim-extra-key).
      "lab_practice__step_3_5_flash__step3_5_moe_w8a8.yaml",
  };
  size_t skipped = 0;
  Mods mods;
  for (const char *b : {"0", "1", "61"}) {
    std::string p = std::string("model.layers.") + b + ".";
    for (const char *a :
         {"self_attn.q_proj", "self_attn.q_a_proj", "self_attn.o_proj", "mlp.gate", "mlp.down_proj",
          "mlp.experts.0.up_proj", "mlp.shared_experts.down_proj", "attn.to_q", "ffn.0"})
      mods.push_back({p + a, "Linear"});
  }
  mods.push_back({"language_model.model.layers.1.mlp.down_proj", "Linear"});
  mods.push_back({"language_model.model.layers.1.self_attn.q_proj", "Linear"});
  mods.push_back({"lm_head", "Linear"});
  mods.push_back({"model.norm", "RMSNorm"});
  size_t read = 0;
  for (const auto &entry : fs::directory_iterator(dir)) {
    std::string name = entry.path().filename().string();
    if (name.rfind("lab_practice__", 0) != 0)
      continue;
    std::ifstream in(entry.path());
    std::string text((std::istreambuf_iterator<char>(in)), {});
    if (text.find("linear_quant") == std::string::npos ||
        text.find("modelslim_v0") != std::string::npos)
      continue;
    Reading r;
    ir::Spec &spec = r.spec;
    testsupport::compileAndEmit("msmodelslim", "qspec 1\ntarget msmodelslim { }\n", mods, spec);
    SourceManager sm;
    DiagnosticEngine diags(sm);
    bool ok = vendors::readMsModelSlim(spec, *spec.target("msmodelslim"), text, r.reading, diags);
    if (refused.count(name)) {
      EXPECT_FALSE(ok) << name << " is listed as refused but reads";
      ++skipped;
      continue;
    }
    EXPECT_TRUE(ok) << name;
    size_t quantized = 0;
    for (const auto &m : r.reading.modules)
      quantized += m.known && m.tier != ir::Tier::Float;
    EXPECT_GT(quantized, 0u) << name;
    ++read;
  }
  EXPECT_EQ(skipped, refused.size());
  EXPECT_GE(read, 15u);
}

} // namespace
} // namespace qspec
