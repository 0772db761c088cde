#include "frontend/readers/ReaderSupport.h"
#include "ir/BoundedInput.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <cstdlib>
#include <unordered_set>

namespace qspec::readers::detail {

std::vector<Line> splitLines(std::string_view text) {
  std::vector<Line> lines;
  uint32_t number = 0;
  size_t start = 0;
  while (start < text.size()) {
    size_t nl = text.find('\n', start);
    size_t end = nl == std::string_view::npos ? text.size() : nl;
    std::string_view t = text.substr(start, end - start);
    if (!t.empty() && t.back() == '\r')
      t.remove_suffix(1);
    lines.push_back({++number, t, static_cast<uint32_t>(start)});
    if (nl == std::string_view::npos)
      break;
    start = nl + 1;
  }
  return lines;
}

static bool isSpace(char c) { return isReaderSpace(c); }

std::string_view trim(std::string_view s) {
  while (!s.empty() && isSpace(s.front()))
    s.remove_prefix(1);
  while (!s.empty() && isSpace(s.back()))
    s.remove_suffix(1);
  return s;
}

std::vector<Token> tokenize(std::string_view s) {
  std::vector<Token> out;
  forEachWord(s, [&](std::string_view word, uint32_t offset) { out.push_back({word, offset}); });
  return out;
}

bool parseNumber(std::string_view s, double &out) {
  s = trim(s);
  if (s.empty() || s.size() > 64)
    return false;
  std::string buf(s);
  char *end = nullptr;
  out = std::strtod(buf.c_str(), &end);
  return end == buf.c_str() + buf.size();
}

bool endsWith(std::string_view s, std::string_view suffix) {
  return s.size() >= suffix.size() && s.substr(s.size() - suffix.size()) == suffix;
}
bool startsWith(std::string_view s, std::string_view prefix) {
  return s.size() >= prefix.size() && s.substr(0, prefix.size()) == prefix;
}

std::string stripLayerScope(std::string_view name) {
  if (name.size() > 2 && endsWith(name, ".*"))
    name.remove_suffix(2);
  return std::string(name);
}

namespace {

// `s` without trailing digits (`norm1` -> `norm`, `w3` -> `w`, `fc0` -> `fc`).
std::string_view withoutDigits(std::string_view s) {
  while (!s.empty() && s.back() >= '0' && s.back() <= '9')
    s.remove_suffix(1);
  return s;
}

bool isNormName(std::string_view base) {
  return endsWith(base, "norm") || base == "ln_f" || base == "ln_" || base == "ln";
}

// Names transformers gives nn.Linear layers (after withoutDigits). GPT-2's `c_attn`, `c_proj`,
// `c_fc` are not here: they are Conv1D in GPT-2 and nn.Linear in GPT-BigCode, which only the
// model's config tells apart.
bool isLinearName(std::string_view base) {
  static constexpr std::string_view names[] = {"lm_head",
                                               "gate",
                                               "router",
                                               "w",
                                               "wq",
                                               "wk",
                                               "wv",
                                               "wo",
                                               "wqkv",
                                               "qkv",
                                               "dense",
                                               "query",
                                               "key",
                                               "value",
                                               "fc",
                                               "linear_fc",
                                               "output",
                                               "score",
                                               "linear",
                                               "embed_out",
                                               "classifier",
                                               "query_key_value",
                                               "dense_h_to_4h",
                                               "dense_4h_to_h",
                                               "shared_expert_gate"};
  if (base == "c_proj")
    return false;
  // `*_proj` and DeepSeek's `kv_a_proj_with_mqa`
  if (base.find("_proj") != std::string_view::npos || base == "proj" || startsWith(base, "linear_"))
    return true;
  for (std::string_view n : names)
    if (base == n)
      return true;
  return false;
}

} // namespace

std::string typeFromName(std::string_view name) {
  std::string_view last = name;
  if (size_t dot = name.rfind('.'); dot != std::string_view::npos)
    last = name.substr(dot + 1);
  std::string lower(last);
  for (char &c : lower)
    c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  // string_views: comparing a std::string with a const char * costs a strlen and a memcmp
  // even when the lengths differ, and this runs once per tensor of an index.
  static constexpr std::string_view embeddings[] = {"embed_tokens",
                                                    "wte",
                                                    "wpe",
                                                    "embed",
                                                    "embeddings",
                                                    "word_embeddings",
                                                    "tok_embeddings",
                                                    "embed_in",
                                                    "token_embedding",
                                                    "position_embedding",
                                                    "position_embeddings",
                                                    "embed_positions",
                                                    "pos_embed"};
  for (std::string_view e : embeddings)
    if (std::string_view(lower) == e)
      return "Embedding";
  std::string_view base = withoutDigits(lower);
  if (isNormName(base))
    return "RMSNorm";
  if (isLinearName(base))
    return "Linear";
  return "";
}

// ---- JSON ----------------------------------------------------------------------------------

namespace {

using json = nlohmann::json;

// A SAX consumer that only checks: every key unique within its object.
class DuplicateKeyCheck : public nlohmann::json_sax<json> {
public:
  struct Level {
    bool isObject;
    uint32_t members = 0;
    std::unordered_set<std::string> keys;
  };
  std::vector<Level> stack;
  std::vector<uint32_t> dupPath; // set when a duplicate is found
  std::string dupKey;
  size_t errorPos = 0;
  std::string errorText;
  bool syntaxError = false;
  bool tooDeep = false;

