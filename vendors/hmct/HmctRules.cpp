// HMCT vendor facts and checks; see HmctRules.h. Section numbers refer to
// ../shared/reference/horizon.md.
#include "vendors/hmct/HmctRules.h"
#include "ir/OnnxNames.h"
#include "support/Utf8.h"
#include "vendors/CheckHelpers.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cctype>
#include <cstring>
#include <functional>
#include <tuple>
#include <unordered_map>

namespace qspec::hmct {

namespace {

using vendors::isOneOf;

bool startsWith(std::string_view s, std::string_view p) { return s.substr(0, p.size()) == p; }

} // namespace

const std::vector<std::string> kTopLevelKeys = {"model_config", "op_config", "subgraph_config",
                                                "node_config"};
const std::vector<std::string> kModelConfigKeys = {
    "all_node_type",    "model_output_type", "activation", "weight",
    "modelwise_search", "layerwise_search",  "search"};
const std::vector<std::string> kActivationKeys = {"calibration_type", "num_bin",     "max_num_bin",
                                                  "max_percentile",   "per_channel", "asymmetric"};
const std::vector<std::string> kEntryKeys = {"qtype", "input0", "input1"};
const std::vector<std::string> kCheckIDs = {
#define HMCT_CHECK(ENUM, ID) ID,
#include "vendors/hmct/HmctChecks.def"
#undef HMCT_CHECK
};

const char *checkName(Check c) {
  static const char *const names[] = {
#define HMCT_CHECK(ENUM, ID) ID,
#include "vendors/hmct/HmctChecks.def"
#undef HMCT_CHECK
  };
  return names[static_cast<unsigned>(c)];
}
const std::vector<std::string> kLegacyEntryKeys = {"InputType", "OutputType", "InputType0",
                                                   "InputType1", "ON"};

bool isQtype(std::string_view q) {
  return isOneOf(q, {"int8", "int16", "float16", "float32", "float", "dual-int16", "int16-ec"});
}

std::string qtypeForTier(ir::Tier t) {
  switch (t) {
  case ir::Tier::Int8:
    return "int8";
  case ir::Tier::Int16:
    return "int16";
  case ir::Tier::DualInt16:
    return "dual-int16";
  case ir::Tier::FP16:
    return "float16";
  case ir::Tier::Float:
    return "float32";
  case ir::Tier::Int4:
    return "";
  }
  return "";
}

bool isDualInt16OpType(std::string_view t) {
  return isOneOf(t, {"Conv", "MatMul", "Gemm", "ConvTranspose"});
}

bool isKnownMarch(std::string_view m) {
  return isOneOf(m, {"nash", "nash-b", "nash-b-lite", "nash-b-plus", "nash-e", "nash-m", "nash-h",
                     "nash-p", "expt"}) ||
         startsWith(m, "bayes") || startsWith(m, "bernoulli");
}

bool qtypeAllowedOnMarch(std::string_view march, std::string_view q) {
  if (startsWith(march, "bernoulli"))
    return q == "int8";
  if (startsWith(march, "bayes"))
    return q != "float16" && q != "dual-int16" && q != "int16-ec";
  return true;
}

bool isModelOutputType(std::string_view q) { return isOneOf(q, {"int8", "int16", "float32"}); }

bool isCalibrationType(std::string_view c) {
  return isOneOf(c, {"max", "kl", "load", "fixed", "default", "mix", "min-max", "percentile"});
}

bool isBiasMetric(std::string_view m) {
  return isOneOf(m, {"cosine-similarity", "mse", "mae", "mre", "sqnr", "chebyshev"});
}

bool hasCommentMarker(std::string_view name) {
  return name.find("//") != std::string_view::npos || name.find("/*") != std::string_view::npos;
}

bool isValidUtf8(std::string_view s) {
  return s.find('\0') == std::string_view::npos && support::utf8::isValid(s);
}

std::string stripHmctComments(std::string_view text) {
  // HMCT: re.sub(r"//.*?$|/\*.*?\*/", "", text, flags=re.M|re.S) -- no notion of strings.
  std::string out;
  out.reserve(text.size());
  size_t i = 0;
  while (i < text.size()) {
    if (text.compare(i, 2, "//") == 0) {
      size_t nl = text.find('\n', i);
      i = nl == std::string_view::npos ? text.size() : nl;
      continue;
    }
    if (text.compare(i, 2, "/*") == 0) {
      size_t end = text.find("*/", i + 2);
      size_t stop = end == std::string_view::npos ? text.size() : end + 2;
      for (size_t k = i; k < stop; ++k)
        if (text[k] == '\n')
          out += '\n';
      if (end == std::string_view::npos) {
        out.append(text.substr(i)); // regex does not match an unterminated comment
        break;
      }
      i = stop;
      continue;
    }
    size_t slash = text.find('/', i + 1);
    size_t stop = slash == std::string_view::npos ? text.size() : slash;
    out.append(text.substr(i, stop - i));
    i = stop;
  }
  return out;
}

const JsonValue *JsonValue::get(std::string_view key) const {
  for (const auto &m : members)
    if (m.first == key)
      return &m.second;
  return nullptr;
}

namespace {

// Member positions by key in an object of many members (node_config): open addressing over
// member indices, keyed by the hash of the member's name, so no name is copied.
class MemberIndex {
public:
  // The index of the member named `key`, or `members.size()`; `add` records the last member.
  size_t find(const std::vector<std::pair<std::string, JsonValue>> &members,
              std::string_view key) const {
    if (slots_.empty())
      return members.size();
    size_t h = std::hash<std::string_view>{}(key);
    for (size_t i = h & mask(); slots_[i].second; i = (i + 1) & mask())
      if (slots_[i].first == h && members[slots_[i].second - 1].first == key)
        return slots_[i].second - 1;
    return members.size();
  }
  // Records the last member (every member, the first time).
  void add(const std::vector<std::pair<std::string, JsonValue>> &members) {
    if ((members.size() + 1) * 2 > slots_.size())
      grow(members);
    else
      insert(std::hash<std::string_view>{}(members.back().first), members.size());
  }
  bool empty() const { return slots_.empty(); }

private:
  std::vector<std::pair<size_t, size_t>> slots_; // (hash, member index + 1); 0 = empty
  size_t mask() const { return slots_.size() - 1; }
  void insert(size_t h, size_t slot) {
    size_t i = h & mask();
    while (slots_[i].second)
      i = (i + 1) & mask();
    slots_[i] = {h, slot};
  }
  // The first time every member's name is hashed; after that the slots keep the hashes.
  void grow(const std::vector<std::pair<std::string, JsonValue>> &members) {
    std::vector<std::pair<size_t, size_t>> old;
    old.swap(slots_);
    size_t size = std::max<size_t>(64, old.size() * 2);
    while (size < (members.size() + 1) * 2)
      size *= 2;
    slots_.assign(size, {0, 0});
    if (old.empty()) {
      for (size_t m = 0; m < members.size(); ++m)
        insert(std::hash<std::string_view>{}(members[m].first), m + 1);
      return;
    }
    for (const auto &[h, slot] : old)
      if (slot)
        insert(h, slot);
    insert(std::hash<std::string_view>{}(members.back().first), members.size());
  }
};

// A pointer into the text for nlohmann's lexer to read through. The lexer keeps its iterator to
// itself; this one, whenever it is copied or moved, tells `*latest` where the new copy is, and the
// last copy made is the one the lexer reads with (nlohmann only passes it along, by move, before
// parsing, and then advances it in place). So the TreeBuilder can read how far the lexer has read,
// at no cost per character: when the parser hands it a key, the lexer has just read the key's
// closing quote and nothing past it.
struct TrackedChars {
  using iterator_category = std::input_iterator_tag;
  using value_type = char;
  using difference_type = std::ptrdiff_t;
  using pointer = const char *;
  using reference = const char &;
  const char *p = nullptr;
  const TrackedChars **latest = nullptr; // null in the end iterator

