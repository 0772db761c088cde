// PatternResolutionPass: what every selector selects.
//
// 1. Without an inventory, note once that name checks are skipped, and stop (patterns are
//    emitted as written).
// 2. For every selector of protect, override, declared-group, tuning exclude and tuning raise,
//    select the modules it names (ir::ModuleSelector: msModelSlim glob meaning, or a type).
// 3. Record the selection by selector in the resolution, for later passes and for qlint.
// 4. A selector that selects nothing is a warning (an error under -Werror): users of every peer
//    tool lose hours to patterns that silently match nothing. A protect that selects nothing is
//    an error (protect is a safety statement), with a did-you-mean (`lm_head.weight` ->
//    `lm_head`) and, for a tied output head, a note naming the embedding it shares.
// 5. A tuning level made only of patterns that select no module is an error.
#include "ir/Parallel.h"
#include "ir/Suggest.h"
#include "passes/Pass.h"

namespace qspec::passes {
namespace {

class PatternResolutionPass : public Pass {
public:
  const char *name() const override { return "select"; }

  static void reportEmptyProtect(PassContext &ctx, const ir::Selector &s) {
    const ir::Inventory &inv = ctx.spec.inventory;
    Diagnostic &d = ctx.diags.report(DiagID::err_protect_selects_nothing, s.range, {s.text});
    if (s.kind != ir::Selector::Name)
      return;
    if (auto head = ir::tiedHead(inv, ctx.spec.modelConfig, s.text); head && head->embedding)
      ctx.diags.note(d, DiagID::note_protect_tied_head, s.range,
                     {head->embedding->name, head->name});
    else if (const ir::Module *m = ir::suggestModule(inv, s.text))
      ctx.diags.note(d, DiagID::note_did_you_mean, s.range, {m->name});
  }

  bool run(PassContext &ctx) override {
    ir::Spec &spec = ctx.spec;
    if (!spec.inventory.present()) {
      ctx.noteNoInventory();
      return true;
    }
    const ir::ModuleSelector &modules = ctx.modules();
    std::vector<const ir::Selector *> all;
    for (const ir::Protect &p : spec.protects)
      all.push_back(&p.selector);
    for (const ir::Override &o : spec.overrides)
      for (const ir::Selector &s : o.selectors)
        all.push_back(&s);
    for (const ir::GroupDecl &g : spec.groups)
      for (const ir::Selector &s : g.members)
        all.push_back(&s);
    for (const ir::Selector &s : spec.tune.excludes)
      all.push_back(&s);
    for (const ir::TuningRaise &r : spec.tune.raises)
      for (const ir::Selector &s : r.selectors)
        all.push_back(&s);
    // Selectors are independent: on a large inventory they are selected on every core, then
    // recorded and reported in source order.
    std::vector<std::vector<uint32_t>> hits(all.size());
    unsigned threads =
        spec.inventory.modules.size() >= ir::kParallelMinModules ? ir::parallelism(all.size()) : 1;
    ir::parallelFor(all.size(), threads, [&](size_t i) { hits[i] = modules.select(*all[i]); });
    spec.resolution.selected.reserve(all.size());
    for (size_t i = 0; i < all.size(); ++i) {
      const ir::Selector &s = *all[i];
      if (hits[i].empty() && i < spec.protects.size())
        reportEmptyProtect(ctx, s);
      else if (hits[i].empty())
        ctx.diags.report(s.kind == ir::Selector::Type ? DiagID::warn_type_matches_nothing
                                                      : DiagID::warn_pattern_matches_nothing,
                         s.range, {s.text});
      spec.resolution.selected[&s] = std::move(hits[i]);
    }
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

std::unique_ptr<Pass> createPatternResolutionPass() {
  return std::make_unique<PatternResolutionPass>();
}

} // namespace qspec::passes
