// PatternResolutionPass: what every selector selects.
//
// 1. Without an inventory, note once that name checks are skipped, and stop (patterns are
//    emitted as written).
// 2. For every selector of protect, override, declared-group, tuning exclude and tuning raise,
//    select the modules it names (ir::ModuleSelector: msModelSlim glob meaning, or a type).
// 3. Record the selection by selector in the resolution, for later passes and for qlint.
// 4. A selector that selects nothing is a warning (an error under -Werror): users of every peer
//    tool lose hours to patterns that silently match nothing.
#include "passes/Pass.h"

namespace qspec::passes {
namespace {

class PatternResolutionPass : public Pass {
public:
  const char *name() const override { return "select"; }

  bool run(PassContext &ctx) override {
    ir::Spec &spec = ctx.spec;
    if (!spec.inventory.present()) {
      ctx.noteNoInventory();
      return true;
    }
    const ir::ModuleSelector &modules = ctx.modules();
    auto resolve = [&](const ir::Selector &s) {
      std::vector<uint32_t> hits = modules.select(s);
      if (hits.empty())
        ctx.diags.report(s.kind == ir::Selector::Type ? DiagID::warn_type_matches_nothing
                                                      : DiagID::warn_pattern_matches_nothing,
                         s.range, {s.text});
      spec.resolution.selected[&s] = std::move(hits);
    };
    for (const ir::Protect &p : spec.protects)
      resolve(p.selector);
    for (const ir::Override &o : spec.overrides)
      for (const ir::Selector &s : o.selectors)
        resolve(s);
    for (const ir::GroupDecl &g : spec.groups)
      for (const ir::Selector &s : g.members)
        resolve(s);
    for (const ir::Selector &s : spec.tune.excludes)
      resolve(s);
    for (const ir::TuningRaise &r : spec.tune.raises)
      for (const ir::Selector &s : r.selectors)
        resolve(s);
    return true;
  }
};

} // namespace

std::unique_ptr<Pass> createPatternResolutionPass() { return std::make_unique<PatternResolutionPass>(); }

} // namespace qspec::passes