  TrackedChars(const char *at, const TrackedChars **copies) : p(at), latest(copies) { tell(); }
  TrackedChars(const TrackedChars &o) : p(o.p), latest(o.latest) { tell(); }
  TrackedChars &operator=(const TrackedChars &o) {
    p = o.p;
    latest = o.latest;
    tell();
    return *this;
  }
  void tell() {
    if (latest)
      *latest = this;
  }
  reference operator*() const { return *p; }
  TrackedChars &operator++() {
    ++p;
    return *this;
  }
  bool operator==(const TrackedChars &o) const { return p == o.p; }
  bool operator!=(const TrackedChars &o) const { return p != o.p; }
};

// Where the key string whose closing quote is the last quote before `end` opens: the nearest quote
// before the closing one that no odd run of backslashes escapes.
size_t keyStart(std::string_view text, size_t end) {
  const char *base = text.data();
  const char *quote = static_cast<const char *>(memrchr(base, '"', end)); // the closing one
  while (quote && quote > base) {
    quote = static_cast<const char *>(memrchr(base, '"', static_cast<size_t>(quote - base)));
    if (!quote)
      break;
    const char *run = quote; // the backslashes right before it start here
    while (run > base && run[-1] == '\\')
      --run;
    if ((quote - run) % 2 == 0)
      return static_cast<size_t>(quote - base);
  }
  return 0;
}

// The 1-based line and column of byte offsets met in increasing order (keys, in file order): the
// newlines are counted as the offsets move forward.
struct LineCounter {
  std::string_view text;
  size_t counted = 0;   // newlines are counted up to here
  uint32_t line = 1;    // the line `counted` is on
  size_t lineStart = 0; // where that line starts

