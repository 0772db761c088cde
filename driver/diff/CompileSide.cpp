// Compiling one side of a comparison as qcc does; see CompileSide.h.
#include "driver/diff/CompileSide.h"

#include "emitters/TargetStage.h"
#include "frontend/Frontend.h"
#include "ir/Parallel.h"
#include "passes/Pass.h"
#include "support/Heap.h"

namespace qspec::driver::diff {

bool compileSide(CompiledSide &c, const std::string &path, const CompileInputs &in) {
  std::string ignored;
  c.diags.applyWarningOption("-w", ignored); // only errors matter here
  frontend::FrontendOptions fo;
  fo.inventoryOverride = in.inventory;
  fo.scoresOverride = in.scores;
  ir::Spec &spec = *c.spec;
  if (in.text) {
    auto root = frontend::parseText(path, *in.text, c.diags, fo);
    if (!root || !frontend::buildSpec(*root, path, spec, c.diags, fo))
      return false;
  } else if (!frontend::loadSpec(path, spec, c.diags, fo)) {
    return false;
  }
  support::prepareThreadHeaps(spec.inventory.modules.size(), spec.targets.size(),
                              ir::kParallelMinModules);
  if (!passes::runPipeline(spec, c.diags))
    return false;
  std::vector<const ir::Target *> targets;
  for (const ir::Target &t : spec.targets)
    targets.push_back(&t);
  c.side.files = emit::buildTargets(spec, targets, c.diags, in.stem, "DIR");
  c.side.spec = &spec;
  c.side.sm = &c.sm;
  return !c.diags.hasErrors();
}

} // namespace qspec::driver::diff