  bool value() {
    if (!stack.empty() && !stack.back().isObject)
      ++stack.back().members;
    return true;
  }
  bool null() override { return value(); }
  bool boolean(bool) override { return value(); }
  bool number_integer(number_integer_t) override { return value(); }
  bool number_unsigned(number_unsigned_t) override { return value(); }
  bool number_float(number_float_t, const string_t &) override { return value(); }
  bool string(string_t &) override { return value(); }
  bool binary(binary_t &) override { return value(); }
  bool start_object(std::size_t) override {
    value();
    if (stack.size() >= kMaxJsonDepth) {
      tooDeep = true;
      return false;
    }
    stack.push_back({true, 0, {}});
    return true;
  }
  bool key(string_t &k) override {
    Level &l = stack.back();
    ++l.members;
    if (!l.keys.insert(k).second) {
      for (const Level &x : stack)
        dupPath.push_back(x.members - 1);
      dupKey = k;
      return false;
    }
    return true;
  }
  bool end_object() override {
    stack.pop_back();
    return true;
  }
  bool start_array(std::size_t) override {
    value();
    if (stack.size() >= kMaxJsonDepth) {
      tooDeep = true;
      return false;
    }
    stack.push_back({false, 0, {}});
    return true;
  }
  bool end_array() override {
    stack.pop_back();
    return true;
  }
  bool parse_error(std::size_t position, const std::string &,
                   const nlohmann::detail::exception &ex) override {
    syntaxError = true;
    errorPos = position;
    errorText = ex.what();
    return false;
  }
};

// Skips whitespace from `i`.
size_t skipWs(std::string_view t, size_t i) {
  while (i < t.size() && isSpace(t[i]))
    ++i;
  return i;
}

// Skips one string starting at the quote at `i`; returns the index after the closing quote.
// (memchr to the next quote, which ends the string unless an odd run of backslashes escapes it:
// the same answer as stepping over `\x` pairs, at memchr speed over long weight maps.)
size_t skipString(std::string_view t, size_t i) {
  const size_t begin = ++i;
  while (i < t.size()) {
    const void *q = std::memchr(t.data() + i, '"', t.size() - i);
    if (!q)
      return t.size();
    size_t quote = static_cast<size_t>(static_cast<const char *>(q) - t.data());
    size_t run = 0;
    while (quote - run > begin && t[quote - run - 1] == '\\')
      ++run;
    if (run % 2 == 0)
      return quote + 1;
    i = quote + 1;
  }
  return t.size();
}

// Skips one value starting at `i` (after whitespace); returns the index after it.
size_t skipValue(std::string_view t, size_t i) {
  i = skipWs(t, i);
  if (i >= t.size())
    return i;
  if (t[i] == '"')
    return skipString(t, i);
  if (t[i] == '{' || t[i] == '[') {
    size_t depth = 0;
    while (i < t.size()) {
      char c = t[i];
      if (c == '"') {
        i = skipString(t, i);
        continue;
      }
      if (c == '{' || c == '[')
        ++depth;
      else if (c == '}' || c == ']') {
        if (--depth == 0)
          return i + 1;
      }
      ++i;
    }
    return i;
  }
  while (i < t.size() && t[i] != ',' && t[i] != '}' && t[i] != ']' && !isSpace(t[i]))
    ++i;
  return i;
}

} // namespace

bool checkJson(std::string_view text, uint32_t &offset, std::string &reason,
               std::vector<uint32_t> *dupPath, std::string *dupKey) {
  if (jsonQuickCheck(text))
    return true; // the common case, without the library's per-token strings
  // Bytes that are not UTF-8 get their own message (the library's would quote them).
  if (size_t bad = bounded::firstInvalidUtf8(text); bad != std::string_view::npos) {
    offset = static_cast<uint32_t>(bad);
    reason = "invalid UTF-8";
    return false;
  }
  return checkJsonWithLibrary(text, offset, reason, dupPath, dupKey);
}

bool checkJsonWithLibrary(std::string_view text, uint32_t &offset, std::string &reason,
                          std::vector<uint32_t> *dupPath, std::string *dupKey) {
  DuplicateKeyCheck check;
  bool ok = json::sax_parse(text.begin(), text.end(), &check,
                            nlohmann::detail::input_format_t::json, true);
  if (ok)
    return true;
  if (check.tooDeep) {
    size_t at = bounded::nestingPastLimit(text, bounded::Syntax::Json, kMaxJsonDepth);
    offset = static_cast<uint32_t>(at == std::string_view::npos ? 0 : at);
    reason = "arrays and objects nested deeper than " + std::to_string(kMaxJsonDepth) + " levels";
    return false;
  }
  if (!check.dupPath.empty()) {
    offset = locateJson(text, check.dupPath).value_or(0);
    reason = "key '" + check.dupKey + "' appears twice in one object";
    if (dupPath)
      *dupPath = check.dupPath;
    if (dupKey)
      *dupKey = check.dupKey;
    return false;
  }
  offset = static_cast<uint32_t>(check.errorPos ? std::min(check.errorPos - 1, text.size()) : 0);
  reason = check.syntaxError ? bounded::cleanJsonError(check.errorText) : "invalid JSON";
  return false;
}

std::optional<uint32_t> locateJson(std::string_view t, const std::vector<uint32_t> &path) {
  size_t i = skipWs(t, 0);
  for (size_t level = 0; level < path.size(); ++level) {
    if (i >= t.size() || (t[i] != '{' && t[i] != '['))
      return std::nullopt;
    bool isObject = t[i] == '{';
    ++i;
    for (uint32_t m = 0;; ++m) {
      i = skipWs(t, i);
      if (i >= t.size() || t[i] == '}' || t[i] == ']')
        return std::nullopt;
      size_t memberStart = i;
      if (isObject) {
        i = skipString(t, i);
        i = skipWs(t, i);
        if (i < t.size() && t[i] == ':')
          ++i;
        i = skipWs(t, i);
      }
      if (m == path[level]) {
        if (level + 1 == path.size())
          return static_cast<uint32_t>(memberStart);
        break; // descend into the value at i
      }
      i = skipValue(t, i);
      i = skipWs(t, i);
      if (i < t.size() && t[i] == ',')
        ++i;
    }
  }
  return static_cast<uint32_t>(i);
}

std::vector<uint32_t> jsonMemberOffsets(std::string_view t, uint32_t containerOffset) {
  std::vector<uint32_t> out;
  size_t i = containerOffset;
  if (i >= t.size() || (t[i] != '{' && t[i] != '['))
    return out;
  bool isObject = t[i] == '{';
  ++i;
  while (true) {
    i = skipWs(t, i);
    if (i >= t.size() || t[i] == '}' || t[i] == ']')
      return out;
    out.push_back(static_cast<uint32_t>(i));
    if (isObject) {
      i = skipString(t, i);
      i = skipWs(t, i);
      if (i < t.size() && t[i] == ':')
        ++i;
    }
    i = skipValue(t, i);
    i = skipWs(t, i);
    if (i < t.size() && t[i] == ',')
      ++i;
    else
      return out;
  }
}

std::vector<JsonMember> jsonObjectMembers(std::string_view t, uint32_t containerOffset) {
  std::vector<JsonMember> out;
  if (containerOffset >= t.size() || t[containerOffset] != '{')
    return out;
  for (uint32_t k : jsonMemberOffsets(t, containerOffset)) {
    JsonMember m;
    m.keyOffset = k;
    size_t keyEnd = skipString(t, k);
    std::string_view raw = t.substr(k, keyEnd - k);
    if (raw.size() >= 2 && raw.back() == '"' && raw.find('\\') == std::string_view::npos) {
      // No escapes: the key is its bytes between the quotes (the text is valid JSON, so they
      // are valid UTF-8 without control characters). Most keys; decoding each through the JSON
      // library cost more than everything else in reading an index.
      m.key.assign(raw.substr(1, raw.size() - 2));
    } else {
      nlohmann::json key = nlohmann::json::parse(raw, nullptr, false);
      m.key = key.is_string() ? key.get<std::string>() : std::string();
    }
    m.valueOffset = jsonValueOffset(t, k);
    m.valueText = t.substr(m.valueOffset, skipValue(t, m.valueOffset) - m.valueOffset);
    out.push_back(std::move(m));
  }
  return out;
}

uint32_t jsonValueOffset(std::string_view t, uint32_t keyOffset) {
  size_t i = skipString(t, keyOffset);
  i = skipWs(t, i);
  if (i < t.size() && t[i] == ':')
    ++i;
  return static_cast<uint32_t>(skipWs(t, i));
}

} // namespace qspec::readers::detail

