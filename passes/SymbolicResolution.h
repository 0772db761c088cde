// Without an inventory there are no modules to resolve, so the rules are resolved over what they
// name: one entry per distinct written selector (a type, or a name pattern), selected by every
// selector written the same way. The precedence, protect and tuning steps are PrecedencePass's
// own (passes/PrecedencePass.cpp). The pass stores the result once (ir::Resolution::symbolic,
// and per target ir::TargetReading::symbolic), and the emitters lower the stored entries, never
// combining rules themselves.
#pragma once

#include "ir/Diagnostics.h"
#include "ir/IR.h"

#include <string>
#include <vector>

namespace qspec::passes {

using SymbolicEntry = ir::SymbolicEntry;

// The entries of `spec` in first-written order (protects, tuning excludes, overrides, raises).
// With `nameType` set, every name entry is also selected by the type selectors written
// `nameType` (a vendor that quantizes that type only reads every name it is given as one), below
// the name's own rules as precedence puts type below name, and the type has an entry even when no
// rule names it (last; what a module no name rule decides gets). Reports conflicts and errors as
// PrecedencePass does when `diags` is set; returns false after one (reported or not).
bool resolveSymbolic(const ir::Spec &spec, DiagnosticEngine *diags, std::vector<SymbolicEntry> &out,
                     const std::string &nameType = "");

} // namespace qspec::passes
