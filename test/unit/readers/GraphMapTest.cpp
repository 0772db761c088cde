// Two graphs (docs/inputs.md): exporter scopes and the module -> node mapping on the generated
// pair of test/Inputs/graphs (gen_pair.py).
#include "frontend/readers/ReaderSupport.h"
#include "frontend/readers/Readers.h"

#include <gtest/gtest.h>

#include <string>

using namespace qspec;
using readers::detail::scopeFromNameScopes;
using readers::detail::scopeFromNamespace;
using readers::detail::scopeFromNodeName;

namespace {

const std::string kInputs = std::string(QSPEC_SOURCE_DIR) + "/test/Inputs/graphs/";

TEST(GraphMap, ScopeFromTorchScriptName) {
  EXPECT_EQ(scopeFromNodeName("/model/layers.0/mlp/down_proj/MatMul"),
            "model.layers.0.mlp.down_proj");
  EXPECT_EQ(scopeFromNodeName("/model/layers.0/mlp/down_proj/MatMul_1"),
            "model.layers.0.mlp.down_proj");
  EXPECT_EQ(scopeFromNodeName("/conv1/Conv"), "conv1");
  EXPECT_EQ(scopeFromNodeName("/layer1/layer1.0/conv1/Conv"), "layer1.0.conv1");
  EXPECT_EQ(scopeFromNodeName("/layer1/layer1.0/downsample/downsample.0/Conv"),
            "layer1.0.downsample.0");
  EXPECT_EQ(scopeFromNodeName("/blocks.0/fcn_layer/Gemm"), "blocks.0.fcn_layer");
  EXPECT_EQ(scopeFromNodeName("/Flatten"), "");
  EXPECT_EQ(scopeFromNodeName("node_MatMul_3"), "");
  EXPECT_EQ(scopeFromNodeName(""), "");
}

TEST(GraphMap, ScopeFromDynamoMetadata) {
  EXPECT_EQ(scopeFromNameScopes("['', 'model', 'model.layers.0', 'model.layers.0.mlp']"),
            "model.layers.0.mlp");
  EXPECT_EQ(scopeFromNameScopes("[\"\", \"layer1\", \"0\", \"conv1\"]"), "layer1.0.conv1");
  EXPECT_EQ(scopeFromNameScopes("['']"), "");
  EXPECT_EQ(scopeFromNameScopes("['unterminated"), "");
  EXPECT_EQ(scopeFromNamespace(": Model/model: Qwen3Model/model.layers.0: Qwen3DecoderLayer"),
            "model.layers.0");
  EXPECT_EQ(scopeFromNamespace(""), "");
}

struct Pair {
  SourceManager sm;
  DiagnosticEngine diags{sm};
  ir::Inventory inv;
  ir::OnnxGraph graph;
  bool read(const std::string &onnx, const std::string &map = "") {
    if (!readers::readInventory(kInputs + "pair.index.json", inv, diags))
      return false;
    graph.path = kInputs + onnx;
    graph.mapPath = map.empty() ? "" : kInputs + map;
    return readers::readOnnxGraph(inv, graph, diags);
  }
  const ir::NodeMapping &of(const std::string &module) const {
    return graph.modules[inv.index.at(module)];
  }
  std::string node(const std::string &module, size_t i = 0) const {
    return graph.nodes[of(module).nodes.at(i)].name;
  }
};

TEST(GraphMap, TorchScriptPair) {
  Pair p;
  ASSERT_TRUE(p.read("torchscript.onnx"));
  EXPECT_EQ(p.of("model.norm").how, ir::NodeMapping::Weight);
  EXPECT_EQ(p.node("model.norm"), "/model/norm/Mul_1");
  EXPECT_EQ(p.node("model.embed_tokens"), "/model/embed_tokens/Gather");
  EXPECT_EQ(p.of("model.layers.0.self_attn.q_proj").how, ir::NodeMapping::Scope);
  EXPECT_EQ(p.node("model.layers.0.self_attn.q_proj"), "/model/layers.0/self_attn/q_proj/MatMul");
  EXPECT_EQ(p.node("lm_head"), "/lm_head/MatMul");
  const ir::NodeMapping &split = p.of("model.layers.1.mlp.down_proj");
  EXPECT_EQ(split.how, ir::NodeMapping::None);
  EXPECT_TRUE(split.nodes.empty());
  EXPECT_EQ(split.candidates.size(), 2u);
  // Constant nodes are not graph nodes.
  for (const ir::GraphNode &n : p.graph.nodes)
    EXPECT_NE(n.opType, "Constant");
}

TEST(GraphMap, MappingFileWins) {
  Pair p;
  ASSERT_TRUE(p.read("torchscript.onnx", "map.json"));
  EXPECT_EQ(p.of("model.layers.1.mlp.down_proj").how, ir::NodeMapping::MapFile);
  EXPECT_EQ(p.node("model.layers.1.mlp.down_proj"), "/model/layers.1/mlp/down_proj/MatMul");
  EXPECT_TRUE(p.of("model.layers.1.mlp.down_proj").at.valid());
}

TEST(GraphMap, DynamoPairByMetadata) {
  Pair p;
  ASSERT_TRUE(p.read("dynamo.onnx"));
  for (int layer = 0; layer < 2; ++layer) {
    std::string q = "model.layers." + std::to_string(layer) + ".self_attn.q_proj";
    EXPECT_EQ(p.of(q).how, ir::NodeMapping::Scope) << q;
    EXPECT_EQ(p.graph.nodes[p.of(q).nodes.at(0)].opType, "MatMul") << q;
  }
  EXPECT_EQ(p.of("lm_head").how, ir::NodeMapping::Weight);
}

TEST(GraphMap, UnnamedNodeKeptAndMarked) {
  Pair p;
  ASSERT_TRUE(p.read("unnamed.onnx"));
  const ir::GraphNode &head = p.graph.nodes[p.of("lm_head").nodes.at(0)];
  EXPECT_TRUE(head.unnamed);
  EXPECT_EQ(head.name.rfind("MatMul_", 0), 0u);
}

} // namespace
