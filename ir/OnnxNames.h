// Which name space a set of names belongs to: ONNX (node names keyed by ONNX op types) or
// PyTorch modules (named_modules() names with their classes). HMCT and AMCT for ONNX match the
// first, msModelSlim, AMCT for PyTorch and the Horizon plugin the second (each backend's
// TargetInfo::names); the target-names pass and qlint's HMCT rules ask here.
#pragma once

#include "ir/IR.h"

#include <string_view>

namespace qspec::ir {

// A standard ONNX operator type (domain ai.onnx, ir/OnnxOpTypes.def), case-sensitive: `MatMul`,
// `Conv`; not `Linear`, `Conv2d`, `matmul` or `/head/Softmax`.
bool isOnnxOpType(std::string_view type);

// The number of standard ONNX operator types the table holds.
size_t onnxOpTypeCount();

// The inventory names ONNX nodes: an ONNX model, or a manifest every entry of which has a
// standard ONNX op type (an exported graph's node list written as `NAME OP_TYPE` lines). A
// safetensors index or header, and a manifest with any other type (`Linear`, `Conv2d`) or an
// untyped entry, names PyTorch modules.
bool inventoryNamesOnnxNodes(const Inventory &inv);

} // namespace qspec::ir
