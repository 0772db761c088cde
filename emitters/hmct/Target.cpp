// The hmct backend's registration: what it can express (for the passes) and its factory.
#include "emitters/hmct/HmctEmitter.h"

namespace qspec::emit {

void registerHmctEmitter() {
  ir::TargetInfo info;
  info.kind = "hmct";
  info.emitKind = "hmct-json";
  info.fileExtension = ".json";
  info.optionKeys = {"march", "calibration_type", "model_output_type", "num_bin", "max_num_bin", "max_percentile", "per_channel", "asymmetric", "bias_correction", "onnx", "search"};
  info.canExpress = [](const ir::Target &target, ir::Tier tier, const std::string &type, std::string &why) {
    // HMCT qtypes: int8, int16, float16, float32 everywhere on nash; dual-int16 only on
    // Conv, MatMul, Gemm and ConvTranspose; no int4.
    if (tier == ir::Tier::DualInt16) {
      if (type.empty() || type == "Conv" || type == "MatMul" || type == "Gemm" || type == "ConvTranspose")
        return true;
      why = "dual-int16 exists only on Conv, MatMul, Gemm and ConvTranspose";
      return false;
    }
    if (tier == ir::Tier::Int4) {
      why = "HMCT has no int4 qtype";
      return false;
    }
    return true;
  };
  registerEmitter(std::move(info), [] { return std::make_unique<HmctEmitter>(); });
}

} // namespace qspec::emit
