// llmc-unsupported-scheme: a config group's weights or input_activations in a scheme qspec's
// reading does not carry (a width or type other than int4, int8, fp8; a strategy other than
// tensor, channel, group, token), strategy group without group_size, or an activation format whose
// integer-weight group lacks input_activations (vLLM refuses it). The vendor model's check
// (vendors::ct::checkDocument, unsupported-scheme).
#include "lint/rules/llmc/LlmcUtil.h"

namespace qspec::lint {

void checkLlmcUnsupportedScheme(RecipeInput &ctx) {
  llmc::reportIssues(ctx, RuleID::LlmcUnsupportedScheme, vendors::ct::Check::UnsupportedScheme);
}

} // namespace qspec::lint
