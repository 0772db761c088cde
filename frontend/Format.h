// `qcc fmt`: the one canonical layout of a .qspec file, built on the parser's tokens and the
// AST's source ranges (never a hand-written lexer).
//
// Only whitespace between tokens changes, so the token sequence, and with it the meaning, is the
// same before and after. The layout: one statement per line (a statement starts where an AST
// statement node's range starts), two spaces per `{ }` level, `{` at the end of its line and `}`
// on its own; a block written on one line stays on one line; a line break the author put inside
// a statement stays as a continuation line (indent + 4); one space between tokens, none before
// `,` and `;`, after a unary `-` or around the `=` of a recipe word (`group_size=128`); comments
// stay where they were (trailing on the same line, or on their own line at the current indent,
// + 4 inside a statement); runs of blank lines become one; no blank line after `{` or before
// `}`; trailing whitespace removed; the file ends with one newline.
// Formatting the output again gives the same bytes.
#pragma once

#include "frontend/Parser.h"
#include "ir/Diagnostics.h"

#include <string>

namespace qspec::frontend {

// Formats `file` (already in the source manager) into `out`. Returns false, with the syntax
// errors reported, when the file does not parse; `out` is then untouched.
bool formatSpec(FileID file, DiagnosticEngine &diags, std::string &out,
                const ParseLimits &limits = {});

} // namespace qspec::frontend
