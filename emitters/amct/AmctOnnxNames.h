// AMCT for ONNX with two graphs (docs/inputs.md, docs/emitters/amct.md): AMCT-ONNX names layers
// by ONNX node name and types them by ONNX op type, so the spec, resolved over the module
// inventory, is lowered to the ONNX name space before the AMCT writer plans it.
#pragma once

#include "ir/Diagnostics.h"
#include "ir/IR.h"

namespace qspec::emit {

// `out` = `spec` with one inventory entry per graph layer (ir::graphLayers: its node name, its
// op type) resolved as the module it carries; the nodes of a tied output head (ir::graphHead) are
// layers resolved float, so AMCT skips them. A decided module without a usable node is
// warn_amct_module_unmapped; a protected one err_amct_protected_unmapped; two modules with
// different tiers on one node err_amct_node_shared; a tied head without a usable node
// warn_amct_tied_head_unmapped. False after an error (nothing is written).
bool lowerToOnnxNames(const ir::Spec &spec, DiagnosticEngine &diags, ir::Spec &out);

} // namespace qspec::emit