  std::pair<uint32_t, uint32_t> at(size_t offset) {
    for (const char *p;
         counted < offset && (p = static_cast<const char *>(
                                  std::memchr(text.data() + counted, '\n', offset - counted)));) {
      ++line;
      counted = lineStart = static_cast<size_t>(p - text.data()) + 1;
    }
    counted = std::max(counted, offset);
    return {line, static_cast<uint32_t>(offset - lineStart + 1)};
  }
};

// Builds JsonValue directly from nlohmann's SAX events, in file order. A repeated key keeps its
// first position and takes the last value, as nlohmann::ordered_json (and Python's dict) do;
// objects with many members find repeats through a hash index, so a node_config of n entries is
// read in O(n) (ordered_json's insert searches its vector: O(n^2)).
struct TreeBuilder : nlohmann::json_sax<nlohmann::json> {
  struct Open {
    JsonValue *value;
    MemberIndex index;     // filled past kIndexFrom members, once the keys are out of order
    bool ascending = true; // every key so far greater than the one before
  };
  static constexpr size_t kIndexFrom = 16;
  // A value nested deeper is kept as a null, with nothing below it.
  static constexpr size_t kMaxDepth = 200;
  JsonValue &root;
  std::string_view text;
  const TrackedChars *const *read; // the lexer's iterator: how far it has read `text`
  LineCounter lines;
  std::vector<Open> stack;
  JsonValue *pending = nullptr;                  // the slot the next value fills (a member's value)
  std::pair<uint32_t, uint32_t> pendingAt{1, 1}; // where that member's key starts
  size_t skipping = 0;                           // containers open below kMaxDepth
  std::string error;
  size_t errorByte = 0;

  TreeBuilder(JsonValue &r, std::string_view t, const TrackedChars *const *at)
      : root(r), text(t), read(at), lines{t} {}

