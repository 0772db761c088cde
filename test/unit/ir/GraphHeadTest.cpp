// ir::graphHead: a tied output head, which the index does not list, found in the ONNX graph of
// two graphs by the rule that maps the index's modules (ir::mapByGraph), for each head layout; and
// translation validation expecting it float (vendors::validateReading).
#include "ir/GraphNames.h"
#include "vendors/Reading.h"

#include <gtest/gtest.h>

#include <initializer_list>
#include <string>
#include <unordered_map>
#include <vector>

using namespace qspec;

namespace {

struct Node {
  const char *name, *op, *scope;
  std::initializer_list<const char *> inputs;
};

// A spec over an index of `modules` and an ONNX graph of `nodes` (scopes as the reader derives
// them), resolved int8 throughout.
ir::Spec specOf(std::initializer_list<const char *> modules, std::initializer_list<Node> nodes) {
  ir::Spec spec;
  spec.inventory.path = "model.safetensors.index.json";
  for (const char *n : modules)
    spec.inventory.modules.push_back({n, "", -1, 0, false, false});
  spec.inventory.rebuildIndex();
  spec.onnx.path = "model.onnx";
  for (const Node &n : nodes) {
    ir::GraphNode g;
    g.name = n.name;
    g.opType = n.op;
    g.scope = n.scope;
    g.unnamed = g.name.empty();
    for (const char *in : n.inputs)
      g.inputs.push_back(in);
    spec.onnx.nodes.push_back(std::move(g));
  }
  ir::GraphIndex ix = ir::indexGraph(spec.onnx);
  for (const ir::Module &m : spec.inventory.modules)
    spec.onnx.modules.push_back(ir::mapByGraph(ix, m.name));
  spec.resolution.modules.resize(modules.size());
  for (ir::ResolvedModule &rm : spec.resolution.modules)
    rm.tier.value = ir::Tier::Int8;
  spec.resolution.done = true;
  return spec;
}

// The head's node names, or its candidates in <...>.
std::string headNodes(const ir::Spec &spec) {
  std::optional<ir::GraphHead> h = ir::graphHead(spec);
  if (!h)
    return "none";
  std::string out = h->name + ":";
  for (uint32_t id : h->mapping.nodes)
    out += " " + spec.onnx.nodes[id].name;
  for (uint32_t id : h->mapping.candidates)
    out += " <" + spec.onnx.nodes[id].name + ">";
  return out;
}

} // namespace

TEST(GraphHead, TiedHeadFoundByScope) {
  ir::Spec plain = specOf({"model.embed_tokens", "model.norm"},
                          {{"/model/embed_tokens/Gather",
                            "Gather",
                            "model.embed_tokens",
                            {"model.embed_tokens.weight", "ids"}},
                           {"/model/norm/Mul", "Mul", "model.norm", {"model.norm.weight", "x"}},
                           {"/lm_head/MatMul", "MatMul", "lm_head", {"x", "onnx::MatMul_7"}}});
  EXPECT_EQ(headNodes(plain), "lm_head: /lm_head/MatMul");
  ir::Spec vlm = specOf({"language_model.model.embed_tokens", "vision_tower.x"},
                        {{"/language_model/lm_head/MatMul",
                          "MatMul",
                          "language_model.lm_head",
                          {"x", "onnx::MatMul_7"}},
                         {"/lm_head/MatMul", "MatMul", "lm_head", {"x", "w"}}});
  EXPECT_EQ(headNodes(vlm), "language_model.lm_head: /language_model/lm_head/MatMul");
  ir::Spec textModel =
      specOf({"model.text_model.embed_tokens"}, {{"/lm_head/MatMul", "MatMul", "lm_head", {"x"}}});
  EXPECT_EQ(headNodes(textModel), "lm_head: /lm_head/MatMul");
}

TEST(GraphHead, SameRuleAsTheIndexModules) {
  // Two MatMuls in the head's scope are candidates, as for a module; a weight named for the head
  // wins over the scope; without a weighted node, every node of the scope.
  ir::Spec split =
      specOf({"model.embed_tokens"}, {{"/lm_head/MatMul", "MatMul", "lm_head", {"x"}},
                                      {"/lm_head/MatMul_1", "MatMul", "lm_head", {"y"}}});
  EXPECT_EQ(headNodes(split), "lm_head: </lm_head/MatMul> </lm_head/MatMul_1>");
  ir::Spec weight =
      specOf({"model.embed_tokens"}, {{"head", "MatMul", "", {"x", "lm_head.weight"}},
                                      {"/lm_head/MatMul", "MatMul", "lm_head", {"x"}}});
  EXPECT_EQ(headNodes(weight), "lm_head: head");
  ir::Spec whole = specOf({"model.embed_tokens"}, {{"/lm_head/Mul", "Mul", "lm_head", {"x"}}});
  EXPECT_EQ(headNodes(whole), "lm_head: /lm_head/Mul");
  ir::Spec none = specOf({"model.embed_tokens"}, {{"/model/norm/Mul", "Mul", "model.norm", {"x"}}});
  EXPECT_EQ(headNodes(none), "lm_head:");
  // Indexing only what one name reads gives that name the mapping of the whole index.
  for (const ir::Spec *s : {&split, &weight, &whole, &none}) {
    ir::GraphIndex all = ir::indexGraph(s->onnx);
    for (const char *name : {"lm_head", "model.norm", "model.embed_tokens", "x"}) {
      ir::NodeMapping a = ir::mapByGraph(all, name),
                      one = ir::mapByGraph(ir::indexGraph(s->onnx, name), name);
      EXPECT_EQ(a.how, one.how) << name;
      EXPECT_EQ(a.nodes, one.nodes) << name;
      EXPECT_EQ(a.candidates, one.candidates) << name;
    }
  }
}

