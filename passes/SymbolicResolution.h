// Without an inventory there are no modules to resolve, so the rules are resolved over what they
// name: one entry per distinct written selector (a type, or a name pattern), selected by every
// selector written the same way. The precedence, protect and tuning steps are PrecedencePass's
// own (passes/PrecedencePass.cpp), so an emitter lowers these entries and never combines rules
// itself.
#pragma once

#include "ir/Diagnostics.h"
#include "ir/IR.h"

#include <string>
#include <vector>

namespace qspec::passes {

struct SymbolicEntry {
  bool isType = false;
  std::string text;                            // the selector as written
  std::vector<const ir::Selector *> selectors; // every selector written so, in rule order
  ir::ResolvedModule module;                   // defaults, overrides, protect and tuning applied
};

// The entries of `spec` in first-written order (protects, tuning excludes, overrides, raises).
// Reports conflicts and errors as PrecedencePass does when `diags` is set; returns false after
// one (reported or not).
bool resolveSymbolic(const ir::Spec &spec, DiagnosticEngine *diags,
                     std::vector<SymbolicEntry> &out);

} // namespace qspec::passes