  // The next value's slot, at its key's position (an array item: at its array's; the root: 1:1).
  JsonValue &slot() {
    JsonValue *v = &root;
    std::pair<uint32_t, uint32_t> at{1, 1};
    if (pending) {
      v = pending;
      pending = nullptr;
      at = pendingAt;
    } else if (!stack.empty()) {
      JsonValue *parent = stack.back().value;
      parent->items.emplace_back();
      v = &parent->items.back();
      at = {parent->line, parent->column};
    }
    v->line = at.first;
    v->column = at.second;
    return *v;
  }
  bool tooDeep() const { return stack.size() > kMaxDepth; }
  bool scalar(JsonValue::Kind kind, std::string value) {
    if (skipping)
      return true;
    JsonValue &v = slot();
    if (!tooDeep()) {
      v.kind = kind;
      v.text = std::move(value);
    }
    return true;
  }
  bool null() override { return scalar(JsonValue::Null, {}); }
  bool boolean(bool b) override { return scalar(JsonValue::Bool, b ? "true" : "false"); }
  bool number_integer(number_integer_t n) override {
    return scalar(JsonValue::Integer, std::to_string(n));
  }
  bool number_unsigned(number_unsigned_t n) override {
    return scalar(JsonValue::Integer, std::to_string(n));
  }
  bool number_float(number_float_t x, const string_t &) override {
    return scalar(JsonValue::Float, nlohmann::json(x).dump());
  }
  bool string(string_t &s) override { return scalar(JsonValue::String, s); } // see append
  bool binary(binary_t &) override { return scalar(JsonValue::Null, {}); }   // not in JSON text
  bool open(JsonValue::Kind kind) {
    if (skipping) {
      ++skipping;
      return true;
    }
    JsonValue &v = slot();
    if (tooDeep()) {
      skipping = 1;
      return true;
    }
    v.kind = kind;
    stack.push_back({&v, {}, true});
    return true;
  }
  bool start_object(std::size_t) override { return open(JsonValue::Object); }
  bool start_array(std::size_t) override { return open(JsonValue::Array); }
  bool close() {
    if (skipping)
      --skipping;
    else
      stack.pop_back();
    return true;
  }
  bool end_object() override { return close(); }
  bool end_array() override { return close(); }
  // Keys in strictly ascending order (qcc writes node_config sorted) cannot repeat an earlier
  // one, so they are appended without a lookup; the index is built at the first key out of order.
  bool key(string_t &k) override {
    if (skipping)
      return true;
    pendingAt = lines.at(keyStart(text, static_cast<size_t>((*read)->p - text.data())));
    Open &o = stack.back();
    auto &members = o.value->members;
    if (o.ascending && (members.empty() || members.back().first < k))
      return append(o, k);
    o.ascending = false;
    size_t found = members.size();
    if (members.size() <= kIndexFrom) {
      for (size_t i = 0; i < members.size(); ++i)
        if (members[i].first == k)
          found = i;
    } else {
      if (o.index.empty())
        o.index.add(members); // every member so far
      found = o.index.find(members, k);
    }
    if (found < members.size()) {
      // A repeated key keeps its first position.
      pendingAt = {members[found].second.line, members[found].second.column};
      members[found].second = JsonValue{};
      pending = &members[found].second;
      return true;
    }
    return append(o, k);
  }
  // A copy, not a move: the lexer's buffer keeps its capacity for the next token.
  bool append(Open &o, const std::string &k) {
    auto &members = o.value->members;
    members.emplace_back(k, JsonValue{});
    if (!o.ascending && members.size() > kIndexFrom)
      o.index.add(members);
    pending = &members.back().second;
    return true;
  }
  bool parse_error(std::size_t position, const std::string &,
                   const nlohmann::detail::exception &ex) override {
    error = ex.what();
    errorByte = position;
    return false;
  }
};

} // namespace

bool parseQuantConfigText(std::string_view text, QuantConfigDoc &doc, std::string &error,
                          uint32_t &line, uint32_t &column) {
  doc = QuantConfigDoc{};
  // Without a comment marker the stripped text is the text itself: no copy.
  bool marked =
      text.find("//") != std::string_view::npos || text.find("/*") != std::string_view::npos;
  std::string copy = marked ? stripHmctComments(text) : std::string();
  std::string_view stripped = marked ? std::string_view(copy) : text;
  doc.hadComments = marked && stripped != text;
  const TrackedChars *read = nullptr;
  TreeBuilder builder(doc.root, stripped, &read);
  if (!nlohmann::json::sax_parse(TrackedChars(stripped.data(), &read),
                                 TrackedChars(stripped.data() + stripped.size(), nullptr),
                                 &builder)) {
    size_t off =
        std::min<size_t>(builder.errorByte > 0 ? builder.errorByte - 1 : 0, stripped.size());
    std::tie(line, column) = LineCounter{stripped}.at(off);
    error = builder.error;
    if (auto p = error.find("parse error"); p != std::string::npos)
      error = error.substr(p);
    doc.root = JsonValue{};
    return false;
  }
  return true;
}

bool parseQuantConfig(const std::string &text, FileID file, QuantConfigDoc &doc,
                      DiagnosticEngine &diags) {
  std::string error;
  uint32_t line = 0, col = 0;
  bool ok = parseQuantConfigText(text, doc, error, line, col);
  doc.file = file;
  if (!ok)
    diags.report(DiagID::err_hmct_json_syntax, diags.sourceManager().lineRange(file, line, col),
                 {error});
  return ok;
}

// ---- Checks
// --------------------------------------------------------------------------------------

namespace {

// Where a finding is ("node_config.<name>.qtype"), kept as its parts: the path is only spelled
// out for a message (the probe state's node_config has 44k entries and no finding).
class Where {
public:
  Where(const std::string &whole) : parts_{whole}, n_(1) {} // NOLINT: a path given whole
  Where(std::string_view a, std::string_view b) : parts_{a, b}, n_(2) {}
  Where then(std::string_view key) const {
    Where w = *this;
    w.parts_[w.n_++] = ".";
    w.parts_[w.n_++] = key;
    return w;
  }
  std::string str() const {
    std::string s;
    for (size_t i = 0; i < n_; ++i)
      s += parts_[i];
    return s;
  }
  friend std::string operator+(const Where &w, const char *tail) { return w.str() + tail; }

private:
  std::string_view parts_[4];
  size_t n_;
};

struct Checker {
  std::string_view march;
  std::vector<Issue> issues;
  void add(Check check, bool error, const JsonValue &at, std::string msg) {
    issues.push_back({check, error, at.line, at.column, std::move(msg)});
  }