TEST(GraphHead, OnlyATiedHeadOfTwoGraphs) {
  ir::Spec listed = specOf({"model.embed_tokens", "lm_head"},
                           {{"/lm_head/MatMul", "MatMul", "lm_head", {"x", "lm_head.weight"}}});
  EXPECT_EQ(headNodes(listed), "none");
  ir::Spec untied =
      specOf({"model.embed_tokens"}, {{"/lm_head/MatMul", "MatMul", "lm_head", {"x"}}});
  untied.modelConfig.tieWordEmbeddings = false;
  EXPECT_EQ(headNodes(untied), "none");
  ir::Spec oneGraph =
      specOf({"model.embed_tokens"}, {{"/lm_head/MatMul", "MatMul", "lm_head", {"x"}}});
  oneGraph.onnx.path.clear();
  EXPECT_EQ(headNodes(oneGraph), "none");
}

namespace {

ir::Spec plainSpec() {
  return specOf({"model.embed_tokens"},
                {{"/model/embed_tokens/Gather",
                  "Gather",
                  "model.embed_tokens",
                  {"model.embed_tokens.weight", "ids"}},
                 {"/lm_head/MatMul", "MatMul", "lm_head", {"x", "onnx::MatMul_7"}}});
}

// The head a Gemm reading the tied weight itself, so the embedding's weight reaches it too.
ir::Spec gemmSpec() {
  return specOf({"model.embed_tokens"},
                {{"/model/embed_tokens/Gather",
                  "Gather",
                  "model.embed_tokens",
                  {"model.embed_tokens.weight", "ids"}},
                 {"/lm_head/Gemm", "Gemm", "lm_head", {"x", "model.embed_tokens.weight"}}});
}

} // namespace

TEST(GraphHead, NodeOfAQuantizedModuleClashes) {
  ir::Spec plain = plainSpec();
  std::optional<ir::GraphHead> h = ir::graphHead(plain);
  ASSERT_TRUE(h);
  std::unordered_map<uint32_t, uint32_t> owner;
  EXPECT_FALSE(ir::claimNodes(plain, 0, owner));
  EXPECT_FALSE(ir::claimHeadNodes(plain, *h, owner));

  ir::Spec gemm = gemmSpec();
  h = ir::graphHead(gemm);
  ASSERT_TRUE(h);
  owner.clear();
  EXPECT_FALSE(ir::claimNodes(gemm, 0, owner));
  std::optional<ir::NodeClash> c = ir::claimHeadNodes(gemm, *h, owner);
  ASSERT_TRUE(c);
  EXPECT_EQ(c->node, 1u);
  EXPECT_EQ(c->first, 0u);
  gemm.resolution.modules[0].tier.value = ir::Tier::Float;
  EXPECT_FALSE(ir::claimHeadNodes(gemm, *h, owner));
}

TEST(GraphHead, HeadNodesAreLayers) {
  // The head's node is a layer of its own; one a module reaches is that module's.
  ir::Spec plain = plainSpec();
  std::optional<ir::GraphHead> h = ir::graphHead(plain);
  std::vector<ir::GraphLayer> layers = ir::graphLayers(plain, h);
  ASSERT_EQ(layers.size(), 2u);
  EXPECT_EQ(layers[1].node, 1u);
  EXPECT_EQ(layers[1].module, ir::kTiedHead);
  EXPECT_EQ(ir::graphLayers(plain, std::nullopt).size(), 1u);
  ir::Spec gemm = gemmSpec();
  EXPECT_EQ(ir::graphLayers(gemm, ir::graphHead(gemm)).back().module, 0u);
}

TEST(GraphHead, ValidationExpectsTheHeadFloat) {
  ir::Spec spec = specOf({"model.embed_tokens"}, {{"/lm_head/MatMul", "MatMul", "lm_head", {"x"}}});
  spec.targets.push_back(ir::Target{"hmct", "", {}, {}});
  vendors::VendorReading r;
  r.kind = "hmct";
  r.fields = vendors::FieldTier;
  r.modules.resize(1);
  r.modules[0].known = true;
  r.modules[0].tier = ir::Tier::Int8;
  r.headName = "lm_head";
  r.head.known = true;
  r.head.tier = ir::Tier::Float;
  SourceManager sm;
  DiagnosticEngine ok(sm);
  EXPECT_TRUE(vendors::validateReading(spec, spec.targets[0], r, ok));
  r.head.tier = ir::Tier::Int8;
  r.head.line = 3;
  r.head.column = 5;
  DiagnosticEngine bad(sm);
  EXPECT_FALSE(vendors::validateReading(spec, spec.targets[0], r, bad));
  ASSERT_EQ(bad.diagnostics().size(), 1u);
  EXPECT_EQ(bad.diagnostics()[0].code, "err_emit_divergence");
  EXPECT_NE(bad.diagnostics()[0].message.find("module 'lm_head' differently: the spec's tier is "
                                              "'float', the written file gives 'int8' (line 3"),
            std::string::npos)
      << bad.diagnostics()[0].message;
}
