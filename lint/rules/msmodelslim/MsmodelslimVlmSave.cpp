// msmodelslim-vlm-save: a VLM or SD practice's spec.save is empty or its last item is not a saver.
// VLM and SD practices check `save` items against the whole processor union and need a saver
// last: otherwise `TypeError: The save config you provide is not a saver config`; `save: []`
// raises IndexError (reference 2).
// The check is the vendor model's (vendors/msmodelslim checkPractice, `vlm-save`).
#include "lint/rules/msmodelslim/PracticeUtil.h"

namespace qspec::lint {

void checkMsmodelslimVlmSave(PracticeInput &ctx) {
  practice::reportVendorIssues(ctx, RuleID::MsmodelslimVlmSave, {msmodelslim::Check::VlmSave});
}

} // namespace qspec::lint