  void qtype(const JsonValue &v, const Where &where, std::string_view opType) {
    if (v.kind != JsonValue::String) {
      add(Check::ValueType, true, v, where + ": a qtype is a string");
      return;
    }
    if (!isQtype(v.text)) {
      add(Check::Qtype, true, v,
          where + ": '" + v.text +
              "' is not an HMCT qtype (int8, int16, float16, float32, "
              "dual-int16, int16-ec)");
      return;
    }
    if ((v.text == "dual-int16" || v.text == "int16-ec") && !opType.empty() &&
        !isDualInt16OpType(opType))
      add(Check::DualInt16Op, true, v,
          where + ": '" + v.text + "' exists only on Conv, MatMul, Gemm and ConvTranspose");
    if (!march.empty() && !qtypeAllowedOnMarch(march, v.text))
      add(Check::Qtype, true, v,
          where + ": qtype '" + v.text + "' is not available on march '" + std::string(march) +
              "'");
  }

  void entry(const JsonValue &e, const Where &where, std::string_view opType, bool node) {
    if (e.kind != JsonValue::Object) {
      add(Check::ValueType, true, e,
          where + ": an entry is an object such as {\"qtype\": \"int16\"}");
      return;
    }
    bool hasNew = false, hasLegacy = false;
    for (const auto &[k, v] : e.members) {
      Where w = where.then(k);
      if (k == "qtype") {
        hasNew = true;
        qtype(v, w, opType);
      } else if (k == "input0" || k == "input1") {
        hasNew = true;
        if (!node)
          add(Check::ConfigKey, true, v, w + ": input0/input1 are node-level keys");
        qtype(v, w, "");
      } else if (std::find(kLegacyEntryKeys.begin(), kLegacyEntryKeys.end(), k) !=
                 kLegacyEntryKeys.end()) {
        hasLegacy = true;
        if (k == "ON") {
          if (v.kind != JsonValue::String || (v.text != "BPU" && v.text != "CPU"))
            add(Check::ValueType, true, v,
                w + ": ON is a placement (\"BPU\" or \"CPU\"), not a dtype");
          else
            add(Check::LegacyKey, false, v, w + ": legacy placement key; use \"qtype\"");
        } else {
          add(Check::LegacyKey, false, v,
              w + ": legacy key; use \"qtype\" or \"input0\"/\"input1\"");
          qtype(v, w, "");
        }
      } else {
        add(Check::ConfigKey, true, v,
            "Unsupported config key in " + std::string(node ? "node_config" : "op_config") + ": " +
                k);
      }
    }
    if (hasNew && hasLegacy)
      add(Check::LegacyKey, false, e, where + ": legacy keys mixed with qtype/input0/input1");
  }

