// Each pass on hand-built specs: a spec parsed from text (inputs not loaded) and an inventory
// filled in by hand, so every module name and type is visible in the test.
#include "emitters/Emitter.h"
#include "frontend/Frontend.h"
#include "passes/Pass.h"

#include <gtest/gtest.h>

using namespace qspec;

namespace {

struct PassRun {
  SourceManager sm;
  DiagnosticEngine diags{sm};
  ir::Spec spec;
  bool built = false, ok = false;

  PassRun(const std::string &text, std::vector<std::pair<std::string, std::string>> modules,
          const passes::PipelineOptions &po = {}) {
    emit::registerAllEmitters();
    FileID f = sm.addFile("t.qspec", text);
    auto root = frontend::parse(f, diags);
    frontend::FrontendOptions o;
    o.loadInputs = false;
    built = root && frontend::buildSpec(*root, "t.qspec", spec, diags, o);
    if (!built)
      return;
    spec.inventory.path = "hand-built";
    spec.inventory.format = "manifest";
    for (auto &[name, type] : modules)
      spec.inventory.modules.push_back({name, type, -1, 0});
    spec.inventory.rebuildIndex();
    ok = passes::runPipeline(spec, diags, po);
  }
  const ir::ResolvedModule &mod(const std::string &name) const {
    const ir::Module *m = spec.inventory.find(name);
    EXPECT_TRUE(m) << name;
    return spec.resolution.modules.at(static_cast<size_t>(m - spec.inventory.modules.data()));
  }
  std::vector<std::string> codes() const {
    std::vector<std::string> out;
    for (const Diagnostic &d : diags.diagnostics())
      out.push_back(d.code);
    return out;
  }
  size_t count(const std::string &code) const {
    size_t n = 0;
    for (const Diagnostic &d : diags.diagnostics())
      n += d.code == code;
    return n;
  }
};

const std::vector<std::pair<std::string, std::string>> kLLM = {
    {"model.embed_tokens", "Embedding"},
    {"model.layers.0.self_attn.q_proj", "Linear"},
    {"model.layers.0.self_attn.k_proj", "Linear"},
    {"model.layers.0.mlp.gate_proj", "Linear"},
    {"model.layers.0.mlp.up_proj", "Linear"},
    {"model.layers.1.self_attn.q_proj", "Linear"},
    {"model.layers.1.self_attn.k_proj", "Linear"},
    {"model.layers.1.mlp.gate_proj", "Linear"},
    {"model.layers.1.mlp.up_proj", "Linear"},
    {"model.norm", "RMSNorm"},
    {"lm_head", "Linear"},
};

} // namespace

TEST(PrecedencePass, NameBeatsTypeBeatsDefaultFieldByField) {
  PassRun r("defaults { tier int8; weight int8 per_channel symmetric; act int8 per_tensor }\n"
            "override type Linear { weight int4 }\n"
            "override name \"model.layers.0.*\" { tier int16; act int16 }\n",
            kLLM);
  ASSERT_TRUE(r.ok) << ::testing::PrintToString(r.codes());
  const auto &q0 = r.mod("model.layers.0.self_attn.q_proj");
  EXPECT_EQ(q0.tier.value, ir::Tier::Int16);
  EXPECT_EQ(q0.tier.from.source, ir::Decision::NameOverride);
  EXPECT_EQ(q0.weight.dtype.value, "int4"); // from the type override
  EXPECT_EQ(q0.weight.dtype.from.source, ir::Decision::TypeOverride);
  EXPECT_EQ(q0.weight.scope.value, "per_channel"); // inherited from the defaults
  EXPECT_EQ(q0.weight.scope.from.source, ir::Decision::Default);
  EXPECT_EQ(q0.act.dtype.value, "int16");
  const auto &q1 = r.mod("model.layers.1.self_attn.q_proj");
  EXPECT_EQ(q1.tier.value, ir::Tier::Int8);
  EXPECT_EQ(q1.act.dtype.value, "int8");
  const auto &norm = r.mod("model.norm");
  EXPECT_EQ(norm.weight.dtype.value, "int8"); // not Linear: the defaults
}

