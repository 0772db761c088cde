// Helpers shared by the spec rules: which modules an override selects, its fields, and text
// edits that delete one item of a list or a whole statement.
#pragma once

#include "ir/BoundedInput.h"
#include "lint/Context.h"

#include <set>
#include <string>
#include <vector>

namespace qspec::lint::spec {

// Modules selected by any selector of `o`, ascending.
inline std::vector<uint32_t> selectedBy(const ir::Spec &spec,
                                        const std::vector<ir::Selector> &sels) {
  std::set<uint32_t> all;
  for (const ir::Selector &s : sels) {
    auto it = spec.resolution.selected.find(&s);
    if (it != spec.resolution.selected.end())
      all.insert(it->second.begin(), it->second.end());
  }
  return {all.begin(), all.end()};
}

// A qspec string literal for `text`: quotes, backslashes and control bytes escaped, and so are
// the characters that change how a line displays without showing themselves (C1 controls, bidi
// overrides and isolates, direction marks, line separators: `\u202e`), so a name written into a
// spec reads as what it is.
inline std::string qspecString(const std::string &text) {
  std::string out = "\"";
  static const char *hex = "0123456789abcdef";
  for (size_t i = 0; i < text.size(); ++i) {
    unsigned char c = static_cast<unsigned char>(text[i]);
    if (c == '"' || c == '\\') {
      out += '\\';
      out += static_cast<char>(c);
    } else if (c < 0x20 || c == 0x7f) {
      out += "\\x";
      out += hex[c >> 4];
      out += hex[c & 15];
    } else if (size_t n = bounded::invisibleControlAt(text, i)) {
      // Decode the 2- or 3-byte sequence into its code point.
      uint32_t cp = n == 2 ? ((c & 0x1Fu) << 6) | (static_cast<unsigned char>(text[i + 1]) & 0x3Fu)
                           : ((c & 0x0Fu) << 12) |
                                 ((static_cast<unsigned char>(text[i + 1]) & 0x3Fu) << 6) |
                                 (static_cast<unsigned char>(text[i + 2]) & 0x3Fu);
      out += "\\u";
      for (int shift = 12; shift >= 0; shift -= 4)
        out += hex[(cp >> shift) & 15];
      i += n - 1;
    } else {
      out += static_cast<char>(c);
    }
  }
  return out + "\"";
}

// The range that deletes bytes [begin, end) plus a following ';', and, when that leaves the line
// blank, the whole line.
inline SourceRange statementDeletion(const LintContext &ctx, uint32_t begin, uint32_t end) {
  const std::string &t = ctx.sm.text(ctx.file);
  uint32_t e = end;
  while (e < t.size() && (t[e] == ' ' || t[e] == '\t'))
    ++e;
  if (e < t.size() && t[e] == ';')
    ++e;
  uint32_t b = begin;
  while (b > 0 && (t[b - 1] == ' ' || t[b - 1] == '\t'))
    --b;
  uint32_t e2 = e;
  while (e2 < t.size() && (t[e2] == ' ' || t[e2] == '\t' || t[e2] == '\r'))
    ++e2;
  if ((b == 0 || t[b - 1] == '\n') && (e2 == t.size() || t[e2] == '\n'))
    return ctx.sm.range(ctx.file, b, e2 < t.size() ? e2 + 1 : e2);
  return ctx.sm.range(ctx.file, begin, e);
}

} // namespace qspec::lint::spec
