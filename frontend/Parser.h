// Parses one .qspec file into an AST. Syntax errors go to the diagnostic engine (the parser
// recovers and reports every error, up to the engine's cap); on any error no AST is returned.
#pragma once

#include "frontend/AST.h"
#include "ir/Diagnostics.h"

#include <cstdint>
#include <memory>
#include <vector>

namespace qspec::frontend {

struct ParseLimits {
  size_t maxFileBytes = 16u << 20; // a .qspec is hand-written; 16 MiB is far beyond any real one
  size_t maxNesting = 64;          // nested `{ }` blocks
};

// Parses the text of `file` (already in the source manager).
std::unique_ptr<ast::Node> parse(FileID file, DiagnosticEngine &diags,
                                 const ParseLimits &limits = {});

// One token of a .qspec file as the lexer sees it, comments included (whitespace is not a token).
// For tools that keep the author's text: `qcc fmt`, the language server's highlighting.
struct Token {
  enum class Kind : uint8_t {
    Keyword,
    Ident,
    String,
    Number,
    Punct,
    LineComment,
    BlockComment,
    Bad
  };
  Kind kind;
  SourceRange range; // byte offsets into the file's text
};

// Lexes the text of `file` into its tokens and comments, in order. Never reports: a character or
// string the lexer rejects becomes a `Bad` token (parse() reports those).
std::vector<Token> tokenize(FileID file, const SourceManager &sm);

// Unescapes the body of a string literal (without quotes). Escapes: \" \\ \n \t \r \0 \xHH \uXXXX
// \U00XXXXXX. On a bad escape returns false and sets `badAt` to its byte index in `body`.
bool unescapeString(std::string_view body, std::string &out, size_t &badAt);

// A qspec string literal for `text`, one that unescapeString reads back as `text`: quotes,
// backslashes and control bytes escaped, and so are the characters that change how a line
// displays without showing themselves (C1 controls, bidi overrides and isolates, direction marks,
// line separators: `\u202e`), so a name written into a spec reads as what it is.
std::string qspecString(const std::string &text);

} // namespace qspec::frontend
