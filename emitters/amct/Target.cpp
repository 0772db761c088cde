// The amct backend's registration: what it can express (for the passes) and its factory.
#include "emitters/amct/AmctEmitter.h"

namespace qspec::emit {

void registerAmctEmitter() {
  ir::TargetInfo info;
  info.kind = "amct";
  info.emitKind = "amct-cfg";
  info.fileExtension = ".cfg";
  info.variants = {"ptq", "qat"};
  info.defaultVariant = "ptq";
  info.optionKeys = {"framework", "version", "batch_num", "activation_offset", "do_fusion", "skip_fusion_layers", "fakequant_precision_mode", "hardware", "act_algo", "clip_max", "clip_min", "fixed_min", "weight_algo", "channel_wise", "dmq_balancer", "prune", "num_of_bins"};
  info.canExpress = [](const ir::Target &target, ir::Tier tier, const std::string &type, std::string &why) {
    // AMCT: int8, int16 activations (A16W8), 4-bit weights (A8W4), float = skip_layers.
    // INT16 only on the INT16-capable types; no dual-int16, no fp16.
    static const char *int16Types[] = {"Conv2d", "Linear", "ConvTranspose2d", "Conv1d", "ConvTranspose1d",
                                       "GRU", "LSTM", "Conv", "Gemm", "MatMul", "ConvTranspose"};
    switch (tier) {
    case ir::Tier::Int8:
    case ir::Tier::Float:
      return true;
    case ir::Tier::Int4:
      if (target.variant == "qat") {
        const ir::Option *v = target.option("version");
        if (v && !v->values.empty() && (v->values[0].text.rfind("9.0", 0) == 0 || v->values[0].text.rfind("9.1", 0) == 0)) {
          why = "AMCT QAT before 9.2 has no INT4 weights";
          return false;
        }
      }
      return true;
    case ir::Tier::Int16:
      if (type.empty())
        return true;
      for (const char *t : int16Types)
        if (type == t)
          return true;
      why = "INT16 activations only on Conv, Linear, ConvTranspose, GRU and LSTM layers";
      return false;
    default:
      why = "AMCT has no dual-int16 or fp16 quantization";
      return false;
    }
  };
  registerEmitter(std::move(info), [] { return std::make_unique<AmctEmitter>(); });
}

} // namespace qspec::emit
