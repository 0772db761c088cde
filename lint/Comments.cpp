// Comment positions per file kind (see Comments.h).
#include "lint/Comments.h"

#include "frontend/Parser.h"
#include "ir/BoundedInput.h"

#include <yaml.h>

#include <algorithm>
#include <utility>

namespace qspec::lint {
namespace {

using Span = std::pair<uint32_t, uint32_t>;

// Does anything but blanks precede `offset` on its line?
bool codeBefore(const std::string &t, uint32_t offset) {
  for (uint32_t i = offset; i > 0; --i) {
    char c = t[i - 1];
    if (c == '\n')
      return false;
    if (c != ' ' && c != '\t' && c != '\r')
      return true;
  }
  return false;
}

CommentSpan span(const std::string &t, uint32_t b, uint32_t e) { return {b, e, codeBefore(t, b)}; }

uint32_t lineEnd(const std::string &t, uint32_t i) {
  size_t e = t.find('\n', i);
  return static_cast<uint32_t>(e == std::string::npos ? t.size() : e);
}

// A string starting at `i` (the quote) that ends at the same quote, backslash escapes skipped;
// returns the offset after it (or the end of the line when unterminated: both readers refuse an
// unterminated string, and a comment cannot start inside one).
uint32_t skipQuoted(const std::string &t, uint32_t i) {
  char q = t[i++];
  while (i < t.size() && t[i] != q && t[i] != '\n')
    i += t[i] == '\\' && i + 1 < t.size() ? 2 : 1;
  return i < t.size() && t[i] == q ? i + 1 : i;
}

std::vector<CommentSpan> qspecComments(const SourceManager &sm, FileID f) {
  std::vector<CommentSpan> out;
  for (const frontend::Token &tok : frontend::tokenize(f, sm))
    if (tok.kind == frontend::Token::Kind::LineComment ||
        tok.kind == frontend::Token::Kind::BlockComment)
      out.push_back(span(sm.text(f), tok.range.begin.offset, tok.range.end.offset));
  return out;
}

std::vector<CommentSpan> jsonComments(const std::string &t) {
  std::vector<CommentSpan> out;
  uint32_t i = 0, n = static_cast<uint32_t>(t.size());
  while (i < n) {
    if (t[i] == '"') {
      i = skipQuoted(t, i);
    } else if (t.compare(i, 2, "//") == 0) {
      uint32_t e = lineEnd(t, i);
      out.push_back(span(t, i, e));
      i = e;
    } else if (t.compare(i, 2, "/*") == 0) {
      size_t e = t.find("*/", i + 2);
      uint32_t end = e == std::string::npos ? n : static_cast<uint32_t>(e + 2);
      out.push_back(span(t, i, end));
      i = end;
    } else {
      ++i;
    }
  }
  return out;
}

std::vector<CommentSpan> cfgComments(const std::string &t) {
  std::vector<CommentSpan> out;
  uint32_t i = 0, n = static_cast<uint32_t>(t.size());
  while (i < n) {
    if (t[i] == '"' || t[i] == '\'') {
      i = skipQuoted(t, i);
    } else if (t[i] == '#') {
      uint32_t e = lineEnd(t, i);
      out.push_back(span(t, i, e));
      i = e;
    } else {
      ++i;
    }
  }
  return out;
}

// The byte offset of a libyaml mark (0-based line, column in characters).
uint32_t markOffset(const SourceManager &sm, FileID f, const yaml_mark_t &m) {
  const std::string &t = sm.text(f);
  uint32_t i = sm.lineRange(f, static_cast<uint32_t>(m.line) + 1, 1, 1).begin.offset;
  for (size_t chars = 0; i < t.size() && chars < m.column; ++chars) {
    ++i;
    while (i < t.size() && (static_cast<unsigned char>(t[i]) & 0xC0) == 0x80)
      ++i;
  }
  return i;
}

// The byte ranges of every scalar libyaml's scanner reads in the first `size` bytes of the file,
// up to a syntax error.
std::vector<Span> yamlScalars(const SourceManager &sm, FileID f, size_t size) {
  std::vector<Span> out;
  const std::string &t = sm.text(f);
  yaml_parser_t parser;
  if (!yaml_parser_initialize(&parser))
    return out;
  yaml_parser_set_input_string(&parser, reinterpret_cast<const unsigned char *>(t.data()), size);
  yaml_token_t tok;
  while (yaml_parser_scan(&parser, &tok)) {
    yaml_token_type_t type = tok.type;
    if (type == YAML_SCALAR_TOKEN)
      out.push_back({markOffset(sm, f, tok.start_mark), markOffset(sm, f, tok.end_mark)});
    yaml_token_delete(&tok);
    if (type == YAML_STREAM_END_TOKEN)
      break;
  }
  yaml_parser_delete(&parser);
  return out;
}

std::vector<CommentSpan> yamlComments(const SourceManager &sm, FileID f) {
  std::vector<CommentSpan> out;
  const std::string &t = sm.text(f);
  // libyaml's scanner spends time proportional to the flow nesting on every token (its stack of
  // possible simple keys), so 200 000 `[` cost minutes. The reader refuses a file nested past the
  // limit; here only the part before the first bracket past it is scanned for comments.
  size_t end = std::min(t.size(), bounded::nestingPastLimit(t, bounded::Syntax::Yaml));
  std::vector<Span> scalars = yamlScalars(sm, f, end);
  size_t s = 0;
  for (uint32_t i = 0; i < end; ++i) {
    while (s < scalars.size() && scalars[s].second <= i)
      ++s;
    if (s < scalars.size() && scalars[s].first <= i) {
      i = scalars[s].second - 1; // inside a scalar: skip it
      continue;
    }
    if (t[i] == '#' &&
        (i == 0 || t[i - 1] == ' ' || t[i - 1] == '\t' || t[i - 1] == '\n' || t[i - 1] == '\r')) {
      uint32_t e = lineEnd(t, i);
      out.push_back(span(t, i, e));
      i = e;
    }
  }
  return out;
}

} // namespace

std::vector<CommentSpan> commentSpans(FileKind kind, const SourceManager &sm, FileID file) {
  switch (kind) {
  case FileKind::QSpec:
    return qspecComments(sm, file);
  case FileKind::MsModelSlim:
    return yamlComments(sm, file);
  case FileKind::Hmct:
    return jsonComments(sm.text(file));
  case FileKind::Amct:
    return cfgComments(sm.text(file));
  case FileKind::CompressedTensors: { // a YAML recipe, or JSON
    const std::string &t = sm.text(file);
    size_t i = t.find_first_not_of(" \t\r\n");
    return i != std::string::npos && t[i] == '{' ? jsonComments(t) : yamlComments(sm, file);
  }
  default:
    return {};
  }
}

} // namespace qspec::lint
