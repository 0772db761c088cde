// msmodelslim-blank-default-text: a VLM practice's spec.default_text is blank.
// `default_text` (VLM) must not be blank (reference 2; a validator raising msModelSlim's own
// error, reference 6). On modelslim_v1 the key itself is refused (msmodelslim-extra-key).
// The check is the vendor model's (vendors/msmodelslim checkPractice, `default-text`).
#include "lint/rules/msmodelslim/PracticeUtil.h"

namespace qspec::lint {

void checkMsmodelslimBlankDefaultText(PracticeInput &ctx) {
  practice::reportVendorIssues(ctx, RuleID::MsmodelslimBlankDefaultText,
                               {msmodelslim::Check::DefaultText});
}

} // namespace qspec::lint
