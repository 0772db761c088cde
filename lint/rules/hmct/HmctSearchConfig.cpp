// hmct-search-config: model_config.modelwise_search / layerwise_search with a `metric` that is
// not one of HMCT's (cosine-similarity, mse, mae, mre, sqnr, chebyshev), or a
// layerwise_search.qtype other than int8 or int16 (horizon.md 1.2). The vendor model's check
// (hmct::checkQuantConfig, search-config).
#include "lint/rules/hmct/QuantConfigUtil.h"

namespace qspec::lint {

void checkHmctSearchConfig(QuantConfigInput &ctx) {
  quantconfig::reportIssues(ctx, RuleID::HmctSearchConfig, hmct::Check::SearchConfig);
}

} // namespace qspec::lint
