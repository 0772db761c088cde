// amct-parse-error: the .cfg is not a config AMCT accepts. Parsing is strict (libprotobuf's text
// format against the project's AMCT messages, through the emitter's reader amct::parseAmctConfig:
// PTQ AMCTConfig, QAT/prune AMCTRetrainConfig, then KV-cache AMCTQuantCaliConfig), so syntax
// errors, a singular field given twice, two members of one oneof and missing `required` fields
// are refused here, where AMCT's lenient Python parser would silently keep the last value or a
// default; a missing required field is reported at the block that lacks it. Unknown fields
// (amct-unknown-field) and a clip bound without the other (amct-clip-pair) have their own rules.
// Once parsed, every value check of amct::checkDocument has its own rule (amct-batch-num,
// amct-prune-ratio, amct-quant-bits, ...), so `--ignore=amct-parse-error` drops parse errors
// only; what stays here is `amct-version` (INT16 before 9.1.0, which AMCT 9.0.0's own parser
// refuses as an unknown enum value).
#include "lint/rules/amct/AmctUtil.h"

namespace qspec::lint {

void checkAmctParseError(AmctInput &ctx) {
  if (!ctx.amctParsed) {
    for (const auto &e : ctx.amctErrors) {
      const std::string &msg = e.message;
      if (amctlint::isUnknownFieldError(msg) || amctlint::isClipPairError(msg))
        continue;
      Diagnostic &d = ctx.report(RuleID::AmctParseError, amctlint::errorRange(ctx, e),
                                 "not a valid AMCT config: " + msg);
      amctlint::addParseNotes(ctx, d);
      break; // later errors are usually consequences of the first
    }
    return;
  }
  amctlint::reportFindings(ctx, RuleID::AmctParseError, amct::Check::Version);
}

} // namespace qspec::lint
