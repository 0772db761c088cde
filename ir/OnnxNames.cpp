#include "ir/OnnxNames.h"

#include <algorithm>
#include <iterator>

namespace qspec::ir {

namespace {

const std::string_view kOnnxOpTypes[] = {
#define ONNX_OP(NAME) #NAME,
#include "ir/OnnxOpTypes.def"
#undef ONNX_OP
};

} // namespace

bool isOnnxOpType(std::string_view type) {
  // The table is sorted by byte order (OnnxOpTypes.def), as string_view compares.
  return std::binary_search(std::begin(kOnnxOpTypes), std::end(kOnnxOpTypes), type);
}

size_t onnxOpTypeCount() { return std::size(kOnnxOpTypes); }

bool inventoryNamesOnnxNodes(const Inventory &inv) {
  if (inv.format == "onnx")
    return true;
  if (inv.format.rfind("manifest", 0) != 0 || inv.modules.empty())
    return false;
  return std::all_of(inv.modules.begin(), inv.modules.end(),
                     [](const Module &m) { return isOnnxOpType(m.type); });
}

} // namespace qspec::ir
