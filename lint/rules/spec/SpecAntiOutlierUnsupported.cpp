// spec-anti-outlier-unsupported: an anti-outlier (suppression) algorithm named in the tune block
// (`anti_outlier`) or in the msmodelslim target block is not one the msModelSlim backend
// supports. The check is the msModelSlim emitter's (err_msmodelslim_unknown_processor, against
// msmodelslim::isAntiOutlierProcessor), so qlint and qcc give one verdict: it runs when the spec
// has an msmodelslim target (no other backend takes a processor) and otherwise compiles.
#include "lint/Context.h"

namespace qspec::lint {

void checkSpecAntiOutlierUnsupported(SpecInput &ctx) {
  takeCompilerDiags(ctx, RuleID::SpecAntiOutlierUnsupported, {"err_msmodelslim_unknown_processor"});
}

} // namespace qspec::lint
