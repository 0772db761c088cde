// UTF-8, one module for every reader and checker: strict decoding (RFC 3629: no overlong forms, no
// surrogates, nothing above U+10FFFF, which is what ANTLR's decoder, protobuf's string fields and
// nlohmann's JSON writer accept), validation and encoding.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace qspec::support::utf8 {

// Decodes the sequence at `s[i]` (i < s.size()): its length (1 to 4) with `cp` set to its code
// point, or 0 when it is invalid or cut short. Then `*maximalSubpart`, when given, is the number
// of bytes a decoder replaces with one U+FFFD (Unicode's "maximal subpart", at least 1): the
// longest prefix that could still have begun a valid sequence.
size_t decode(std::string_view s, size_t i, uint32_t &cp, size_t *maximalSubpart = nullptr);

// The byte index of the first invalid sequence in `s`, or std::string_view::npos.
size_t firstInvalid(std::string_view s);

// Whether all of `s` is valid UTF-8.
inline bool isValid(std::string_view s) { return firstInvalid(s) == std::string_view::npos; }

// Appends the UTF-8 encoding of `cp` (at most U+10FFFF, not a surrogate).
void append(std::string &out, uint32_t cp);

} // namespace qspec::support::utf8