namespace qspec::readers::detail {

void InventoryBuilder::reserve(size_t expected) {
  expected = std::min(expected, limits_.maxModules);
  inv_.modules.reserve(inv_.modules.size() + expected);
  offsets_.reserve(offsets_.size() + expected);
  nameLens_.reserve(nameLens_.size() + expected);
  hashes_.reserve(hashes_.size() + expected);
}

uint32_t InventoryBuilder::lineOf(uint32_t offset) {
  SourceManager &sm = diags_.sourceManager();
  if (!sm.hasText(file_))
    return 0;
  const std::string &text = sm.text(file_);
  if (offset < cursorOffset_ || offset > text.size())
    return sm.locate(file_, offset).line; // out of order: a binary search of the line starts
  // In file order: count the newlines since the previous module, so the lines of all modules
  // cost one pass over the text. (Same answer as locate: 1 + the newlines before `offset`.)
  const char *p = text.data() + cursorOffset_, *end = text.data() + offset;
  while ((p = static_cast<const char *>(std::memchr(p, '\n', static_cast<size_t>(end - p)))) !=
         nullptr) {
    ++cursorLine_;
    ++p;
  }
  cursorOffset_ = offset;
  return cursorLine_;
}

bool InventoryBuilder::add(std::string_view name, std::string_view type, uint32_t offset,
                           uint32_t nameLen, uint32_t line) {
  if (inv_.modules.size() >= limits_.maxModules) {
    // A duplicate, earlier or this one, is the first error in file order.
    if (!finish())
      return false;
    auto it = inv_.index.find(name);
    if (it != inv_.index.end()) {
      offsets_.push_back(offset);
      nameLens_.push_back(nameLen);
      reportDuplicate(offsets_.size() - 1, it->second);
      offsets_.pop_back();
      nameLens_.pop_back();
      return false;
    }
    SourceManager &sm = diags_.sourceManager();
    SourceRange at = sm.hasText(file_)
                         ? sm.range(file_, offset, offset + std::max<uint32_t>(nameLen, 1))
                         : SourceRange{file_, {}, {}};
    diags_.report(DiagID::err_inventory_too_many, at, {std::to_string(limits_.maxModules)});
    return false;
  }
  ir::Module &m = inv_.modules.emplace_back();
  // Constructed and moved in: assigning a view to the empty strings goes through _M_replace,
  // about a hundred instructions more per string.
  m.name = std::string(name);
  m.type = std::string(type);
  m.line = line ? line : lineOf(offset);
  offsets_.push_back(offset);
  nameLens_.push_back(nameLen);
  hashes_.push_back(std::hash<std::string_view>()(name));
  return true;
}

void InventoryBuilder::reportDuplicate(size_t dup, uint32_t first) {
  SourceManager &sm = diags_.sourceManager();
  auto where = [&](uint32_t off, uint32_t len) {
    return sm.hasText(file_) ? sm.range(file_, off, off + std::max<uint32_t>(len, 1))
                             : SourceRange{file_, {}, {}};
  };
  const std::string &name = inv_.modules[first].name;
  Diagnostic &d =
      diags_.report(DiagID::err_inventory_duplicate, where(offsets_[dup], nameLens_[dup]), {name});
  // The note underlines as many characters as the duplicate (as it always has).
  diags_.note(d, DiagID::note_reader_first_here, where(offsets_[first], nameLens_[dup]), {name});
}

namespace {

// A module on its way into the index: the sort key (home slot << 32 | position) and its hash.
struct IndexItem {
  uint64_t key;
  size_t hash;
};

// Modules [begin, end) ordered by the index slot their name goes to first (ties in file
// order): an LSD radix sort, linear and stable.
std::vector<IndexItem> orderBySlot(const ir::ModuleIndex &index, const std::vector<size_t> &hashes,
                                   size_t begin, size_t end) {
  std::vector<IndexItem> order(end - begin), tmp(end - begin);
  uint64_t maxSlot = 0;
  for (size_t i = begin; i < end; ++i) {
    uint64_t slot = index.homeSlot(hashes[i]);
    maxSlot = std::max(maxSlot, slot);
    order[i - begin] = {(slot << 32) | i, hashes[i]};
  }
  constexpr unsigned kBits = 11;
  constexpr size_t kRadix = size_t(1) << kBits;
  for (unsigned shift = 32; shift < 64 && (maxSlot >> (shift - 32)) != 0; shift += kBits) {
    size_t count[kRadix + 1] = {};
    for (const IndexItem &x : order)
      ++count[((x.key >> shift) & (kRadix - 1)) + 1];
    for (size_t d = 1; d <= kRadix; ++d)
      count[d] += count[d - 1];
    for (const IndexItem &x : order)
      tmp[count[(x.key >> shift) & (kRadix - 1)]++] = x;
    order.swap(tmp);
  }
  return order;
}

} // namespace

bool InventoryBuilder::finish() {
  const size_t begin = indexed_, end = inv_.modules.size();
  if (begin == end)
    return true;
  ir::ModuleIndex &index = inv_.index;
  std::vector<ir::Module> &modules = inv_.modules;
  index.attach(&modules);
  index.reserve(end);
  // In slot order the table is written front to back, and a name's characters are read only
  // when 32 bits of its hash meet another's.
  std::vector<IndexItem> order = orderBySlot(index, hashes_, begin, end);
  size_t dup = SIZE_MAX;
  uint32_t dupOf = 0;
  for (const IndexItem &item : order) {
    uint32_t i = static_cast<uint32_t>(item.key);
    auto [first, inserted] = index.insert(i, item.hash);
    // Equal names share a home slot and come in file order, so `first` is the first occurrence.
    if (!inserted && i < dup) {
      dup = i;
      dupOf = first;
    }
  }
  if (dup == SIZE_MAX) {
    indexed_ = end;
    return true;
  }
  // Keep what checking one name at a time would have kept: the modules before the duplicate.
  reportDuplicate(dup, dupOf);
  modules.resize(dup);
  offsets_.resize(dup);
  nameLens_.resize(dup);
  hashes_.resize(dup);
  inv_.rebuildIndex(); // an error path: the index of the modules kept
  indexed_ = dup;
  return false;
}

} // namespace qspec::readers::detail