  // horizon_nn checks a list's Python type as a whole: a list holds one type only (1.3). A mixed
  // list is one finding, at the first item whose type differs from the first item's.
  bool mixedList(const JsonValue &v, const std::string &w) {
    if (v.kind != JsonValue::Array)
      return false;
    for (const JsonValue &x : v.items)
      if (x.kind != v.items.front().kind) {
        add(Check::ValueType, true, x,
            w + ": a list holds values of one type only ('" + v.items.front().text + "' and '" +
                x.text + "')");
        return true;
      }
    return false;
  }

  // modelwise_search {metric, similarity} / layerwise_search {metric, topk, qtype} (1.2).
  void searchConfig(const JsonValue &v, const std::string &w, bool layerwise) {
    if (v.kind != JsonValue::Object) {
      add(Check::ValueType, true, v, w + ": expects an object");
      return;
    }
    if (const JsonValue *m = v.get("metric");
        m && (m->kind != JsonValue::String || !isBiasMetric(m->text)))
      add(Check::SearchConfig, true, *m,
          w + ".metric: '" + m->text +
              "' is not a metric (cosine-similarity, mse, mae, mre, sqnr, chebyshev)");
    if (!layerwise)
      return;
    if (const JsonValue *q = v.get("qtype");
        q && (q->kind != JsonValue::String || (q->text != "int8" && q->text != "int16")))
      add(Check::SearchConfig, true, *q, w + ".qtype: '" + q->text + "' is not int8 or int16");
    if (const JsonValue *t = v.get("topk");
        t && (t->kind != JsonValue::Integer || t->text.front() == '-' || t->text == "0"))
      add(Check::ValueType, true, *t, w + ".topk: expects an integer >= 1");
  }

  void numberList(const JsonValue &v, const std::string &w, bool wantFloat, double minClamp,
                  const char *clampTo) {
    if (mixedList(v, w))
      return;
    auto one = [&](const JsonValue &x) {
      bool ok = wantFloat ? x.kind == JsonValue::Float : x.kind == JsonValue::Integer;
      if (!ok) {
        add(Check::ValueType, true, x,
            w + ": expects " + (wantFloat ? "a float (with '.')" : "an integer"));
        return;
      }
      double d = std::stod(x.text);
      if (d < minClamp)
        add(Check::ClampedValue, false, x, w + " = " + x.text + " is raised by HMCT to " + clampTo);
      if (wantFloat && d > 1.0)
        add(Check::ValueType, true, x, w + " = " + x.text + " is above 1.0");
    };
    if (v.kind == JsonValue::Array)
      for (const auto &x : v.items)
        one(x);
    else
      one(v);
  }

