// The hmct backend's registration: what it can express (for the passes) and its factory.
// The vendor facts behind canExpress live in HmctRules (shared with qlint).
#include "emitters/hmct/HmctEmitter.h"
#include "vendors/hmct/HmctReader.h"
#include "vendors/hmct/HmctRules.h"

namespace qspec::emit {

void registerHmctEmitter() {
  ir::TargetInfo info;
  info.kind = "hmct";
  info.emitKind = "hmct-json";
  info.fileExtension = ".json";
  info.optionKeys = {"march",           "calibration_type", "model_output_type", "num_bin",
                     "max_num_bin",     "max_percentile",   "per_channel",       "asymmetric",
                     "bias_correction", "search",           "silence",           "modelwise_search",
                     "layerwise_search"};
  info.canExpress = [](const ir::Target &target, ir::Tier tier, const std::string &type,
                       std::string &why) {
    // HMCT qtypes: int8, int16, float16, float32 everywhere on nash; dual-int16 only on
    // Conv, MatMul, Gemm and ConvTranspose; no int4. Older marches have fewer (bayes: no
    // float16, bernoulli: int8 only).
    if (tier == ir::Tier::Int4) {
      why = "HMCT has no int4 qtype";
      return false;
    }
    if (tier == ir::Tier::DualInt16 && !type.empty() && !hmct::isDualInt16OpType(type)) {
      why = "dual-int16 exists only on Conv, MatMul, Gemm and ConvTranspose";
      return false;
    }
    if (const ir::Option *m = target.option("march"); m && m->values.size() == 1) {
      std::string q = hmct::qtypeForTier(tier);
      if (!hmct::qtypeAllowedOnMarch(m->values[0].text, q)) {
        why = "march '" + m->values[0].text + "' has no qtype '" + q + "'";
        return false;
      }
    }
    return true;
  };
  // HMCT reads the exported ONNX graph: node_config by node name, op_config by ONNX op type.
  info.names = [](const ir::Target &) { return ir::TargetInfo::Names::OnnxGraph; };
  registerEmitter(std::move(info), [] { return std::make_unique<HmctEmitter>(); });
  vendors::registerReader("hmct", &vendors::readHmct);
}

} // namespace qspec::emit
