// msmodelslim-extra-key: a key the practice schema does not define at that level (pydantic
// extra=forbid), with a did-you-mean. msModelSlim's pydantic models refuse unknown keys
// (`extra=forbid`) in `metadata`, `spec`, every processor and saver, `qconfig` and its
// `act`/`weight`, `prior` items and autoround strategies; the message is the vendor's `Extra inputs
// are not permitted`, at the key, with the closest allowed key. The top level and
// `multimodal_sd_config` allow extras (reference 1.2, 1.4, 2, 4), its `dump_config` does not. The
// check is the vendor model's (vendors/msmodelslim checkPractice, `extra-key`).
#include "lint/rules/msmodelslim/PracticeUtil.h"

namespace qspec::lint {

void checkMsmodelslimExtraKey(PracticeInput &ctx) {
  practice::reportVendorIssues(ctx, RuleID::MsmodelslimExtraKey, {msmodelslim::Check::ExtraKey});
}

} // namespace qspec::lint
