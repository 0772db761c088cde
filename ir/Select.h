// Which modules of an inventory a selector selects. Built once per inventory and shared by the
// passes, emitters and qlint, so every tool agrees on what a pattern means.
#pragma once

#include "ir/IR.h"

#include <string_view>
#include <unordered_map>
#include <vector>

namespace qspec::ir {

class ModuleSelector {
public:
  explicit ModuleSelector(const Inventory &inv);

  // Indices into inv.modules, ascending.
  std::vector<uint32_t> select(const Selector &s) const;
  std::vector<uint32_t> selectPattern(const Pattern &p) const;
  std::vector<uint32_t> selectType(std::string_view type) const;

private:
  const Inventory &inv_;
  std::unordered_map<std::string, std::vector<uint32_t>> byType_;
};

} // namespace qspec::ir