  void boolList(const JsonValue &v, const std::string &w) {
    if (mixedList(v, w))
      return;
    auto one = [&](const JsonValue &x) {
      if (x.kind != JsonValue::Bool)
        add(Check::ValueType, true, x, w + ": expects true or false");
    };
    if (v.kind == JsonValue::Array)
      for (const auto &x : v.items)
        one(x);
    else
      one(v);
  }

  void modelConfig(const JsonValue &mc) {
    if (mc.kind != JsonValue::Object) {
      add(Check::ValueType, true, mc, "model_config: expects an object");
      return;
    }
    for (const auto &[k, v] : mc.members) {
      std::string w = "model_config." + k;
      if (std::find(kModelConfigKeys.begin(), kModelConfigKeys.end(), k) ==
          kModelConfigKeys.end()) {
        add(Check::ConfigKey, true, v, "Unsupported config key in model_config: " + k);
      } else if (k == "all_node_type") {
        qtype(v, w, "");
        if (v.text == "dual-int16" || v.text == "int16-ec")
          add(Check::DualInt16Op, true, v,
              w + ": '" + v.text + "' exists only on Conv, MatMul, Gemm and ConvTranspose");
      } else if (k == "model_output_type") {
        if (v.kind != JsonValue::String || !isModelOutputType(v.text))
          add(Check::ModelOutputType, true, v,
              "Unsupported datatype settings for model_output_type: " + v.text);
      } else if (k == "activation") {
        if (v.kind != JsonValue::Object) {
          add(Check::ValueType, true, v, w + ": expects an object");
          continue;
        }
        for (const auto &[ak, av] : v.members) {
          std::string aw = w + "." + ak;
          if (std::find(kActivationKeys.begin(), kActivationKeys.end(), ak) ==
              kActivationKeys.end())
            add(Check::ConfigKey, true, av,
                "Unsupported config key in model_config.activation: " + ak);
          else if (ak == "calibration_type") {
            if (mixedList(av, aw))
              continue;
            auto one = [&](const JsonValue &x) {
              if (x.kind != JsonValue::String || !isCalibrationType(x.text))
                add(Check::CalibrationType, true, x,
                    aw + ": '" + x.text + "' is not a calibration type");
            };
            if (av.kind == JsonValue::Array)
              for (const auto &x : av.items)
                one(x);
            else
              one(av);
          } else if (ak == "num_bin")
            numberList(av, aw, false, 129, "129");
          else if (ak == "max_num_bin")
            numberList(av, aw, false, 258, "at least max(258, num_bin)");
          else if (ak == "max_percentile")
            numberList(av, aw, true, 0.5, "0.5");
          else
            boolList(av, aw);
        }
      } else if (k == "weight") {
        const JsonValue *bc = v.get("bias_correction");
        for (const auto &[wk, wv] : v.members)
          if (wk != "bias_correction")
            add(Check::ConfigKey, true, wv, "Unsupported config key in model_config.weight: " + wk);
        if (bc) {
          if (const JsonValue *m = bc->get("metric");
              m && (m->kind != JsonValue::String || !isBiasMetric(m->text)))
            add(Check::ValueType, true, *m,
                w + ".bias_correction.metric: '" + m->text + "' is not a metric");
          if (const JsonValue *n = bc->get("num_sample");
              n && (n->kind != JsonValue::Integer || std::stol(n->text) < 1))
            add(Check::ValueType, true, *n, w + ".bias_correction.num_sample: an integer >= 1");
        }
      } else if (k == "modelwise_search" || k == "layerwise_search") {
        searchConfig(v, w, k == "layerwise_search");
      } else if (k == "search") {
        add(Check::ConfigKey, false, v,
            "model_config.search exists only in hmct 2.8.3; gate it on the version");
      }
    }
  }

