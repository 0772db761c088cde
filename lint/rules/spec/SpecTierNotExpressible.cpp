// spec-tier-not-expressible: a target cannot express a module's tier for its module type (asked
// through ir::TargetInfo::canExpress by TargetCapabilityPass: err_tier_not_expressible and
// err_tier_not_expressible_pattern).
#include "lint/Context.h"

namespace qspec::lint {

void checkSpecTierNotExpressible(SpecInput &ctx) {
  takeCompilerDiags(ctx, RuleID::SpecTierNotExpressible,
                    {"err_tier_not_expressible", "err_tier_not_expressible_pattern"});
}

} // namespace qspec::lint
