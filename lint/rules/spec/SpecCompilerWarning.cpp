// spec-compiler-warning: every compiler warning no more specific rule maps (a setting a target
// cannot carry, a scores file no setting uses, a name a backend rewrites, ...), so qlint warns
// where `qcc --emit=all` warns. The compiler's ID is kept in the message.
#include "lint/Context.h"

namespace qspec::lint {

void checkSpecCompilerWarning(SpecInput &ctx) {
  takeUnmapped(ctx, RuleID::SpecCompilerWarning, [](Severity s) { return s == Severity::Warning; });
}

} // namespace qspec::lint
