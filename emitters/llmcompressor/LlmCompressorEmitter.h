// The llm-compressor backend: see docs/emitters/llm-compressor.md for the mapping from intent to
// the recipe's QuantizationModifier and the checkpoint's quantization_config.
#pragma once

#include "emitters/Emitter.h"

namespace qspec::emit {

class LlmCompressorEmitter : public Emitter {
public:
  bool emit(const ir::Spec &spec, const ir::Target &target, OutputContext &out,
            DiagnosticEngine &diags) override;
};

} // namespace qspec::emit
