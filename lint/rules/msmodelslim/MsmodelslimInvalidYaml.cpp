// msmodelslim-invalid-yaml: the practice does not load: a YAML syntax error, or a root that is
// not a mapping (msModelSlim: `dict must be dict, not list.`).
#include "lint/Context.h"

namespace qspec::lint {

void checkMsmodelslimInvalidYaml(PracticeInput &ctx) {
  if (ctx.parseError) {
    ctx.report(RuleID::MsmodelslimInvalidYaml, ctx.parseError->range,
               "invalid YAML: " + ctx.parseError->message);
    return;
  }
  if (ctx.tree && !ctx.tree->isMap()) {
    const char *kind = ctx.tree->isSeq()               ? "list"
                       : ctx.tree->kind == LNode::Null ? "NoneType"
                                                       : "str";
    ctx.report(
        RuleID::MsmodelslimInvalidYaml, ctx.tree->range,
        std::string("the practice must be a mapping (msModelSlim: 'dict must be dict, not ") +
            kind + ".')");
  }
}

} // namespace qspec::lint
