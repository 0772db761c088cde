// The llm-compressor backend's registration: what it can express (for the passes) and its factory.
#include "emitters/llmcompressor/LlmCompressorEmitter.h"
#include "vendors/compressed_tensors/CompressedTensors.h"

namespace qspec::emit {

void registerLlmCompressorEmitter() {
  ir::TargetInfo info;
  info.kind = "llm-compressor";
  info.emitKind = "llm-compressor-yaml";
  info.otherEmitKinds = {"compressed-tensors-config"};
  info.fileExtension = ".recipe.yaml"; // beside msModelSlim's SPEC.yaml in --emit=all
  info.optionKeys = {"ignore", "kv_cache", "silence"};
  info.canExpress = [](const ir::Target &, ir::Tier tier, const std::string &type,
                       std::string &why) {
    // compressed-tensors schemes: int4 or int8 weights (int4 per group), int8 or fp8 weights and
    // activations, symmetric or not, static or dynamic; unquantized = an `ignore` entry. vLLM
    // applies them to linear layers only. No 16-bit integer tier, no fp16 tier (the checkpoint's
    // own dtype is the unquantized one: write `float`).
    if (!type.empty() && type != "Linear")
      return true;
    if (tier == ir::Tier::Int4 || tier == ir::Tier::Int8 || tier == ir::Tier::Float)
      return true;
    why = "compressed-tensors has int4, int8 and fp8 schemes and unquantized (ignore) only";
    return false;
  };
  // The expected reading (passes/TargetReadingPass.cpp): vLLM quantizes linear layers only.
  info.quantizesType = [](const ir::Target &, const std::string &type) {
    return type.empty() || type == "Linear";
  };
  registerEmitter(std::move(info), [] { return std::make_unique<LlmCompressorEmitter>(); });
  vendors::registerReader("llm-compressor", &vendors::ct::readCompressedTensors);
}

} // namespace qspec::emit
