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
