// hmct-invalid-json: the quant_config is not JSON once `//` and `/* */` comments are stripped
// the way HMCT strips them (so `#` comments and trailing commas still break it), or its root is
// not an object. HMCT fails in json.loads before any check.
#include "lint/Context.h"

namespace qspec::lint {

void checkHmctInvalidJson(QuantConfigInput &ctx) {
  if (ctx.parseError) {
    ctx.report(RuleID::HmctInvalidJson, ctx.parseError->range,
               "invalid JSON (after stripping // and /* */ comments as HMCT does): " +
                   ctx.parseError->message);
    return;
  }
  if (ctx.tree && !ctx.tree->isMap())
    ctx.report(RuleID::HmctInvalidJson, ctx.tree->range, "a quant_config must be a JSON object");
}

} // namespace qspec::lint
