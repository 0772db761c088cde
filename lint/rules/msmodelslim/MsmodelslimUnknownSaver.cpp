// msmodelslim-unknown-saver: a spec.save entry's `type` is not a saver of the practice's
// apiversion (modelslim_v1: ascendv1_saver, mindie_format_saver, compressed_tensors; VLM/SD also
// ascendv1_saver_distributed). msModelSlim: `spec.save.N.type / Input tag 'X' found using 'type'
// does not match any of the expected tags: ...`.
#include "vendors/msmodelslim/MsModelSlimRules.h"
#include "lint/rules/msmodelslim/PracticeUtil.h"

namespace qspec::lint {

void checkMsmodelslimUnknownSaver(LintContext &ctx) {
  if (!ctx.tree || !ctx.tree->isMap())
    return;
  std::string api = practice::apiversion(*ctx.tree);
  if (api == "modelslim_v0" || !msmodelslim::isKnownApiVersion(api))
    return;
  const LNode *spec = ctx.tree->get("spec");
  const LNode *save = spec ? spec->get("save") : nullptr;
  if (!save || !save->isSeq())
    return;
  for (size_t i = 0; i < save->seq.size(); ++i) {
    const LNode &item = save->seq[i];
    const LNode *type = item.get("type");
    std::string path = "spec.save." + std::to_string(i);
    if (!type) {
      ctx.report(RuleID::MsmodelslimUnknownSaver, item.range, path + ": Unable to extract tag using discriminator 'type'");
      continue;
    }
    if (!msmodelslim::isKnownSaver(type->value, api))
      ctx.report(RuleID::MsmodelslimUnknownSaver, type->range,
                 path + ".type: Input tag '" + type->value +
                     "' found using 'type' does not match any of the expected tags for " + api);
  }
}

} // namespace qspec::lint
