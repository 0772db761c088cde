// amct-unknown-field: a field name or enum value the AMCT messages do not define (e.g.
// `nuq_config` or `joint_quant`, which exist only in the ONNX/TF/Caffe flavours). AMCT for
// PyTorch refuses the file: `Message type "AMCTPytorchProto.AMCTConfig" has no field named "X".`
// With --amct-framework, a field the project's (PyTorch) messages have but that framework's
// AMCT lacks is reported too (vendor check amct-framework-field: Caffe QAT skip_layer_types).
#include "lint/rules/amct/AmctUtil.h"

namespace qspec::lint {

void checkAmctUnknownField(AmctInput &ctx) {
  if (ctx.amctParsed) {
    amctlint::reportFindings(ctx, RuleID::AmctUnknownField, amct::Check::FrameworkField);
    return;
  }
  for (const auto &e : ctx.amctErrors) {
    const std::string &msg = e.message;
    if (!amctlint::isUnknownFieldError(msg))
      continue;
    Diagnostic &d = ctx.report(RuleID::AmctUnknownField, amctlint::errorRange(ctx, e), msg);
    amctlint::addParseNotes(ctx, d);
    break;
  }
}

} // namespace qspec::lint
