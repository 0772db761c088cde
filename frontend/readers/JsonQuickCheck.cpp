// A quick yes to checkJson's question for the common case: a well-formed JSON document without a
// repeated key in any object, in ASCII without escapes (every Hugging Face index we have seen).
//
// checkJson's own check runs the JSON library's SAX parser, which builds a std::string per token
// and a hash set of std::strings per object: most of the time of reading a 45k-tensor index.
// This one walks the text once and keeps views. It only ever answers "certainly valid": anything
// it does not fully understand (a backslash, a byte >= 0x80, a BOM, a number the library could
// read as infinite) or finds wrong makes it answer "don't know", and checkJson then runs the
// library, whose messages are the diagnostics. So it must never accept what the library rejects.
#include "frontend/readers/ReaderSupport.h"

#include <cstdint>
#include <cstring>
#include <functional>

namespace qspec::readers::detail {

namespace {

class QuickCheck {
public:
  explicit QuickCheck(std::string_view t) : t_(t) {}

  bool run() {
    skipWs();
    if (!value())
      return false;
    skipWs();
    return i_ == t_.size();
  }

private:
  // One open object or array: where its keys start in `keys_` (objects only).
  struct Level {
    bool isObject;
    size_t firstKey;
  };

  void skipWs() {
    // The library's whitespace: space, tab, newline, carriage return.
    while (i_ < t_.size() && (t_[i_] == ' ' || t_[i_] == '\t' || t_[i_] == '\n' || t_[i_] == '\r'))
      ++i_;
  }

  // A string at the quote at i_; sets `out` to its characters (no escapes allowed, so they are
  // its value).
  bool string(std::string_view &out) {
    static const Stops stops;
    size_t b = ++i_;
    while (i_ < t_.size() && !stops.at[static_cast<unsigned char>(t_[i_])])
      ++i_;
    if (i_ >= t_.size() || t_[i_] != '"')
      return false; // the end, a control character, an escape or a byte >= 0x80
    out = t_.substr(b, i_ - b);
    ++i_;
    return true;
  }
  // The bytes that end a plain string: the quote, and those this check leaves to the library.
  struct Stops {
    bool at[256] = {};
    Stops() {
      for (int c = 0; c < 256; ++c)
        at[c] = c < 0x20 || c == '"' || c == '\\' || c >= 0x80;
    }
  };

  static bool isDigit(char c) { return c >= '0' && c <= '9'; }

  // -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)? followed by a delimiter. The library turns a
  // number that reads as infinite into an error, so only magnitudes below 1e300 are accepted:
  // at most 200 mantissa digits and an exponent of at most two digits.
  bool number() {
    size_t digits = 0;
    if (t_[i_] == '-')
      ++i_;
    if (i_ < t_.size() && t_[i_] == '0') {
      ++i_;
      ++digits;
    } else if (i_ < t_.size() && isDigit(t_[i_]) && t_[i_] != '0') {
      while (i_ < t_.size() && isDigit(t_[i_])) {
        ++i_;
        ++digits;
      }
    } else {
      return false;
    }
    if (i_ < t_.size() && t_[i_] == '.') {
      ++i_;
      size_t frac = 0;
      while (i_ < t_.size() && isDigit(t_[i_])) {
        ++i_;
        ++frac;
      }
      if (frac == 0)
        return false;
      digits += frac;
    }
    if (i_ < t_.size() && (t_[i_] == 'e' || t_[i_] == 'E')) {
      ++i_;
      if (i_ < t_.size() && (t_[i_] == '+' || t_[i_] == '-'))
        ++i_;
      size_t exp = 0;
      while (i_ < t_.size() && isDigit(t_[i_])) {
        ++i_;
        ++exp;
      }
      if (exp == 0 || exp > 2)
        return false;
    }
    return digits <= 200;
  }

  bool literal(std::string_view word) {
    if (t_.compare(i_, word.size(), word) != 0)
      return false;
    i_ += word.size();
    return true;
  }

  // Any repeated key among keys_[from, end)? Then the library reports it (and says where).
  bool keysUnique(size_t from) {
    size_t n = keys_.size() - from;
    if (n < 2)
      return true;
    if (n <= 8) {
      for (size_t a = from; a < keys_.size(); ++a)
        for (size_t b = a + 1; b < keys_.size(); ++b)
          if (keys_[a] == keys_[b])
            return false;
      return true;
    }
    // An open-addressing table of key positions, sized for this object, compared by hash first.
    size_t cap = 16;
    while (cap < 2 * n)
      cap *= 2;
    table_.assign(cap, Slot{0, SIZE_MAX});
    for (size_t k = from; k < keys_.size(); ++k) {
      size_t h = std::hash<std::string_view>()(keys_[k]);
      for (size_t s = h & (cap - 1);; s = (s + 1) & (cap - 1)) {
        Slot &slot = table_[s];
        if (slot.key == SIZE_MAX) {
          slot = {h, k};
          break;
        }
        if (slot.hash == h && keys_[slot.key] == keys_[k])
          return false;
      }
    }
    return true;
  }

  // One value at i_ (after whitespace), nested containers included, without recursion.
  bool value() {
    std::vector<Level> stack;
    while (true) {
      // Read one value start.
      if (i_ >= t_.size())
        return false;
      char c = t_[i_];
      bool opened = false;
      if (c == '{' || c == '[') {
        ++i_;
        skipWs();
        if (stack.size() >= kMaxJsonDepth)
          return false; // the library's check refuses it, after reading no further than this
        stack.push_back({c == '{', keys_.size()});
        opened = true;
        if (i_ < t_.size() && t_[i_] == (c == '{' ? '}' : ']')) {
          ++i_;
          stack.pop_back();
          opened = false;
        }
      } else if (c == '"') {
        std::string_view s;
        if (!string(s))
          return false;
      } else if (c == '-' || isDigit(c)) {
        if (!number())
          return false;
      } else if (c == 't') {
        if (!literal("true"))
          return false;
      } else if (c == 'f') {
        if (!literal("false"))
          return false;
      } else if (c == 'n') {
        if (!literal("null"))
          return false;
      } else {
        return false;
      }
      if (!opened) {
        // After a value: a comma (next member), or close containers.
        while (true) {
          if (stack.empty())
            return true;
          skipWs();
          if (i_ >= t_.size())
            return false;
          Level &top = stack.back();
          if (t_[i_] == ',') {
            ++i_;
            skipWs();
            break;
          }
          if (t_[i_] != (top.isObject ? '}' : ']'))
            return false;
          ++i_;
          if (top.isObject && !keysUnique(top.firstKey))
            return false;
          if (top.isObject)
            keys_.resize(top.firstKey);
          stack.pop_back();
        }
      }
      // Start of a member: an object wants `"key" :` first.
      if (stack.back().isObject) {
        if (i_ >= t_.size() || t_[i_] != '"')
          return false;
        std::string_view key;
        if (!string(key))
          return false;
        keys_.push_back(key);
        skipWs();
        if (i_ >= t_.size() || t_[i_] != ':')
          return false;
        ++i_;
        skipWs();
      }
    }
  }

  std::string_view t_;
  size_t i_ = 0;
  std::vector<std::string_view> keys_; // keys of the open objects, innermost last
  struct Slot {
    size_t hash, key; // key == SIZE_MAX: empty
  };
  std::vector<Slot> table_;
};

} // namespace

bool jsonQuickCheck(std::string_view text) { return QuickCheck(text).run(); }

} // namespace qspec::readers::detail