TEST(PrecedencePass, SameLevelConflictIsAnErrorUnlessPriorityOrdersIt) {
  PassRun conflict("override name \"model.layers.0.*\" { tier int16 }\n"
                   "override name \"*.q_proj\" { tier fp16 }\n",
                   kLLM);
  EXPECT_FALSE(conflict.ok);
  EXPECT_EQ(conflict.count("err_override_conflict"), 1u); // one per pair of overrides
  ASSERT_FALSE(conflict.diags.diagnostics().empty());
  EXPECT_EQ(conflict.diags.diagnostics().front().notes.size(), 1u);

  PassRun ordered("override name \"model.layers.0.*\" { tier int16 }\n"
                  "override name \"*.q_proj\" priority 1 { tier fp16 }\n",
                  kLLM);
  ASSERT_TRUE(ordered.ok) << ::testing::PrintToString(ordered.codes());
  EXPECT_EQ(ordered.mod("model.layers.0.self_attn.q_proj").tier.value, ir::Tier::FP16);
  EXPECT_EQ(ordered.mod("model.layers.0.self_attn.k_proj").tier.value, ir::Tier::Int16);

  // Agreeing overrides do not conflict.
  PassRun agree("override name \"model.layers.0.*\" { tier int16 }\n"
                "override name \"*.q_proj\" { tier int16 }\n",
                kLLM);
  EXPECT_TRUE(agree.ok) << ::testing::PrintToString(agree.codes());
}

TEST(PrecedencePass, HigherPriorityDecidesWhateverTheSourceOrder) {
  // Two equal-priority overrides disagree, but a third with a higher priority decides: no error,
  // and the answer does not depend on where the third one is written.
  const char *a = "override name \"model.layers.0.*\" { tier int16 }\n";
  const char *b = "override name \"*.q_proj\" { tier fp16 }\n";
  const char *c = "override name \"model.layers.0.self_attn.q_proj\" priority 9 { tier float }\n";
  for (std::string text :
       {std::string(a) + b + c, std::string(c) + a + b, std::string(a) + c + b}) {
    PassRun r(text, kLLM);
    EXPECT_EQ(r.count("err_override_conflict"), 0u) << text;
    EXPECT_EQ(r.mod("model.layers.0.self_attn.q_proj").tier.value, ir::Tier::Float) << text;
  }
}

TEST(PrecedencePass, ProtectedStaysFloatAndExcludedIsTheUnion) {
  PassRun r("protect \"lm_head\", type Embedding\n"
            "override type Linear { tier int16 }\n"
            "override name \"*\" { tier int8 }\n" // covers lm_head by glob: no error, stays float
            "tune { exclude \"model.layers.1.*\" }\n",
            kLLM);
  ASSERT_TRUE(r.ok) << ::testing::PrintToString(r.codes());
  EXPECT_EQ(r.mod("lm_head").tier.value, ir::Tier::Float);
  EXPECT_TRUE(r.mod("lm_head").isProtected);
  EXPECT_EQ(r.mod("lm_head").tier.from.source, ir::Decision::Protect);
  EXPECT_EQ(r.mod("model.embed_tokens").tier.value, ir::Tier::Float);
  EXPECT_EQ(r.mod("model.layers.1.mlp.up_proj").tier.value, ir::Tier::Float);
  EXPECT_TRUE(r.mod("model.layers.1.mlp.up_proj").tuned);
  EXPECT_EQ(r.mod("model.layers.0.mlp.up_proj").tier.value, ir::Tier::Int8);
  size_t floats = 0;
  for (const auto &m : r.spec.resolution.modules)
    floats += m.tier.value == ir::Tier::Float;
  EXPECT_EQ(floats, 2u + 4u); // protected (lm_head, embed_tokens) + tuning (layer 1)
}

