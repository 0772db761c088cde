// The pass framework. Each pass is one file with a numbered algorithm comment at its top, a
// factory, and a row in Passes.def. Passes read the typed spec and write its resolution.
#pragma once

#include "ir/Diagnostics.h"
#include "ir/IR.h"
#include "ir/Select.h"

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace qspec::passes {

// State shared by the passes of one pipeline run.
struct PassContext {
  ir::Spec &spec;
  DiagnosticEngine &diags;
  bool noInventoryNoted = false;

  const ir::ModuleSelector &modules();
  // Reports, once per run, that checks needing module names were skipped.
  void noteNoInventory();
};

class Pass {
public:
  virtual ~Pass() = default;
  virtual const char *name() const = 0;
  // Returns false when the pass reported errors that make later passes meaningless.
  virtual bool run(PassContext &ctx) = 0;
};

struct PassInfo {
  const char *name;
  const char *summary;
  std::unique_ptr<Pass> (*create)();
};
const std::vector<PassInfo> &allPasses();

struct PipelineOptions {
  bool verifyEach = false; // run the IR verifier after every pass
  std::string stopAfter;   // pass name; "" = run all
  bool remarks = false;    // report remark_pass_done after each pass (qcc --remarks)
  // When set, receives each pass's name and wall time in seconds (qcc --time-report).
  std::vector<std::pair<std::string, double>> *timings = nullptr;
  // Asked before each pass; true ends the pipeline there (it then returns false). qspec-lsp
  // abandons a build that a newer edit, a cancellation or a spent budget made useless.
  std::function<bool()> stop;
};

// Runs the registered passes in order. Returns false if any reported an error.
bool runPipeline(ir::Spec &spec, DiagnosticEngine &diags, const PipelineOptions &opts = {});

// Checks the resolution's invariants (sizes, protected = float, groups whole); reports
// violations as internal errors. Used by --verify-each and the tests.
bool verifyResolution(const ir::Spec &spec, DiagnosticEngine &diags, const char *afterPass);

// Factories, one per pass file.
#define PASS(NAME, CLASS, SUMMARY) std::unique_ptr<Pass> create##CLASS();
#include "passes/Passes.def"
#undef PASS

} // namespace qspec::passes
