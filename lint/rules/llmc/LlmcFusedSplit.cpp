// llmc-fused-split: the shards of a layer vLLM fuses (q/k/v_proj into qkv_proj, gate/up_proj into
// gate_up_proj) resolve to different schemes, or an ignore entry takes some shards and not the
// others. vLLM loads a fused layer with one scheme and refuses one ignored in part, at load time.
// The vendor model's check (vendors::ct::checkDocument, fused-split).
#include "lint/rules/llmc/LlmcUtil.h"

namespace qspec::lint {

void checkLlmcFusedSplit(RecipeInput &ctx) {
  llmc::reportIssues(ctx, RuleID::LlmcFusedSplit, vendors::ct::Check::FusedSplit);
}

} // namespace qspec::lint
