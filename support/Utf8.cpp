// Strict UTF-8; see Utf8.h. The ranges are Unicode's table 3-7 ("Well-Formed UTF-8 Byte
// Sequences"): the lead byte fixes the length and the range of the second byte, every later byte
// is 80..BF.
#include "support/Utf8.h"

namespace qspec::support::utf8 {

size_t decode(std::string_view s, size_t i, uint32_t &cp, size_t *maximalSubpart) {
  const auto byte = [&](size_t k) { return static_cast<unsigned char>(s[i + k]); };
  const unsigned char c = byte(0);
  if (c < 0x80) {
    cp = c;
    return 1;
  }
  size_t len;
  unsigned char lo = 0x80, hi = 0xBF; // the second byte's range
  if (c >= 0xC2 && c <= 0xDF) {
    len = 2;
  } else if (c >= 0xE0 && c <= 0xEF) {
    len = 3;
    if (c == 0xE0)
      lo = 0xA0; // no overlong form
    else if (c == 0xED)
      hi = 0x9F; // no surrogate
  } else if (c >= 0xF0 && c <= 0xF4) {
    len = 4;
    if (c == 0xF0)
      lo = 0x90; // no overlong form
    else if (c == 0xF4)
      hi = 0x8F; // nothing above U+10FFFF
  } else {
    if (maximalSubpart)
      *maximalSubpart = 1;
    return 0;
  }
  uint32_t v = c & (0x7F >> len);
  for (size_t k = 1; k < len; ++k) {
    const bool fits =
        i + k < s.size() && byte(k) >= (k == 1 ? lo : 0x80) && byte(k) <= (k == 1 ? hi : 0xBF);
    if (!fits) {
      if (maximalSubpart)
        *maximalSubpart = k;
      return 0;
    }
    v = (v << 6) | (byte(k) & 0x3F);
  }
  cp = v;
  return len;
}

size_t firstInvalid(std::string_view s) {
  uint32_t cp;
  for (size_t i = 0; i < s.size();) {
    if (static_cast<unsigned char>(s[i]) < 0x80) {
      ++i;
      continue;
    }
    size_t len = decode(s, i, cp);
    if (len == 0)
      return i;
    i += len;
  }
  return std::string_view::npos;
}

void append(std::string &out, uint32_t cp) {
  if (cp < 0x80) {
    out += static_cast<char>(cp);
  } else if (cp < 0x800) {
    out += static_cast<char>(0xC0 | (cp >> 6));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else if (cp < 0x10000) {
    out += static_cast<char>(0xE0 | (cp >> 12));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else {
    out += static_cast<char>(0xF0 | (cp >> 18));
    out += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  }
}

} // namespace qspec::support::utf8
