// Module names for the micro-benchmarks, in the naming of bench/gen_inventory.py, built in memory.
#pragma once

#include "ir/IR.h"

#include <string>
#include <vector>

namespace qspec::bench {

// DeepSeek-V3 (61 layers, 3 dense, 256 routed experts, MLA attention): 45,337 modules.
ir::Inventory deepseekV3Inventory();
// The synthetic stress naming: layers of 4 attention projections, a router and 1,024 experts of
// 3 projections, cut at `modules`.
ir::Inventory stressInventory(size_t modules);
// `count` patterns of the mix bench/gen_specs.py writes for DeepSeek-V3 (ranges, lists, `*`,
// `?`, classes, literal names), deterministic.
std::vector<std::string> deepseekPatterns(size_t count);

} // namespace qspec::bench
