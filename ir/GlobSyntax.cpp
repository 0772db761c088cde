#include "ir/GlobSyntax.h"

#include <cctype>

namespace qspec::glob {

size_t bracketEnd(std::string_view t, size_t i) {
  size_t j = i + 1;
  if (j < t.size() && (t[j] == '!' || t[j] == '^'))
    ++j;
  if (j < t.size() && t[j] == ']')
    ++j;
  return t.find(']', j);
}

size_t braceClose(std::string_view t, size_t open) {
  int depth = 0;
  for (size_t i = open; i < t.size(); ++i) {
    if (t[i] == '\\') {
      ++i;
    } else if (t[i] == '[') {
      size_t end = bracketEnd(t, i);
      if (end != std::string_view::npos)
        i = end;
    } else if (t[i] == '{') {
      ++depth;
    } else if (t[i] == '}' && --depth == 0) {
      return i;
    }
  }
  return std::string_view::npos;
}

std::vector<std::string_view> splitTopLevel(std::string_view t) {
  std::vector<std::string_view> parts;
  int depth = 0;
  size_t start = 0;
  for (size_t i = 0; i < t.size(); ++i) {
    if (t[i] == '\\') {
      ++i;
    } else if (t[i] == '{') {
      ++depth;
    } else if (t[i] == '}') {
      --depth;
    } else if (t[i] == ',' && depth == 0) {
      parts.push_back(t.substr(start, i - start));
      start = i + 1;
    }
  }
  parts.push_back(t.substr(start));
  return parts;
}

bool parseInt(std::string_view s, int64_t &out) {
  if (s.empty() || s.size() > 18)
    return false;
  size_t i = s[0] == '-' || s[0] == '+' ? 1 : 0;
  if (i == s.size())
    return false;
  int64_t v = 0;
  for (size_t k = i; k < s.size(); ++k) {
    if (!std::isdigit(static_cast<unsigned char>(s[k])))
      return false;
    v = v * 10 + (s[k] - '0');
  }
  out = s[0] == '-' ? -v : v;
  return true;
}

bool hasLeadingZero(std::string_view s) {
  if (!s.empty() && (s[0] == '-' || s[0] == '+'))
    s.remove_prefix(1);
  return s.size() > 1 && s[0] == '0';
}

} // namespace qspec::glob
