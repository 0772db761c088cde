// Where a linted file's comments are, as its own reader sees them, so that a `qlint:` marker
// inside a string or a YAML block scalar is not taken for a suppression. Internal to lint/.
#pragma once

#include "lint/Lint.h"

#include <cstdint>
#include <vector>

namespace qspec::lint {

struct CommentSpan {
  uint32_t begin = 0, end = 0; // byte offsets of the comment, marker included (half-open)
  bool trailing = false;       // code precedes it on its first line
};

// The comments of `file`, in order:
//   .qspec          the parser's lexer (frontend::tokenize): line and block comments
//   msModelSlim     libyaml's scanner finds every scalar; a `#` outside them that starts a line
//                   or follows a blank starts a comment to the end of the line
//   HMCT JSON       `//` and `/* */` outside JSON strings ("..." with backslash escapes)
//   AMCT .cfg       `#` outside protobuf text-format strings ("..." or '...', backslash escapes)
// The caller holds the frontend lock for .qspec files (the ANTLR lexer's caches are shared).
std::vector<CommentSpan> commentSpans(FileKind kind, const SourceManager &sm, FileID file);

} // namespace qspec::lint