TEST(PrecedencePass, LoweringAProtectedModuleByNameIsAnError) {
  PassRun r("protect \"lm_head\"\noverride name \"lm_head\" { tier int8 }\n", kLLM);
  EXPECT_FALSE(r.ok);
  EXPECT_EQ(r.count("err_protected_lowered"), 1u);
  PassRun t("protect \"lm_head\"\ntune { raise \"lm_head\" to int16 }\n", kLLM);
  EXPECT_FALSE(t.ok);
  EXPECT_EQ(t.count("err_tuning_protected"), 1u);
  PassRun f("protect \"lm_head\"\ntune { raise \"lm_head\" to float; exclude \"lm_head\" }\n",
            kLLM);
  EXPECT_TRUE(f.ok) << ::testing::PrintToString(f.codes());
}

TEST(PrecedencePass, TuningRaiseMustRaiseAndIsReportedOncePerSelector) {
  PassRun r("defaults { tier int16 }\ntune { raise \"model.layers.*\" to int8 }\n", kLLM);
  EXPECT_FALSE(r.ok);
  EXPECT_EQ(r.count("err_tier_below_default"), 1u);
}

TEST(PatternResolutionPass, SelectingNothingWarnsAndWerrorMakesItAnError) {
  PassRun r("override name \"LM_HEAD\" { tier float }\noverride type Conv2d { tier int16 }\n",
            kLLM);
  EXPECT_TRUE(r.ok);
  EXPECT_EQ(r.count("warn_pattern_matches_nothing"), 1u);
  EXPECT_EQ(r.count("warn_type_matches_nothing"), 1u);
  EXPECT_EQ(r.diags.warningCount(), 2u);
}

TEST(PatternResolutionPass, LevelOfPatternsSelectingNothingIsAnError) {
  PassRun r("tune { levels \"nothing.*\", first 2, \"model.layers.0.*\" }\n", kLLM);
  EXPECT_FALSE(r.ok);
  EXPECT_EQ(r.count("err_level_empty"), 1u);
}

TEST(GroupFormationPass, VariablesGroupPerValueAndOverlapsMerge) {
  PassRun r("group mlp = \"model.layers.{i}.mlp.gate_proj\", \"model.layers.{i}.mlp.up_proj\"\n"
            "group \"model.layers.0.mlp.up_proj\" with \"model.layers.0.self_attn.q_proj\"\n",
            kLLM);
  ASSERT_TRUE(r.ok) << ::testing::PrintToString(r.codes());
  const auto &groups = r.spec.resolution.groups;
  ASSERT_EQ(groups.size(), 2u);
  // Layer 0: gate_proj, up_proj and (through the with-group) q_proj.
  EXPECT_EQ(groups[0].members.size(), 3u);
  EXPECT_EQ(groups[0].name, "mlp[0]");
  EXPECT_EQ(groups[1].members.size(), 2u);
  EXPECT_EQ(groups[1].name, "mlp[1]");
  EXPECT_EQ(r.mod("model.layers.1.mlp.up_proj").group, 1);
  EXPECT_EQ(r.mod("model.layers.1.self_attn.q_proj").group, -1);
}

TEST(GroupFormationPass, ProtectedModulesAreNeverMembers) {
  PassRun r("protect \"lm_head\"\ngroup g = \"lm_head\", \"model.norm\", \"model.embed_tokens\"\n",
            kLLM);
  ASSERT_TRUE(r.ok) << ::testing::PrintToString(r.codes());
  ASSERT_EQ(r.spec.resolution.groups.size(), 1u);
  EXPECT_EQ(r.spec.resolution.groups[0].members.size(), 2u);
  EXPECT_EQ(r.mod("lm_head").group, -1);
}

