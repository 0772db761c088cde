// ir::outputHead: one answer for every layout of where the output head sits, tied or listed, and
// ir::tiedHead for a protect that names the head.
#include "ir/Suggest.h"

#include <gtest/gtest.h>

#include <initializer_list>
#include <string>

using namespace qspec;

namespace {

ir::Inventory headInventory(std::initializer_list<const char *> names) {
  ir::Inventory inv;
  inv.path = "model.safetensors.index.json";
  for (const char *n : names)
    inv.modules.push_back({n, "", -1, 0, false, false});
  inv.rebuildIndex();
  return inv;
}

// The head's name when it is tied to the embedding, "" when it is listed or there is none.
std::string tiedName(const ir::Inventory &inv, const ir::ModelConfig &config = {}) {
  std::optional<ir::OutputHead> h = ir::outputHead(inv, config);
  return h && h->tied() ? h->name : "";
}

} // namespace

TEST(OutputHead, TiedHeadSitsBesideTheBaseModel) {
  EXPECT_EQ(tiedName(headInventory({"model.embed_tokens", "model.norm"})), "lm_head");
  EXPECT_EQ(tiedName(headInventory({"language_model.model.embed_tokens", "vision_tower.x"})),
            "language_model.lm_head");
  EXPECT_EQ(tiedName(headInventory({"model.text_model.embed_tokens", "model.vision_model.x"})),
            "lm_head");
  EXPECT_EQ(tiedName(headInventory({"model.language_model.embed_tokens"})), "lm_head");
  EXPECT_EQ(tiedName(headInventory({"model.text_model.model.embed_tokens"})),
            "model.text_model.lm_head");
  EXPECT_EQ(tiedName(headInventory({"transformer.wte", "transformer.h.0.attn.c_attn"})), "lm_head");
  EXPECT_EQ(tiedName(headInventory({"model.decoder.embed_tokens"})), "lm_head");
  EXPECT_EQ(tiedName(headInventory({"encoder.embed_tokens"})), "lm_head");
  EXPECT_EQ(tiedName(headInventory({"embed_tokens"})), "lm_head");
}

TEST(OutputHead, ListedHeadIsNotTied) {
  ir::ModelConfig none;
  ir::Inventory vlm =
      headInventory({"language_model.lm_head", "language_model.model.embed_tokens"});
  auto h = ir::outputHead(vlm, none);
  ASSERT_TRUE(h);
  EXPECT_FALSE(h->tied());
  EXPECT_EQ(h->name, "language_model.lm_head");
  // Beside a new-style VLM's `model.language_model`, the head is at the top.
  ir::Inventory top = headInventory({"lm_head", "model.language_model.embed_tokens"});
  h = ir::outputHead(top, none);
  ASSERT_TRUE(h && h->module);
  EXPECT_EQ(h->module->name, "lm_head");
  // A head elsewhere than the rule expects is still the head (GPT-NeoX's `embed_out`).
  ir::Inventory neox = headInventory({"gpt_neox.embed_in", "embed_out"});
  h = ir::outputHead(neox, none);
  ASSERT_TRUE(h && h->module);
  EXPECT_EQ(h->name, "embed_out");
  EXPECT_FALSE(ir::outputHead(headInventory({"conv1", "fc"}), none));
}

TEST(OutputHead, ConfigSaysWhetherTheHeadIsTied) {
  ir::Inventory inv = headInventory({"model.embed_tokens", "model.layers.0.mlp.down_proj"});
  ir::ModelConfig config;
  config.tieWordEmbeddings = false;
  EXPECT_FALSE(ir::outputHead(inv, config));
  config.tieWordEmbeddings = true;
  EXPECT_EQ(tiedName(inv, config), "lm_head");
}

TEST(OutputHead, TiedHeadForAProtectNamingTheHead) {
  ir::ModelConfig none;
  ir::Inventory inv = headInventory({"language_model.model.embed_tokens"});
  for (const char *text : {"lm_head", "lm_head.weight", "*.lm_head", "language_model.lm_head"}) {
    auto h = ir::tiedHead(inv, none, text);
    ASSERT_TRUE(h) << text;
    EXPECT_EQ(h->name, "language_model.lm_head");
    EXPECT_EQ(h->embedding->name, "language_model.model.embed_tokens");
  }
  EXPECT_FALSE(ir::tiedHead(inv, none, "language_model.model.norm"));
  ir::Inventory listed = headInventory({"lm_head", "model.embed_tokens"});
  EXPECT_FALSE(ir::tiedHead(listed, none, "lm_head"));
}
