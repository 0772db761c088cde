// msModelSlim's brace semantics (MsModelSlimBraces.h). The parse follows ir::Pattern's: `\`
// escapes, bracket expressions hide braces, `{a..b[..s]}` is a range of non-negative numbers or
// of single characters, `{x,y}` a list (items parsed again), anything else in braces literal.
#include "vendors/msmodelslim/MsModelSlimBraces.h"
#include "ir/GlobSyntax.h"

#include <algorithm>
#include <cctype>
#include <limits>

namespace qspec::msmodelslim {

namespace {

constexpr size_t kMaxDepth = 32;
constexpr uint64_t kSaturated = std::numeric_limits<uint64_t>::max();

uint64_t mul(uint64_t a, uint64_t b) { return a != 0 && b > kSaturated / a ? kSaturated : a * b; }
uint64_t add(uint64_t a, uint64_t b) { return b > kSaturated - a ? kSaturated : a + b; }

struct Seq;
struct Part {
  enum Kind { Text, LBrace, RBrace, List, Range } kind = Text;
  std::string text;       // Text: as written; Range: the body between the braces
  std::vector<Seq> items; // List
  int64_t lo = 0, hi = 0, step = 1;
  uint32_t width = 0;    // zero-padded width of a numeric range
  bool chars = false;    // a character range
  bool variable = false; // LBrace/RBrace of `{name}` (a qspec variable, literal for wcmatch)
  uint64_t count() const;
};
struct Seq {
  std::vector<Part> parts;
  uint64_t count() const {
    uint64_t n = 1;
    for (const Part &p : parts)
      n = mul(n, p.count());
    return n;
  }
};

uint64_t Part::count() const {
  if (kind == List) {
    uint64_t n = 0;
    for (const Seq &s : items)
      n = add(n, s.count());
    return n;
  }
  if (kind == Range)
    return static_cast<uint64_t>((hi - lo) / step) + 1;
  return 1;
}

bool isIdent(std::string_view s) {
  if (s.empty() || !(std::isalpha(static_cast<unsigned char>(s[0])) || s[0] == '_'))
    return false;
  return std::all_of(s.begin(), s.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
  });
}

using glob::splitTopLevel;

// `{a..b}` / `{a..b..s}` as a Range part (normalized to lo <= hi), or false.
bool parseRange(std::string_view body, Part &r) {
  size_t dots = body.find("..");
  if (dots == std::string_view::npos || body.find(',') != std::string_view::npos)
    return false;
  std::string_view a = body.substr(0, dots), rest = body.substr(dots + 2), b = rest, stepText;
  if (size_t d2 = rest.find(".."); d2 != std::string_view::npos) {
    b = rest.substr(0, d2);
    stepText = rest.substr(d2 + 2);
  }
  int64_t step = 1;
  if (!stepText.empty() && (!glob::parseInt(stepText, step) || step == 0))
    return false;
  step = step < 0 ? -step : step;
  int64_t x, y;
  r.kind = Part::Range;
  r.text = std::string(body);
  if (glob::parseInt(a, x) && glob::parseInt(b, y) && x >= 0 && y >= 0) {
    bool padded = glob::hasLeadingZero(a) || glob::hasLeadingZero(b);
    r.width = padded ? static_cast<uint32_t>(std::max(a.size(), b.size())) : 0;
  } else if (a.size() == 1 && b.size() == 1) {
    x = static_cast<unsigned char>(a[0]);
    y = static_cast<unsigned char>(b[0]);
    r.chars = true;
  } else {
    return false;
  }
  // The values start at the first endpoint: keep the ones on its step grid.
  r.step = step;
  r.lo = x <= y ? x : x - ((x - y) / step) * step;
  r.hi = x <= y ? x + ((y - x) / step) * step : x;
  return true;
}

void parseSeq(std::string_view t, size_t depth, Seq &out);

void appendText(Seq &s, std::string_view text) {
  if (s.parts.empty() || s.parts.back().kind != Part::Text)
    s.parts.push_back(Part{});
  s.parts.back().text += text;
}

void parseBrace(std::string_view body, size_t depth, Seq &out) {
  Part r;
  if (depth < kMaxDepth && !isIdent(body) && parseRange(body, r)) {
    out.parts.push_back(std::move(r));
    return;
  }
  std::vector<std::string_view> alts = splitTopLevel(body);
  if (depth < kMaxDepth && alts.size() >= 2) {
    Part list;
    list.kind = Part::List;
    for (std::string_view a : alts) {
      list.items.emplace_back();
      parseSeq(a, depth + 1, list.items.back());
    }
    out.parts.push_back(std::move(list));
    return;
  }
  Part open, close;
  open.kind = Part::LBrace;
  close.kind = Part::RBrace;
  open.variable = close.variable = isIdent(body);
  out.parts.push_back(open);
  parseSeq(body, depth + 1, out);
  out.parts.push_back(close);
}

void parseSeq(std::string_view t, size_t depth, Seq &out) {
  for (size_t i = 0; i < t.size(); ++i) {
    if (t[i] == '\\') {
      appendText(out, t.substr(i, std::min<size_t>(2, t.size() - i)));
      ++i;
    } else if (t[i] == '[') {
      size_t end = glob::bracketEnd(t, i);
      if (end == std::string_view::npos)
        end = i; // no ']': the '[' is literal
      appendText(out, t.substr(i, end - i + 1));
      i = end;
    } else if (t[i] == '{') {
      size_t close = glob::braceClose(t, i);
      if (close == std::string_view::npos) {
        appendText(out, "{");
        continue;
      }
      parseBrace(t.substr(i + 1, close - i - 1), depth, out);
      i = close;
    } else {
      appendText(out, t.substr(i, 1));
    }
  }
}

Seq parse(std::string_view entry) {
  Seq s;
  parseSeq(entry, 0, s);
  return s;
}

std::string render(const Seq &s, bool vendor);

std::string renderValue(const Part &r, int64_t v) {
  if (r.chars)
    return std::string(1, static_cast<char>(v));
  std::string digits = std::to_string(v);
  if (digits.size() < r.width)
    digits.insert(0, r.width - digits.size(), '0');
  return digits;
}

std::string render(const Part &p, bool vendor) {
  switch (p.kind) {
  case Part::Text:
    return p.text;
  case Part::LBrace:
    return vendor ? "\\{" : "{";
  case Part::RBrace:
    return vendor ? "\\}" : "}";
  case Part::Range:
    return "{" + p.text + "}";
  case Part::List: {
    std::string out = "{";
    for (size_t i = 0; i < p.items.size(); ++i)
      out += (i ? "," : "") + render(p.items[i], vendor);
    return out + "}";
  }
  }
  return "";
}

std::string render(const Seq &s, bool vendor) {
  std::string out;
  for (const Part &p : s.parts)
    out += render(p, vendor);
  return out;
}

// A range of the values lo, lo+step, ..., hi (as parts: one Text when it is a single value).
Part subRange(const Part &r, int64_t lo, int64_t hi) {
  Part out = r;
  if (lo == hi) {
    out = Part{};
    out.text = renderValue(r, lo);
    return out;
  }
  out.lo = lo;
  out.hi = hi;
  out.text = renderValue(r, lo) + ".." + renderValue(r, hi) +
             (r.step != 1 ? ".." + std::to_string(r.step) : "");
  return out;
}

// The pieces of part `p`, each with at most `capacity` expansions where a piece can be cut.
std::vector<Seq> pieces(const Part &p, uint64_t capacity) {
  std::vector<Seq> out;
  if (p.kind == Part::Range) {
    uint64_t n = p.count();
    for (uint64_t first = 0; first < n; first += capacity) {
      uint64_t last = std::min(n - 1, first + capacity - 1);
      out.emplace_back();
      out.back().parts.push_back(subRange(p, p.lo + static_cast<int64_t>(first) * p.step,
                                          p.lo + static_cast<int64_t>(last) * p.step));
    }
    return out;
  }
  // A list: consecutive items while their expansions fit; a single item stands for itself.
  size_t i = 0;
  while (i < p.items.size()) {
    size_t j = i + 1;
    uint64_t n = p.items[i].count();
    while (j < p.items.size() && add(n, p.items[j].count()) <= capacity)
      n = add(n, p.items[j++].count());
    out.emplace_back();
    if (j - i == 1) {
      out.back() = p.items[i];
    } else {
      Part list;
      list.kind = Part::List;
      list.items.assign(p.items.begin() + i, p.items.begin() + j);
      out.back().parts.push_back(std::move(list));
    }
    i = j;
  }
  return out;
}

void split(const Seq &s, uint64_t limit, std::vector<std::string> &out) {
  if (s.count() <= limit) {
    out.push_back(render(s, false));
    return;
  }
  size_t k = 0;
  while (k < s.parts.size() && s.parts[k].count() <= 1)
    ++k;
  uint64_t rest = 1;
  for (size_t i = 0; i < s.parts.size(); ++i)
    if (i != k)
      rest = mul(rest, s.parts[i].count());
  uint64_t capacity = std::max<uint64_t>(1, limit / rest);
  for (Seq &piece : pieces(s.parts[k], capacity)) {
    Seq next;
    next.parts.assign(s.parts.begin(), s.parts.begin() + k);
    next.parts.insert(next.parts.end(), piece.parts.begin(), piece.parts.end());
    next.parts.insert(next.parts.end(), s.parts.begin() + k + 1, s.parts.end());
    split(next, limit, out);
  }
}

// The list part of `s` with the longest rendering (s.parts.size() when there is none).
size_t longestList(const Seq &s) {
  size_t best = s.parts.size(), bestLen = 0;
  for (size_t i = 0; i < s.parts.size(); ++i)
    if (s.parts[i].kind == Part::List) {
      size_t n = render(s.parts[i], false).size();
      if (best == s.parts.size() || n > bestLen)
        best = i, bestLen = n;
    }
  return best;
}

// `s` with part k replaced by items [i, j) of that list (the item itself when j == i + 1).
Seq withItems(const Seq &s, size_t k, size_t i, size_t j) {
  const std::vector<Seq> &items = s.parts[k].items;
  Seq next;
  next.parts.assign(s.parts.begin(), s.parts.begin() + k);
  if (j == i + 1) {
    next.parts.insert(next.parts.end(), items[i].parts.begin(), items[i].parts.end());
  } else {
    Part list;
    list.kind = Part::List;
    list.items.assign(items.begin() + i, items.begin() + j);
    next.parts.push_back(std::move(list));
  }
  next.parts.insert(next.parts.end(), s.parts.begin() + k + 1, s.parts.end());
  return next;
}

// Cuts the longest list into runs of consecutive items that keep the entry within maxChars,
// recursively (a single item is spliced in without its braces, so every step makes progress).
void splitLong(const Seq &s, size_t maxChars, std::vector<std::string> &out) {
  std::string whole = render(s, false);
  size_t k = longestList(s);
  if (whole.size() <= maxChars || k == s.parts.size()) {
    out.push_back(std::move(whole));
    return;
  }
  const std::vector<Seq> &items = s.parts[k].items;
  size_t fixed = whole.size() - render(s.parts[k], false).size() + 2; // other parts and the braces
  for (size_t i = 0; i < items.size();) {
    size_t j = i, len = fixed;
    while (j < items.size()) {
      size_t more = render(items[j], false).size() + (j > i ? 1 : 0);
      if (j > i && len + more > maxChars)
        break;
      len += more;
      ++j;
    }
    splitLong(withItems(s, k, i, j), maxChars, out);
    i = j;
  }
}

std::string firstVariable(const Seq &s) {
  for (size_t i = 0; i < s.parts.size(); ++i) {
    const Part &p = s.parts[i];
    if (p.kind == Part::LBrace && p.variable && i + 1 < s.parts.size())
      return s.parts[i + 1].text;
    if (p.kind == Part::List)
      for (const Seq &item : p.items)
        if (std::string v = firstVariable(item); !v.empty())
          return v;
  }
  return "";
}

} // namespace

uint64_t braceExpansions(std::string_view entry) { return parse(entry).count(); }

std::string vendorPatternText(std::string_view entry) { return render(parse(entry), true); }

std::string literalBraceVariable(std::string_view entry) { return firstVariable(parse(entry)); }

std::vector<std::string> splitBraces(std::string_view entry, uint64_t limit) {
  std::vector<std::string> out;
  split(parse(entry), std::max<uint64_t>(1, limit), out);
  return out;
}

std::vector<std::string> splitToLength(std::string_view entry, size_t maxChars) {
  std::vector<std::string> out;
  splitLong(parse(entry), maxChars, out);
  return out;
}

} // namespace qspec::msmodelslim