TEST(GroupFormationPass, SameScoreGroupsFromEqualScores) {
  PassRun r("group same_score\n", kLLM);
  // Without scores the frontend already refused it (inputs are not loaded here, so build the
  // scores by hand and run the pipeline again).
  SourceManager sm;
  DiagnosticEngine diags(sm);
  ir::Spec &spec = r.spec;
  spec.scores.path = "hand-built";
  spec.scores.entries = {
      {"model.layers.0", 0.5, 1}, {"model.layers.1", 0.5, 2}, {"lm_head", 0.25, 3}};
  spec.resolution = {};
  ASSERT_TRUE(passes::runPipeline(spec, diags));
  ASSERT_EQ(spec.resolution.groups.size(), 1u);
  EXPECT_EQ(spec.resolution.groups[0].kind, ir::GroupDecl::SameScore);
  EXPECT_EQ(spec.resolution.groups[0].members.size(), 8u); // every module of blocks 0 and 1
  EXPECT_DOUBLE_EQ(spec.resolution.groups[0].score, 0.5);
}

TEST(GroupIntegrityPass, SplitGroupIsOneErrorWithNotes) {
  PassRun r("group mlp = \"model.layers.{i}.mlp.gate_proj\", \"model.layers.{i}.mlp.up_proj\"\n"
            "override name \"model.layers.*.mlp.gate_proj\" { tier int16 }\n",
            kLLM);
  EXPECT_FALSE(r.ok);
  EXPECT_EQ(r.count("err_group_split"), 2u); // one per split group (layers 0 and 1)
  const Diagnostic &d = r.diags.diagnostics().front();
  ASSERT_EQ(d.code, "err_group_split");
  std::vector<std::string> notes;
  for (const Diagnostic &n : d.notes)
    notes.push_back(n.code);
  EXPECT_EQ(notes, (std::vector<std::string>{"note_group_declared", "note_extend_to_group"}));

  PassRun whole("group mlp = \"model.layers.{i}.mlp.gate_proj\", \"model.layers.{i}.mlp.up_proj\"\n"
                "override name \"model.layers.*.mlp.*\" { tier int16 }\n",
                kLLM);
  EXPECT_TRUE(whole.ok) << ::testing::PrintToString(whole.codes());
}

TEST(TargetCapabilityPass, InexpressibleTierNamesModuleTierAndBackend) {
  PassRun r("target msmodelslim { }\noverride name \"model.layers.0.*\" { tier int16 }\n", kLLM);
  EXPECT_FALSE(r.ok);
  ASSERT_EQ(r.count("err_tier_not_expressible"), 1u); // once per (tier, type)
  const Diagnostic &d = r.diags.diagnostics().front();
  EXPECT_NE(d.message.find("msmodelslim"), std::string::npos);
  EXPECT_NE(d.message.find("'int16'"), std::string::npos);
  EXPECT_NE(d.message.find("model.layers.0."), std::string::npos);
  PassRun ok("target horizon { march nash-p }\noverride name \"model.layers.0.*\" { tier int16 }\n",
             kLLM);
  EXPECT_TRUE(ok.ok) << ::testing::PrintToString(ok.codes());
}

TEST(Pipeline, StopAfterLeavesLaterPassesUnrun) {
  passes::PipelineOptions po;
  po.stopAfter = "groups";
  PassRun r("override name \"lm_head\" { tier int16 }\n", kLLM, po);
  ASSERT_TRUE(r.ok);
  EXPECT_FALSE(r.spec.resolution.done); // precedence did not run
  passes::PipelineOptions remarks;
  remarks.remarks = true;
  PassRun all("", kLLM, remarks);
  EXPECT_EQ(all.count("remark_pass_done"), passes::allPasses().size());
}

