// msmodelslim-illegal-qconfig: a linear_quant qconfig's (scope, dtype, symmetric, method) for
// `act` or `weight` is not a registered quantizer, or uses an unknown dtype/scope. msModelSlim
// refuses it with Code 301 (`No implementation found for ABC ... with dispatch key: ...`); the
// table and wording are the emitter's (msmodelslim::checkQConfig). autoround_quant, which skips
// the check, and other processors are left alone.
#include "vendors/msmodelslim/MsModelSlimRules.h"
#include "lint/rules/msmodelslim/PracticeUtil.h"

namespace qspec::lint {

void checkMsmodelslimIllegalQconfig(PracticeInput &ctx) {
  if (!ctx.tree || !ctx.tree->isMap())
    return;
  practice::forEachProcessor(*ctx.tree, [&](const LNode &item, const std::string &path) {
    const LNode *type = item.get("type");
    if (!type || type->value != "linear_quant")
      return;
    const LNode *qc = item.get("qconfig");
    if (!qc || !qc->isMap())
      return;
    for (const char *role : {"act", "weight"}) {
      const LNode *r = qc->get(role);
      if (!r || !r->isMap())
        continue;
      msmodelslim::QConfig q;
      const LNode *dtype = r->get("dtype"), *scope = r->get("scope"), *method = r->get("method"),
                  *sym = r->get("symmetric");
      if (!dtype || !scope || !method || !sym)
        continue; // a missing field is a schema error, not a combination
      q.dtype = dtype->value;
      q.scope = scope->value;
      q.method = method->value;
      auto b = practice::yamlBool(*sym);
      if (!b)
        continue;
      q.symmetric = *b;
      std::string why;
      if (!msmodelslim::checkQConfig(
              role[0] == 'a' ? msmodelslim::Role::Act : msmodelslim::Role::Weight, q, why))
        ctx.report(RuleID::MsmodelslimIllegalQconfig, r->range,
                   path + ".linear_quant.qconfig." + role + ": " + why);
    }
  });
}

} // namespace qspec::lint
