// PatternResolutionPass: what every selector selects.
//
// 1. Without an inventory, note once that name checks are skipped, and stop (patterns are
//    emitted as written).
// 2. For every selector of protect, override, declared-group, tuning exclude and tuning raise,
//    select the modules it names (ir::ModuleSelector: msModelSlim glob meaning, or a type).
// 3. Record the selection by selector in the resolution, for later passes and for qlint.
// 4. A selector that selects nothing is a warning (an error under -Werror): users of every peer
//    tool lose hours to patterns that silently match nothing.
// 5. A tuning level made only of patterns that select no module is an error.
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
    // 5. A fallback level made only of patterns that select nothing would be a search round that
    //    changes nothing: an error, since the driver would waste an evaluation on it.
    for (const ir::Level &level : spec.tune.levels) {
      bool onlyPatterns = !level.terms.empty(), any = false;
      for (const ir::LevelTerm &t : level.terms) {
        if (t.kind != ir::LevelTerm::Pattern) {
          onlyPatterns = false;
          break;
        }
        std::string err;
        if (auto p = Pattern::compile(t.pattern, err))
          any = any || !modules.selectPattern(*p).empty();
      }
      if (onlyPatterns && !any)
        ctx.diags.report(DiagID::err_level_empty, level.range, {level.text});
    }
    return true; // errors are recorded; the later passes still mean something
  }
};

} // namespace

std::unique_ptr<Pass> createPatternResolutionPass() { return std::make_unique<PatternResolutionPass>(); }

} // namespace qspec::passes