TEST(Verifier, DetectsBrokenInvariants) {
  PassRun r("protect \"lm_head\"\ngroup g = \"model.layers.0.*\"\n", kLLM);
  ASSERT_TRUE(r.ok) << ::testing::PrintToString(r.codes());
  SourceManager sm;
  {
    DiagnosticEngine diags(sm);
    EXPECT_TRUE(passes::verifyResolution(r.spec, diags, "test"));
  }
  ir::Spec broken = r.spec;
  broken.resolution.modules[r.spec.inventory.index.at("lm_head")].tier.value = ir::Tier::Int8;
  {
    DiagnosticEngine diags(sm);
    EXPECT_FALSE(passes::verifyResolution(broken, diags, "test"));
    ASSERT_EQ(diags.diagnostics().size(), 1u);
    EXPECT_EQ(diags.diagnostics()[0].code, "err_internal");
    EXPECT_NE(diags.diagnostics()[0].message.find("protected module 'lm_head' is not float"),
              std::string::npos);
  }
  broken = r.spec;
  broken.resolution.modules[broken.resolution.groups.at(0).members.at(0)].group = -1;
  {
    DiagnosticEngine diags(sm);
    EXPECT_FALSE(passes::verifyResolution(broken, diags, "test"));
  }
  broken = r.spec;
  broken.resolution.modules.pop_back();
  {
    DiagnosticEngine diags(sm);
    EXPECT_FALSE(passes::verifyResolution(broken, diags, "test"));
  }
}

// Each target's expected reading holds only what the target changes, each field with the setting
// that decided it: msModelSlim's include and its non-Linear modules, a rule's AMCT block, and an
// AMCT type it never quantizes.
TEST(TargetReadingPass, ChangesOnlyWhatTheTargetAdds) {
  PassRun r(R"(qspec 1
defaults { tier int8; weight int8 per_channel symmetric minmax }
override name "blk.0.*" { amct { channel_wise false; quant_bits 6 } }
target msmodelslim { include "blk.0.*" }
target amct ptq { }
)",
            {{"blk.0.fc", "Linear"},
             {"blk.0.conv", "Conv2d"},
             {"blk.1.fc", "Linear"},
             {"blk.1.norm", "ReduceMean"}});
  ASSERT_TRUE(r.ok) << ::testing::PrintToString(r.codes());
  const ir::Spec &s = r.spec;
  ASSERT_EQ(s.resolution.targets.size(), 2u);
  const ir::TargetReading &ms = s.resolution.targets[0], &amct = s.resolution.targets[1];
  // msModelSlim: blk.0.fc as resolved; the Conv2d a vendor skip; blk.1.* outside the include.
  EXPECT_EQ(ms.changeOf(0), nullptr);
  ASSERT_NE(ms.changeOf(1), nullptr);
  EXPECT_EQ(ms.changeOf(1)->tier->from.source, ir::Decision::VendorSkip);
  ASSERT_NE(ms.changeOf(2), nullptr);
  EXPECT_EQ(ms.changeOf(2)->tier->from.source, ir::Decision::TargetScope);
  EXPECT_EQ(s.expectedModule(s.targets[0], 2).tier.value, ir::Tier::Float);
  // AMCT: the rule's block on blk.0.*; ReduceMean never quantized.
  ir::ResolvedModule conv = s.expectedModule(s.targets[1], 1);
  EXPECT_EQ(conv.weight.scope.value, "per_tensor");
  EXPECT_EQ(conv.weight.scope.from.source, ir::Decision::TargetOption);
  EXPECT_EQ(conv.weight.dtype.value, "int6");
  EXPECT_EQ(conv.tier.value, ir::Tier::Int8);
  EXPECT_EQ(amct.changeOf(2), nullptr);
  ASSERT_NE(amct.changeOf(3), nullptr);
  EXPECT_EQ(amct.changeOf(3)->tier->from.source, ir::Decision::VendorSkip);
  // The general resolution is unchanged.
  EXPECT_EQ(r.mod("blk.0.conv").weight.scope.value, "per_channel");
}
