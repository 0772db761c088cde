// msmodelslim-unknown-apiversion: `apiversion` is missing or names no plugin (modelslim_v0,
// modelslim_v1, multimodal_vlm_modelslim_v1, multimodal_sd_modelslim_v1, modelslim_convert).
// msModelSlim: `No plugin found for type 'X' in group 'msmodelslim.quant_service.plugins'.`
#include "vendors/msmodelslim/MsModelSlimRules.h"
#include "lint/rules/msmodelslim/PracticeUtil.h"

namespace qspec::lint {

void checkMsmodelslimUnknownApiversion(PracticeInput &ctx) {
  if (!ctx.tree || !ctx.tree->isMap())
    return;
  const LNode *v = ctx.tree->get("apiversion");
  std::string name = practice::apiversion(*ctx.tree);
  if (v && v->isScalar() && msmodelslim::isKnownApiVersion(name))
    return;
  ctx.report(RuleID::MsmodelslimUnknownApiversion, v ? v->range : ctx.tree->range,
             "No plugin found for type '" + name +
                 "' in group 'msmodelslim.quant_service.plugins'.");
}

} // namespace qspec::lint
