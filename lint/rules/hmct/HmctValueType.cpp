// hmct-value-type: a value of the wrong JSON type, or outside what HMCT takes (horizon_nn checks
// Python types exactly and lists hold one type only, horizon.md 1.3): `ON` with a dtype instead
// of "BPU"/"CPU" (1.6), the string "true" for per_channel/asymmetric, the integer 1 for
// max_percentile, a mixed-type list, max_percentile above 1.0, bias_correction.num_sample or
// layerwise_search.topk below 1, bias_correction.metric not a metric. The vendor model's check
// (hmct::checkQuantConfig, value-type).
#include "lint/rules/hmct/QuantConfigUtil.h"

namespace qspec::lint {

namespace {

bool endsWith(const std::string &s, const char *suffix) {
  std::string t = suffix;
  return s.size() >= t.size() && s.compare(s.size() - t.size(), t.size(), t) == 0;
}

// Value-type issues another rule reports: a non-string qtype (hmct-invalid-qtype), a root that
// is not an object (hmct-invalid-json), an entry that is not an object (hmct-unknown-key).
bool reportedElsewhere(const hmct::Issue &i) {
  return endsWith(i.message, ": a qtype is a string") ||
         endsWith(i.message, "quant_config must be a JSON object") ||
         endsWith(i.message, ": an entry is an object such as {\"qtype\": \"int16\"}");
}

} // namespace

void checkHmctValueType(QuantConfigInput &ctx) {
  quantconfig::reportIssues(ctx, RuleID::HmctValueType, hmct::Check::ValueType, reportedElsewhere);
}

} // namespace qspec::lint
