// ir::ModuleSelector::derived: an index made once per selector and type, the same object on every
// later call and from every thread, another one for another type or another selector.
#include "ir/Select.h"

#include <gtest/gtest.h>

#include <atomic>
#include <memory>
#include <thread>

using namespace qspec;

namespace {
struct NamesIndex {
  size_t modules;
};
struct OtherIndex {
  int tag;
};
} // namespace

TEST(SelectDerived, MadeOncePerSelectorAndType) {
  ir::Inventory inv;
  inv.modules.push_back({"model.layers.0.mlp.down_proj", "Linear", 0, 0});
  inv.modules.push_back({"lm_head", "Linear", -1, 0});
  inv.rebuildIndex();
  const ir::ModuleSelector selector(inv), another(inv);
  std::atomic<int> made{0};
  auto make = [&] {
    ++made;
    return std::make_unique<NamesIndex>(NamesIndex{inv.modules.size()});
  };
  std::vector<const NamesIndex *> seen(8, nullptr);
  std::vector<std::thread> threads;
  for (size_t t = 0; t < seen.size(); ++t)
    threads.emplace_back([&, t] { seen[t] = &selector.derived<NamesIndex>(make); });
  for (std::thread &t : threads)
    t.join();
  EXPECT_EQ(made, 1);
  for (const NamesIndex *p : seen)
    EXPECT_EQ(p, seen[0]);
  EXPECT_EQ(seen[0]->modules, 2u);
  EXPECT_EQ(
      selector.derived<OtherIndex>([] { return std::make_unique<OtherIndex>(OtherIndex{7}); }).tag,
      7);
  EXPECT_EQ(&selector.derived<NamesIndex>(make), seen[0]);
  EXPECT_EQ(made, 1);
  EXPECT_NE(&another.derived<NamesIndex>(make), seen[0]);
  EXPECT_EQ(made, 2);
}
