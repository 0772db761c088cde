// llmc-invalid-file: the file does not parse as an llm-compressor recipe (the first
// QuantizationModifier or GPTQModifier of any stage) or a compressed-tensors quantization_config:
// YAML or JSON syntax, a field of the wrong type, a preset scheme. The vendor model's check
// (vendors::ct::checkDocument, parse).
#include "lint/rules/llmc/LlmcUtil.h"

namespace qspec::lint {

void checkLlmcInvalidFile(RecipeInput &ctx) {
  llmc::reportIssues(ctx, RuleID::LlmcInvalidFile, vendors::ct::Check::Parse);
}

} // namespace qspec::lint
