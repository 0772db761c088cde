// vendors/ViewIndex.h: the readers' flat name index (AMCT's lists, HMCT's node_config/op_config).
#include "vendors/ViewIndex.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

using namespace qspec;

// A repeated key keeps its first value unless asked to replace it; the index grows past its
// first size without losing keys; a miss, a prefix of a key and "" are told apart.
TEST(ViewIndex, FirstOrLastValueGrowthAndMisses) {
  std::vector<std::string> names;
  for (int i = 0; i < 5000; ++i)
    names.push_back("model.layers." + std::to_string(i) + ".mlp");
  vendors::ViewIndex<int> index; // sized for none: grows many times
  EXPECT_EQ(index.find("a"), nullptr);
  for (size_t i = 0; i < names.size(); ++i)
    index.add(names[i], static_cast<int>(i));
  index.add(names[7], -1);       // first wins
  index.add(names[8], -2, true); // last wins
  index.add("", 42);
  EXPECT_EQ(index.size(), names.size() + 1);
  for (size_t i = 0; i < names.size(); ++i) {
    const int *v = index.find(names[i]);
    ASSERT_NE(v, nullptr) << names[i];
    EXPECT_EQ(*v, i == 8 ? -2 : static_cast<int>(i));
  }
  EXPECT_EQ(index.find("model.layers.5000.mlp"), nullptr);
  EXPECT_EQ(index.find("model.layers.1"), nullptr);
  ASSERT_NE(index.find(""), nullptr);
  EXPECT_EQ(*index.find(""), 42);
}

// FlatIndex with a key of its own type and hash (the msModelSlim emitter's recipe signatures):
// tryEmplace adds a key once and hands back the same slot after growth; a weak hash that sends
// every key to one slot still keeps them apart.
TEST(ViewIndex, TryEmplaceWithAnyKeyAndHash) {
  struct Pair {
    int a = 0, b = 0;
    bool operator==(const Pair &o) const { return a == o.a && b == o.b; }
  };
  struct OneSlot {
    size_t operator()(const Pair &) const { return 7; }
  };
  vendors::FlatIndex<Pair, int, OneSlot> index;
  for (int i = 0; i < 100; ++i) {
    auto [at, fresh] = index.tryEmplace({i, -i}, i * 10);
    ASSERT_TRUE(fresh) << i;
    EXPECT_EQ(*at, i * 10);
  }
  auto [again, fresh] = index.tryEmplace({42, -42}, -1);
  EXPECT_FALSE(fresh);
  EXPECT_EQ(*again, 420);
  *again = 5;
  ASSERT_NE(index.find({42, -42}), nullptr);
  EXPECT_EQ(*index.find({42, -42}), 5);
  EXPECT_EQ(index.find({42, 42}), nullptr);
  EXPECT_EQ(index.size(), 100u);
}