  // An op_config key: HMCT matches it against the ONNX op type of every node, case-sensitively,
  // so a key that is no ONNX op type (a PyTorch class such as `Linear`, a node name such as
  // `/head/Softmax`) sets nothing.
  void opTypeKey(const std::string &name, const JsonValue &e) {
    if (ir::isOnnxOpType(name))
      return;
    std::string cap = name;
    if (!cap.empty())
      cap[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(cap[0])));
    if (cap != name && ir::isOnnxOpType(cap)) {
      add(Check::LowercaseOpType, false, e,
          "op_config." + name + ": ONNX op types are case-sensitive ('" + cap + "'?)");
      return;
    }
    add(Check::OpTypeUnknown, false, e,
        "op_config." + name + ": '" + name + "' is not an ONNX op type, so the entry sets no node" +
            (name.find('/') != std::string::npos || name.find('.') != std::string::npos
                 ? " (a node name belongs in node_config)"
                 : ""));
  }

  void run(const QuantConfigDoc &doc) {
    if (const JsonValue *mc = doc.root.get("model_config"); mc && mc->kind == JsonValue::Object) {
      const JsonValue *act = mc->get("activation");
      if ((!act || !act->get("calibration_type")) && !mc->get("layerwise_search"))
        add(Check::MissingCalibrationType, false, act ? *act : *mc,
            "model_config has no activation.calibration_type: HMCT runs its slow default search");
    }
    const JsonValue &root = doc.root;
    if (root.kind != JsonValue::Object) {
      add(Check::ValueType, true, root, "quant_config must be a JSON object");
      return;
    }
    for (const auto &[k, v] : root.members) {
      if (std::find(kTopLevelKeys.begin(), kTopLevelKeys.end(), k) == kTopLevelKeys.end()) {
        add(Check::TopLevelKey, true, v, "Unsupported first-level title in quant_config: " + k);
        continue;
      }
      if (k == "model_config")
        modelConfig(v);
      else if (k == "op_config" || k == "node_config") {
        if (v.kind != JsonValue::Object) {
          add(Check::ValueType, true, v, k + ": expects an object");
          continue;
        }
        for (const auto &[name, e] : v.members) {
          if (k == "op_config") {
            opTypeKey(name, e);
            entry(e, Where("op_config.", name), name, false);
          } else {
            if (hasCommentMarker(name) && doc.hadComments)
              add(Check::CommentInName, false, e,
                  "node_config." + name +
                      ": '//' or '/*' in a name is corrupted by HMCT's comment stripper");
            // HMCT matches node_config by node name: an op type there names a node no exporter
            // gives (with the graph at hand, qlint's hmct-node-missing decides instead).
            if (ir::isOnnxOpType(name))
              add(Check::NodeIsOpType, false, e,
                  "node_config." + name + ": '" + name +
                      "' is an ONNX op type, not a node name; op_config." + name + " sets every " +
                      name + " node");
            entry(e, Where("node_config.", name), "", true);
          }
        }
      }
    }
  }
};

} // namespace

std::vector<Issue> checkQuantConfig(const QuantConfigDoc &doc, std::string_view march) {
  Checker c{march, {}};
  c.run(doc);
  return std::move(c.issues);
}

std::string classifyQuantConfig(const std::vector<Issue> &issues) {
  for (const Issue &i : issues)
    if (i.error)
      return std::string("refused: ") + checkName(i.check);
  std::vector<std::string> warns;
  for (const Issue &i : issues)
    if (std::find(warns.begin(), warns.end(), checkName(i.check)) == warns.end())
      warns.push_back(checkName(i.check));
  if (warns.empty())
    return "accepted";
  std::string out = "accepted with warnings:";
  for (const auto &w : warns)
    out += " " + w;
  return out;
}

} // namespace qspec::hmct
