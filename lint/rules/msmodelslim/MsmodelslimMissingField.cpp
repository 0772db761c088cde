// msmodelslim-missing-field: a field the practice schema requires is missing (qconfig, weight, a
// qconfig's dtype/scope/method/symmetric, group configs...). A processor or qconfig lacks a field
// the vendor requires: `linear_quant`, `dynamic_cache` and `flex_awq_ssz` need `qconfig`, a qconfig
// pair needs `weight`, a qconfig needs `dtype`, `scope`, `method` and `symmetric`, `awq` needs
// `weight_qconfig`, `group` needs `configs`, `adapt_rotation` needs `stage`, `autoround_quant` a
// non-empty `strategies` (reference 3, 4). msModelSlim: `<path>: Field required`; reported at the
// mapping that lacks it. The check is the vendor model's (vendors/msmodelslim checkPractice,
// `missing-field`).
#include "lint/rules/msmodelslim/PracticeUtil.h"

namespace qspec::lint {

void checkMsmodelslimMissingField(PracticeInput &ctx) {
  practice::reportVendorIssues(ctx, RuleID::MsmodelslimMissingField,
                               {msmodelslim::Check::MissingField});
}

} // namespace qspec::lint
