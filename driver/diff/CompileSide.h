// One side of a semantic comparison compiled as `qcc` compiles it: the frontend, every pass, and
// every target's emitter with its translation validation. `qcc diff` compiles its two specs with
// it, and `qtune report` the base spec and each round's spec.
#pragma once

#include "driver/diff/Compare.h"
#include "ir/Diagnostics.h"

#include <memory>
#include <string>

namespace qspec::driver::diff {

// A side being compiled: its sources, diagnostics and spec; `side` points into them.
struct CompiledSide {
  SourceManager sm;
  DiagnosticEngine diags{sm};
  std::unique_ptr<ir::Spec> spec = std::make_unique<ir::Spec>();
  Side side;
};

struct CompileInputs {
  std::string inventory, scores;     // overrides of the spec's ("" = the spec's own)
  std::string stem;                  // the spec stem the target files are named with
  const std::string *text = nullptr; // the spec's text instead of reading `path`
};

// Compiles the spec at `path` into `c` (warnings off: only errors matter to a comparison) and
// fills `c.side` but its label. False after an error (in `c.diags`).
bool compileSide(CompiledSide &c, const std::string &path, const CompileInputs &in);

} // namespace qspec::driver::diff
