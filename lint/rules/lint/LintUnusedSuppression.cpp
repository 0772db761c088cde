// lint-unused-suppression: a `qlint: disable=RULE` or `qlint: disable-file=RULE` comment that
// suppresses no finding, or names a rule that does not exist (like ruff's RUF100). The framework
// reports it after applying suppressions (lint/Lint.cpp), since only it knows which were used;
// this entry point has nothing to check on its own.
#include "lint/Context.h"

namespace qspec::lint {

void checkLintUnusedSuppression(LintContext &) {}

} // namespace qspec::lint
