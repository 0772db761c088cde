// horizon_plugin_pytorch facts and the Python string escaper; see HorizonRules.h.
#include "vendors/horizon/HorizonRules.h"
#include "support/Utf8.h"
#include "vendors/CheckHelpers.h"

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstring>

namespace qspec::horizon {

static const char *const kMarches[] = {"nash-e", "nash-m", "nash-p", "nash-h", "nash-b"};

bool isKnownMarch(std::string_view march) {
  for (const char *m : kMarches)
    if (march == m)
      return true;
  return false;
}

std::string marchForConstant(std::string_view name) {
  static const char *const kConstants[][2] = {
      {"NASH_E", "nash-e"}, {"NASH_M", "nash-m"}, {"NASH_P", "nash-p"}, {"NASH_B", "nash-b"}};
  size_t dot = name.rfind('.');
  if (dot == std::string_view::npos || dot < 5 || name.substr(dot - 5, 5) != "March" ||
      (dot > 5 && name[dot - 6] != '.'))
    return "";
  for (const auto &c : kConstants)
    if (name.substr(dot + 1) == c[0])
      return c[1];
  return "";
}

std::string knownMarchList() {
  std::string out;
  for (const char *m : kMarches)
    out += std::string(out.empty() ? "" : ", ") + m;
  return out;
}

bool marchDefaultsToFloat16(std::string_view march) {
  return march == "nash-p" || march == "nash-h";
}

std::string observerClass(std::string_view name) {
  if (name == "histogram")
    return "HistogramObserver";
  if (name == "minmax")
    return "MinMaxObserver";
  if (name == "mse")
    return "MSEObserver";
  return "";
}

std::string knownObserverList() { return "histogram, minmax, mse"; }

std::optional<std::string> dtypeForTier(std::string_view tier) {
  if (tier == "int8")
    return std::string("qint8");
  if (tier == "int16")
    return std::string("qint16");
  if (tier == "int4")
    return std::string("qint4");
  if (tier == "fp16")
    return std::string("torch.float16");
  if (tier == "float")
    return std::string("torch.float32");
  return std::nullopt;
}

double negQuantMin(std::string_view d) {
  if (d == "qint8")
    return 128;
  if (d == "qint16")
    return 32768;
  if (d == "qint4")
    return 8;
  return 0;
}

bool thresholdForScale(double scale, std::string_view dtype, double &threshold, std::string &why) {
  if (!(scale > 0) || !std::isfinite(scale)) {
    why = "the scale must be a positive number";
    return false;
  }
  double q = negQuantMin(dtype);
  if (q == 0) {
    why = "a fixed scale needs an integer dtype (qint8, qint16), not " + std::string(dtype);
    return false;
  }
  threshold = scale * q;
  if (!std::isfinite(threshold)) {
    why = "the threshold (the scale times " + pythonFloat(q) + ") is beyond the largest double";
    return false;
  }
  return true;
}

std::string pythonFloat(double v) {
  char buf[64];
  auto res = std::to_chars(buf, buf + sizeof buf, v);
  std::string s(buf, res.ptr);
  if (s.find_first_of(".eEn") == std::string::npos) // "inf"/"nan" never reach here
    s += ".0";
  return s;
}

bool isConvLikeType(std::string_view t) {
  return t.substr(0, 4) == "Conv" || t == "Linear" || t == "Gemm";
}

bool isMatmulLikeType(std::string_view t) {
  return t == "MatMul" || t == "Matmul" || t == "matmul" || t == "BMM";
}

bool dualInt16Allowed(std::string_view t) { return isConvLikeType(t) || isMatmulLikeType(t); }

bool pythonStringLiteral(std::string_view text, std::string &out, std::string &why) {
  out.reserve(text.size() + 2);
  out = "\"";
  for (size_t i = 0; i < text.size();) {
    size_t plain = i; // a run of printable ASCII other than \ and " is copied at once
    while (plain < text.size() && text[plain] >= 0x20 && text[plain] < 0x7f &&
           text[plain] != '\\' && text[plain] != '"')
      ++plain;
    if (plain > i) {
      out.append(text.substr(i, plain - i));
      i = plain;
      continue;
    }
    uint32_t cp;
    size_t n = support::utf8::decode(text, i, cp);
    if (n == 0) {
      why = "it is not valid UTF-8";
      return false;
    }
    i += n;
    char buf[16];
    switch (cp) {
    case 0:
      why = "it contains a NUL byte";
      return false;
    case '\\':
      out += "\\\\";
      continue;
    case '"':
      out += "\\\"";
      continue;
    case '\n':
      out += "\\n";
      continue;
    case '\r':
      out += "\\r";
      continue;
    case '\t':
      out += "\\t";
      continue;
    default:
      break;
    }
    if (cp < 0x20 || cp == 0x7f) {
      std::snprintf(buf, sizeof buf, "\\x%02x", cp);
      out += buf;
    } else if (cp < 0x80) {
      out += static_cast<char>(cp);
    } else if (cp <= 0xffff) {
      std::snprintf(buf, sizeof buf, "\\u%04x", cp);
      out += buf;
    } else {
      std::snprintf(buf, sizeof buf, "\\U%08x", cp);
      out += buf;
    }
  }
  out += "\"";
  return true;
}

namespace {
bool isAsciiDigit(char c) { return c >= '0' && c <= '9'; }
bool isIdentifierByte(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || isAsciiDigit(c);
}
} // namespace

// Each part between dots is all digits, or an identifier of ASCII letters, digits and '_' that
// does not start with a digit.
bool isDottedModuleName(std::string_view name) {
  size_t start = 0;
  for (;;) {
    size_t end = std::min(name.find('.', start), name.size());
    std::string_view part = name.substr(start, end - start);
    if (part.empty())
      return false; // an empty name, an empty part, or a dot at the end
    const bool number = isAsciiDigit(part[0]);
    for (char c : part)
      if (number ? !isAsciiDigit(c) : !isIdentifierByte(c))
        return false;
    if (end == name.size())
      return true;
    start = end + 1;
  }
}

namespace {
constexpr uint64_t kFnvBasis = 14695981039346656037ull;
uint64_t fnvStep(uint64_t h, char c) {
  return (h ^ static_cast<unsigned char>(c)) * 1099511628211ull;
}
uint64_t fnv(std::string_view s) {
  uint64_t h = kFnvBasis;
  for (char c : s)
    h = fnvStep(h, c);
  return h;
}
} // namespace

PrefixKeys::PrefixKeys(size_t expected) {
  size_t n = 16; // a power of two at least twice the keys: the mask, short probes
  while (n < expected * 2)
    n <<= 1;
  slots_.resize(n);
}

size_t PrefixKeys::find(std::string_view key, uint64_t hash) const {
  if (!lengths_[std::min(key.size(), kLongKey)])
    return kNone;
  size_t mask = slots_.size() - 1;
  for (size_t i = hash & mask; slots_[i].used; i = (i + 1) & mask)
    if (slots_[i].hash == hash && slots_[i].key == key)
      return i;
  return kNone;
}

void PrefixKeys::grow() {
  std::vector<Slot> old = std::move(slots_);
  slots_.assign(old.size() * 2, Slot{});
  size_ = 0;
  for (const Slot &s : old)
    if (s.used)
      add(s.key, s.value);
}

void PrefixKeys::add(std::string_view key, size_t value) {
  if (key.empty())
    emptyValue_ = value;
  uint64_t h = fnv(key);
  if (size_t at = find(key, h); at != kNone) {
    slots_[at].value = value;
    return;
  }
  if ((size_ + 1) * 2 > slots_.size()) {
    grow();
    return add(key, value);
  }
  size_t mask = slots_.size() - 1, i = h & mask;
  while (slots_[i].used)
    i = (i + 1) & mask;
  slots_[i] = Slot{h, key, value, true};
  lengths_[std::min(key.size(), kLongKey)] = true;
  maxLength_ = std::max(maxLength_, key.size());
  ++size_;
}

std::optional<PrefixKeys::Hit> PrefixKeys::longest(std::string_view name, bool withEmpty) const {
  Cursor fresh;
  return longest(name, withEmpty, fresh);
}

std::optional<PrefixKeys::Hit> PrefixKeys::longest(std::string_view name, bool withEmpty,
                                                   Cursor &c) const {
  if (size_ == 0)
    return std::nullopt;
  if (maxLength_ == 0) { // the one key is "" (`ModuleNameTemplate({"": qint8})`): no name to read
    if (!withEmpty && !name.empty() && name[0] != '.')
      return std::nullopt;
    return Hit{*emptyValue_, 0};
  }
  if (c.keys != this) {
    c.keys = this;
    c.levels.clear();
  }
  size_t common = vendors::commonPrefixLength(name, std::string_view(c.prev.data(), c.prevLength));
  while (!c.levels.empty() && c.levels.back().end > common)
    c.levels.pop_back();
  size_t from = c.levels.empty() ? 0 : c.levels.back().end;
  uint64_t h = c.levels.empty() ? kFnvBasis : c.levels.back().hash;
  std::optional<Hit> best = c.levels.empty() ? std::nullopt : c.levels.back().best;
  // No key is longer than maxLength_: neither a longer prefix nor a longer name can be one.
  const size_t end = std::min(name.size(), maxLength_ + 1);
  for (size_t i = from; i < end; ++i) {
    if (name[i] == '.') {
      if (size_t at = find(name.substr(0, i), h); at != kNone)
        best = Hit{slots_[at].value, i};
      h = fnvStep(h, '.');
      c.levels.push_back({i + 1, h, best});
      continue;
    }
    h = fnvStep(h, name[i]);
  }
  if (c.prev.size() < name.size())
    c.prev.resize(name.size());
  if (name.size() > common)
    std::memcpy(c.prev.data() + common, name.data() + common, name.size() - common);
  c.prevLength = name.size();
  if (size_t at = name.size() <= maxLength_ ? find(name, h) : kNone; at != kNone)
    return Hit{slots_[at].value, name.size()};
  if (!best && withEmpty && emptyValue_)
    best = Hit{*emptyValue_, 0};
  return best;
}

} // namespace qspec::horizon
