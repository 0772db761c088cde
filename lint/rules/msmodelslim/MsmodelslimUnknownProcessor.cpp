// msmodelslim-unknown-processor: an entry of spec.process (or spec.prior[].process, or a
// `group`'s configs) has no `type` or an unknown one. msModelSlim: `spec.process.0.type / Input
// tag 'X' found using 'type' does not match any of the expected tags` or `Unable to extract tag
// using discriminator 'type'`. modelslim_v0 practices have no processors and are skipped.
#include "vendors/msmodelslim/MsModelSlimRules.h"
#include "lint/rules/msmodelslim/PracticeUtil.h"

namespace qspec::lint {

void checkMsmodelslimUnknownProcessor(LintContext &ctx) {
  if (!ctx.tree || !ctx.tree->isMap())
    return;
  std::string api = practice::apiversion(*ctx.tree);
  if (api == "modelslim_v0" || !msmodelslim::isKnownApiVersion(api))
    return;
  practice::forEachProcessor(*ctx.tree, [&](const LNode &item, const std::string &path) {
    const LNode *type = item.get("type");
    if (!item.isMap() || !type) {
      ctx.report(RuleID::MsmodelslimUnknownProcessor, item.range,
                 path + ": Unable to extract tag using discriminator 'type'");
      return;
    }
    if (!type->isScalar() || !msmodelslim::isKnownProcessor(type->value))
      ctx.report(RuleID::MsmodelslimUnknownProcessor, type->range,
                 path + ".type: Input tag '" + type->value +
                     "' found using 'type' does not match any of the expected tags");
  });
}

} // namespace qspec::lint
