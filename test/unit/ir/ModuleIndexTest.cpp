// ir::ModuleIndex (Inventory::index): every name found at its position, absent names not, the
// first position of a repeated name kept, growth past the reserve, and copies and moves of an
// Inventory keep an index over their own names.
#include "ir/IR.h"

#include <gtest/gtest.h>

#include <functional>
#include <stdexcept>
#include <string>
#include <utility>

using namespace qspec;

namespace {
ir::Inventory indexInventory(size_t n) {
  ir::Inventory inv;
  for (size_t i = 0; i < n; ++i)
    inv.modules.push_back(
        {"model.layers." + std::to_string(i / 7) + ".m" + std::to_string(i % 7), "Linear"});
  inv.rebuildIndex();
  return inv;
}

void expectIndexed(const ir::Inventory &inv) {
  ASSERT_EQ(inv.index.size(), inv.modules.size());
  for (uint32_t i = 0; i < inv.modules.size(); ++i) {
    auto it = inv.index.find(inv.modules[i].name);
    ASSERT_NE(it, inv.index.end()) << inv.modules[i].name;
    EXPECT_EQ(it->second, i);
    EXPECT_EQ(inv.find(inv.modules[i].name), &inv.modules[i]);
  }
}
} // namespace

TEST(ModuleIndex, FindsEveryNameAndNoOther) {
  ir::Inventory inv = indexInventory(5000); // grows from 16 slots through every doubling
  expectIndexed(inv);
  EXPECT_EQ(inv.index.find("model.layers.0"), inv.index.end());
  EXPECT_EQ(inv.index.find(""), inv.index.end());
  EXPECT_EQ(inv.index.find("model.layers.0.m7"), inv.index.end());
  EXPECT_EQ(inv.index.at("model.layers.3.m2"), 3u * 7 + 2);
  EXPECT_THROW(inv.index.at("nope"), std::out_of_range);
}

TEST(ModuleIndex, EmptyIndexFindsNothing) {
  ir::Inventory inv;
  EXPECT_EQ(inv.index.size(), 0u);
  EXPECT_EQ(inv.index.find("a"), inv.index.end());
  EXPECT_EQ(inv.find("a"), nullptr);
}

TEST(ModuleIndex, RepeatedNameKeepsTheFirstPosition) {
  ir::Inventory inv;
  inv.modules = {{"a", ""}, {"b", ""}, {"a", ""}};
  inv.rebuildIndex();
  EXPECT_EQ(inv.index.size(), 2u);
  EXPECT_EQ(inv.index.at("a"), 0u);
  auto [first, inserted] = inv.index.insert(2, std::hash<std::string_view>()("a"));
  EXPECT_FALSE(inserted);
  EXPECT_EQ(first, 0u);
}

TEST(ModuleIndex, CopiesAndMovesIndexTheirOwnNames) {
  ir::Inventory a = indexInventory(300);
  ir::Inventory copy = a;
  copy.modules[5].name = "renamed";
  copy.rebuildIndex();
  expectIndexed(a); // the original still reads its own names
  expectIndexed(copy);
  ir::Inventory moved = std::move(copy);
  expectIndexed(moved);
  ir::Inventory assigned;
  assigned = std::move(moved);
  expectIndexed(assigned);
  EXPECT_EQ(assigned.index.at("renamed"), 5u);
  assigned = a;
  expectIndexed(assigned);
  EXPECT_EQ(assigned.index.find("renamed"), assigned.index.end());
}
