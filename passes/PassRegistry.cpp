#include "passes/Pass.h"

#include <chrono>

namespace qspec::passes {

const ir::ModuleSelector &PassContext::modules() {
  // Built by the first pass that needs it and kept in the resolution for the emitters.
  auto &shared = spec.resolution.selector;
  if (!shared || &shared->inventory() != &spec.inventory)
    shared = std::make_shared<const ir::ModuleSelector>(spec.inventory);
  return *shared;
}

void PassContext::noteNoInventory() {
  if (noInventoryNoted)
    return;
  noInventoryNoted = true;
  diags.report(DiagID::note_inventory_skipped, spec.modelRange);
}

const std::vector<PassInfo> &allPasses() {
  static const std::vector<PassInfo> passes = {
#define PASS(NAME, CLASS, SUMMARY) {NAME, SUMMARY, &create##CLASS},
#include "passes/Passes.def"
#undef PASS
  };
  return passes;
}

bool runPipeline(ir::Spec &spec, DiagnosticEngine &diags, const PipelineOptions &opts) {
  PassContext ctx{spec, diags};
  bool ok = true;
  for (const PassInfo &info : allPasses()) {
    if (opts.stop && opts.stop())
      return false;
    auto pass = info.create();
    unsigned before = diags.errorCount();
    auto start = std::chrono::steady_clock::now();
    bool passOk = pass->run(ctx);
    if (opts.timings)
      opts.timings->emplace_back(
          info.name,
          std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
    if (diags.errorCount() > before)
      ok = false;
    if (opts.remarks)
      diags.report(DiagID::remark_pass_done, SourceRange{}, {info.name});
    if (opts.verifyEach && passOk)
      verifyResolution(spec, diags, info.name);
    if (!passOk || opts.stopAfter == info.name)
      break;
  }
  return ok && !diags.hasErrors();
}

} // namespace qspec::passes
