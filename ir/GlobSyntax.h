// The lexical pieces of a module-name pattern that more than one reader of pattern text needs
// (ir::Pattern's compiler, the selection analysis, msModelSlim's brace expansion): where a bracket
// expression or a brace group ends, the top-level commas of a brace list, and the numbers of a
// range. One definition, so the three readers cannot disagree on where a group ends.
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

namespace qspec::glob {

// The index of the ']' closing the bracket expression opened at t[i] == '[' (a ']' right after
// '[', '[!' or '[^' is a member, not the end), or npos when there is none (the '[' is literal).
size_t bracketEnd(std::string_view t, size_t i);

// The index of the '}' closing the brace opened at t[open], honouring nesting, `\` escapes and
// bracket expressions (braces inside one are literal); npos when it is not closed.
size_t braceClose(std::string_view t, size_t open);

// Brace content split at its top-level commas (`\` escapes a comma).
std::vector<std::string_view> splitTopLevel(std::string_view t);

// The most digits a numeric range reads in a name: every value it can match fits in uint64_t.
constexpr uint32_t kMaxNumberDigits = 19;

// A decimal integer with an optional sign, at most 18 characters (so it cannot overflow).
bool parseInt(std::string_view s, int64_t &out);

// True when the number is written with a leading zero (`{00..10}` is zero-padded).
bool hasLeadingZero(std::string_view s);

} // namespace qspec::glob
