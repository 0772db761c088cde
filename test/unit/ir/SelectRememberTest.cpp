// ir::ModuleSelector::rememberSelections: a pattern selected again is answered from what was
// kept, with the same modules as a fresh selection; a literal name, or a selection larger than
// the room left, is not kept; a selector that was not asked keeps nothing.
#include "ir/Select.h"

#include <gtest/gtest.h>

using namespace qspec;

namespace {

ir::Inventory llmInventory() {
  ir::Inventory inv;
  for (int n = 0; n < 8; ++n) {
    std::string layer = "model.layers." + std::to_string(n);
    for (const char *m : {"self_attn.q_proj", "mlp.gate_proj", "mlp.down_proj"})
      inv.modules.push_back({layer + "." + m, "Linear", n, 0});
  }
  inv.modules.push_back({"lm_head", "Linear", -1, 0});
  inv.rebuildIndex();
  return inv;
}

Pattern compiled(const char *text) {
  std::string err;
  std::optional<Pattern> p = Pattern::compile(text, err);
  EXPECT_TRUE(p) << text << ": " << err;
  return *p;
}

} // namespace

TEST(SelectRemember, KeepsWhatFitsAndAnswersFromIt) {
  const ir::Inventory inv = llmInventory();
  const Pattern layers = compiled("model.layers.{0..3}.*"), down = compiled("*.down_proj"),
                head = compiled("lm_head");
  const ir::ModuleSelector plain(inv);
  const std::vector<uint32_t> layersIds = plain.selectPatternReference(layers);
  ASSERT_EQ(layersIds.size(), 12u);
  EXPECT_EQ(plain.selectPattern(layers), layersIds);
  EXPECT_EQ(plain.selectPattern(layers), layersIds);
  EXPECT_EQ(plain.remembered().patterns, 0u); // not asked to remember
  EXPECT_EQ(plain.remembered().answers, 0u);

  const ir::ModuleSelector sel(inv);
  sel.rememberSelections(layersIds.size() + 2); // room for `layers`, not for `down` after it
  EXPECT_EQ(sel.selectPattern(layers), layersIds);
  EXPECT_EQ(sel.remembered().patterns, 1u);
  EXPECT_EQ(sel.remembered().ids, layersIds.size());
  EXPECT_EQ(sel.selectPattern(layers), layersIds);
  EXPECT_EQ(sel.remembered().answers, 1u);
  // Through the other ways in: a selector, and msModelSlim's test for a written pattern.
  ir::Selector s;
  s.text = layers.text();
  s.pattern = layers;
  EXPECT_EQ(sel.select(s), layersIds);
  EXPECT_EQ(sel.selectWritten(layers.text(), layers), layersIds);
  EXPECT_EQ(sel.remembered().answers, 3u);

  const std::vector<uint32_t> downIds = sel.selectPatternReference(down);
  ASSERT_EQ(downIds.size(), 8u);
  EXPECT_EQ(sel.selectPattern(down), downIds);
  EXPECT_EQ(sel.selectPattern(down), downIds);
  EXPECT_EQ(sel.selectPattern(head), sel.selectPatternReference(head));
  EXPECT_EQ(sel.selectPattern(head), sel.selectPatternReference(head));
  EXPECT_EQ(sel.remembered().patterns, 1u); // `down` had no room, `lm_head` is a lookup
  EXPECT_EQ(sel.remembered().answers, 3u);
}
