// Parses one .qspec file into an AST. Syntax errors go to the diagnostic engine (the parser
// recovers and reports every error, up to the engine's cap); on any error no AST is returned.
#pragma once

#include "frontend/AST.h"
#include "ir/Diagnostics.h"

#include <memory>

namespace qspec::frontend {

struct ParseLimits {
  size_t maxFileBytes = 16u << 20; // a .qspec is hand-written; 16 MiB is far beyond any real one
  size_t maxNesting = 64;          // nested `{ }` blocks
};

// Parses the text of `file` (already in the source manager).
std::unique_ptr<ast::Node> parse(FileID file, DiagnosticEngine &diags, const ParseLimits &limits = {});

// Unescapes the body of a string literal (without quotes). Escapes: \" \\ \n \t \r \0 \xHH \uXXXX
// \U00XXXXXX. On a bad escape returns false and sets `badAt` to its byte index in `body`.
bool unescapeString(std::string_view body, std::string &out, size_t &badAt);

} // namespace qspec::frontend
