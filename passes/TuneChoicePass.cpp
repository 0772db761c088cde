// TuneChoicePass: a tune block that names one anti-outlier candidate has decided it.
//
// 1. `tune { anti_outlier A, B }` lists candidates for qtune; the targets keep their own
//    processor. With exactly one candidate (what `qtune apply` writes, and what qtune gives each
//    probe), that candidate is the processor.
// 2. For every target whose backend accepts an `anti_outlier` setting (msModelSlim), the
//    candidate replaces the target's `anti_outlier`: the target's own block for that processor
//    (with its parameters) when it configures one, else a bare `anti_outlier CANDIDATE`.
//    A target without the setting gets the bare one.
// 3. Targets whose backend has no such setting are left alone. Reports nothing (the emitter
//    checks the processor's name).
#include "passes/Pass.h"

#include "ir/TargetInfo.h"

#include <algorithm>

namespace qspec::passes {
namespace {

bool takesAntiOutlier(const ir::Target &t) {
  const ir::TargetInfo *info = ir::findTarget(t.kind);
  return info && std::find(info->optionKeys.begin(), info->optionKeys.end(), "anti_outlier") !=
                     info->optionKeys.end();
}

void choose(ir::Target &target, const std::string &candidate, SourceRange statement) {
  auto it = std::find_if(target.options.begin(), target.options.end(),
                         [](const ir::Option &o) { return o.key == "anti_outlier"; });
  ir::Option chosen;
  chosen.key = "anti_outlier";
  chosen.range = chosen.keyRange = statement;
  if (it != target.options.end()) {
    chosen.range = it->range;
    chosen.keyRange = it->keyRange;
    for (const ir::Option &c : it->children)
      if (c.key == candidate) {
        chosen.isBlock = true;
        chosen.children.push_back(c);
      }
  }
  if (chosen.children.empty()) {
    ir::Value v;
    v.kind = ir::Value::Ident;
    v.text = candidate;
    v.range = statement;
    chosen.values.push_back(v);
  }
  if (it != target.options.end())
    *it = std::move(chosen);
  else
    target.options.push_back(std::move(chosen));
}

class TuneChoicePass : public Pass {
public:
  const char *name() const override { return "tune-choice"; }

  bool run(PassContext &ctx) override {
    ir::Spec &spec = ctx.spec;
    if (spec.tune.antiOutlier.size() != 1)
      return true;
    SourceRange at =
        spec.tune.antiOutlierStatement.valid() ? spec.tune.antiOutlierStatement : spec.tune.range;
    for (ir::Target &t : spec.targets)
      if (takesAntiOutlier(t))
        choose(t, spec.tune.antiOutlier.front(), at);
    return true;
  }
};

} // namespace

std::unique_ptr<Pass> createTuneChoicePass() { return std::make_unique<TuneChoicePass>(); }

} // namespace qspec::passes
