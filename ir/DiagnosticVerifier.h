// The verify mode (`qcc --verify`, after clang's -verify): expected diagnostics are written in
// the source, next to the offending line, as comments:
//
//   override name "x.*" { tier int16 }   // expected-warning {{selects no module}}
//   // expected-error@+1 {{unknown tier 'int9'}}
//   tiers int8 < int9
//
// `@+N` / `@-N` shift the line; `@N` names an absolute line. The text in {{...}} must occur in
// the message. Every expected diagnostic must be produced, and every produced error and warning
// must be expected (notes are checked only where an expected-note names them).
#pragma once

#include "ir/Diagnostics.h"

#include <iosfwd>

namespace qspec {

// Compares the diagnostics in `diags` with the expectations written in every file the source
// manager holds text for. Prints mismatches to `os`; returns true when they agree.
bool verifyDiagnostics(const DiagnosticEngine &diags, const SourceManager &sm, std::ostream &os);

} // namespace qspec
