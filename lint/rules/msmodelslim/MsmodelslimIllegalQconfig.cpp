// msmodelslim-illegal-qconfig: a linear_quant qconfig's (scope, dtype, symmetric, method) for
// `act` or `weight` is not a registered quantizer, or uses an unknown dtype/scope. msModelSlim
// refuses it with Code 301 (`No implementation found for ABC ... with dispatch key: ...`); the
// table and wording are the emitter's (msmodelslim::checkQConfig). The attention processors'
// qconfigs (dynamic_cache `qconfig`, fa3_quant `qconfig` and `details`) are checked as
// msModelSlim builds their quantizers (msmodelslim::checkAttentionQConfig, which the emitter's
// attention_quant setting uses too). autoround_quant skips the quantizer table but validates each
// strategy's roles when its config loads (msmodelslim::checkAutoroundRole: ext group_size only
// with per_group, weight ext scale_dtype float16/float32/bfloat16), which the emitter's
// autoround_quant setting uses too. Other processors are left alone.
#include "vendors/msmodelslim/MsModelSlimRules.h"
#include "lint/rules/msmodelslim/PracticeUtil.h"

namespace qspec::lint {

namespace {

// The four fields of a qconfig mapping; false when one is missing (a schema error, not a
// combination) or `symmetric` is not a boolean.
bool readQConfig(const LNode &r, msmodelslim::QConfig &q) {
  const LNode *dtype = r.get("dtype"), *scope = r.get("scope"), *method = r.get("method"),
              *sym = r.get("symmetric");
  if (!dtype || !scope || !method || !sym)
    return false;
  auto b = practice::yamlBool(*sym);
  if (!b)
    return false;
  q.dtype = dtype->value;
  q.scope = scope->value;
  q.method = method->value;
  q.symmetric = *b;
  return true;
}

// An autoround_quant strategy's roles, as its config validator checks them.
void checkAutoroundStrategies(PracticeInput &ctx, const LNode &item, const std::string &path) {
  const LNode *strategies = item.get("strategies");
  for (size_t i = 0; strategies && strategies->isSeq() && i < strategies->seq.size(); ++i) {
    const LNode *qc = strategies->seq[i].get("qconfig");
    for (const char *role : {"act", "weight"}) {
      const LNode *r = qc && qc->isMap() ? qc->get(role) : nullptr;
      msmodelslim::QConfig q;
      if (!r || !r->isMap() || !readQConfig(*r, q))
        continue;
      const LNode *ext = r->get("ext");
      const LNode *gs = ext && ext->isMap() ? ext->get("group_size") : nullptr;
      const LNode *sd = ext && ext->isMap() ? ext->get("scale_dtype") : nullptr;
      bool gsInt = gs && gs->isScalar() && !gs->quoted && !gs->value.empty() &&
                   gs->value.find_first_not_of("-0123456789") == std::string::npos;
      std::string why;
      if (!msmodelslim::checkAutoroundRole(
              role[0] == 'a' ? msmodelslim::Role::Act : msmodelslim::Role::Weight, q,
              gs ? &gs->value : nullptr, gsInt, sd ? &sd->value : nullptr, why))
        ctx.report(RuleID::MsmodelslimIllegalQconfig, r->range,
                   "Configuration validation failed for " + path + ".autoround_quant.strategies." +
                       std::to_string(i) + ": " + why);
    }
  }
}

} // namespace

void checkMsmodelslimIllegalQconfig(PracticeInput &ctx) {
  if (!ctx.tree || !ctx.tree->isMap())
    return;
  practice::forEachProcessor(*ctx.tree, [&](const LNode &item, const std::string &path) {
    const LNode *type = item.get("type");
    const LNode *qc = item.get("qconfig");
    if (!type)
      return;
    std::string why;
    msmodelslim::QConfig q;
    if (msmodelslim::isAttentionProcessor(type->value)) {
      std::vector<std::pair<const LNode *, std::string>> roles = {{qc, "qconfig"}};
      if (const LNode *d = item.get("details"); d && d->isMap())
        for (const char *k : {"fa_q", "fa_k", "fa_v"})
          roles.emplace_back(d->get(k), std::string("details.") + k);
      for (const auto &[r, name] : roles)
        if (r && r->isMap() && readQConfig(*r, q) &&
            !msmodelslim::checkAttentionQConfig(type->value, q, why))
          ctx.report(RuleID::MsmodelslimIllegalQconfig, r->range,
                     path + "." + type->value + "." + name + ": " + why);
      return;
    }
    if (type->value == "autoround_quant")
      return checkAutoroundStrategies(ctx, item, path);
    if (type->value != "linear_quant" || !qc || !qc->isMap())
      return;
    for (const char *role : {"act", "weight"}) {
      const LNode *r = qc->get(role);
      if (!r || !r->isMap() || !readQConfig(*r, q))
        continue;
      if (!msmodelslim::checkQConfig(
              role[0] == 'a' ? msmodelslim::Role::Act : msmodelslim::Role::Weight, q, why))
        ctx.report(RuleID::MsmodelslimIllegalQconfig, r->range,
                   path + ".linear_quant.qconfig." + role + ": " + why);
    }
  });
}

} // namespace qspec::lint
