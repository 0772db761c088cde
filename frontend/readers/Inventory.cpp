// Inventory dispatch (format by name and content), assignBlocks, and the manifest formats:
// `NAME TYPE` lines, `NAME,TYPE` CSV, and a JSON array of {"name", "type"} objects. The binary
// formats live in Safetensors.cpp and Onnx.cpp.
#include "frontend/readers/ReaderSupport.h"
#include "frontend/readers/Readers.h"

#include <nlohmann/json.hpp>

#include <cerrno>
#include <algorithm>
#include <cctype>
#include <cstring>
#include <filesystem>

namespace qspec::readers {

using namespace detail;

void assignBlocks(ir::Inventory &inv, const Pattern &blockPattern) {
  // A module belongs to block N when a dotted prefix of its name matches the block pattern; the
  // shortest such prefix decides. Whether a prefix qualifies depends on the prefix alone, so
  // when a module starts with the prefix that decided the previous module (followed by a dot),
  // every shorter dotted prefix is one that already failed there and the block is the same:
  // inventories list the modules of a block together, so the pattern runs about once a block
  // instead of once a module.
  std::vector<std::string_view> caps;
  std::string_view lastPrefix; // the prefix that decided the previous module ("" if none did)
  int32_t lastBlock = -1;
  for (ir::Module &m : inv.modules) {
    m.block = -1;
    std::string_view name = m.name;
    if (!lastPrefix.empty() && name.size() > lastPrefix.size() && name[lastPrefix.size()] == '.' &&
        name.compare(0, lastPrefix.size(), lastPrefix) == 0) {
      m.block = lastBlock;
      continue;
    }
    for (size_t dot = name.find('.'); dot != std::string_view::npos;
         dot = name.find('.', dot + 1)) {
      if (blockPattern.matches(name.substr(0, dot), &caps) && !caps.empty()) {
        std::string_view digits = caps[0];
        if (!digits.empty() && digits.size() < 9) {
          m.block = std::stoi(std::string(digits));
          lastPrefix = name.substr(0, dot); // a view of m.name, which outlives the loop
          lastBlock = m.block;
          break;
        }
      }
    }
  }
}

std::string moduleTypeFromName(const std::string &moduleName) { return typeFromName(moduleName); }

namespace detail {
bool readSafetensorsIndex(FileID file, ir::Inventory &out, DiagnosticEngine &diags,
                          const ReaderLimits &limits);
bool readSafetensorsFile(const std::string &path, ir::Inventory &out, DiagnosticEngine &diags,
                         SourceRange requestedAt, const ReaderLimits &limits);
bool readOnnx(const std::string &path, ir::Inventory &out, DiagnosticEngine &diags,
              SourceRange requestedAt, const ReaderLimits &limits);
} // namespace detail

namespace {

// C0 controls, DEL, and the C1 controls U+0080..U+009F (UTF-8 C2 80..C2 9F: U+0085 is a line
// break to YAML, U+009B starts an escape sequence on some terminals).
// Whether any byte of `s` could start one (below 0x20, DEL, the lead byte 0xC2), leaving out '\n'
// when `newlinesAllowed`: a pass without an early exit, so it is vectorized.
bool mayHaveControlChar(std::string_view s, bool newlinesAllowed) {
  const unsigned char newline = newlinesAllowed ? '\n' : 0xff;
  unsigned char candidate = 0;
  for (unsigned char c : s)
    candidate |=
        static_cast<unsigned char>(((c < 0x20) & (c != newline)) | (c == 0x7f) | (c == 0xC2));
  return candidate;
}

bool hasControlChar(std::string_view s) {
  // Names almost never have one: the quick pass says whether any byte could start one, and only
  // then the exact walk runs.
  if (!mayHaveControlChar(s, false))
    return false;
  for (size_t i = 0; i < s.size(); ++i) {
    unsigned char c = static_cast<unsigned char>(s[i]);
    if (c < 0x20 || c == 0x7f)
      return true;
    if (c == 0xC2 && i + 1 < s.size() && static_cast<unsigned char>(s[i + 1]) < 0xA0)
      return true;
  }
  return false;
}

// ASCII case-insensitive `s == lowerWord` (`lowerWord` in lower case).
bool equalsLower(std::string_view s, std::string_view lowerWord) {
  if (s.size() != lowerWord.size())
    return false;
  for (size_t i = 0; i < s.size(); ++i)
    if (std::tolower(static_cast<unsigned char>(s[i])) != lowerWord[i])
      return false;
  return true;
}

// One field of a manifest line: views into the file's text (the SourceManager's copy), so a
// line costs no allocation until a module is stored.
struct Field {
  std::string_view text;
  uint32_t col, len;
};
// The first fields of a line (a valid line has at most two; the third is kept for the
// diagnostic) and how many there were in all.
struct Fields {
  Field f[3];
  size_t count = 0;
  void push(Field x) {
    if (count < 3)
      f[count] = x;
    ++count;
  }
};

// forEachWord for text whose only reader space is ' ': the end of a word is found by memchr
// instead of testing each character against the six reader spaces.
template <typename Fn> void forEachSpacedWord(std::string_view s, Fn &&fn) {
  for (size_t i = 0; i < s.size();) {
    while (i < s.size() && s[i] == ' ')
      ++i;
    if (i >= s.size())
      break;
    const void *space = std::memchr(s.data() + i, ' ', s.size() - i);
    size_t end =
        space ? static_cast<size_t>(static_cast<const char *>(space) - s.data()) : s.size();
    fn(s.substr(i, end - i), static_cast<uint32_t>(i));
    i = end;
  }
}

// `NAME TYPE` (whitespace) or `NAME,TYPE` (CSV) per line; `#` starts a comment.
// The lines are walked in place (the same split as splitLines: '\n' ends a line, one trailing
// '\r' is dropped) rather than collected first: a 1M-module manifest is read in one pass.
bool readManifest(FileID file, ir::Inventory &out, DiagnosticEngine &diags,
                  const ReaderLimits &limits) {
  SourceManager &sm = diags.sourceManager();
  InventoryBuilder builder(out, diags, file, limits);
  out.format = "manifest";
  const std::string &whole = sm.text(file);
  // The line count (from the SourceManager's line table, no scan) bounds the module count.
  builder.reserve(sm.locate(file, static_cast<uint32_t>(whole.size())).line);
  int csv = -1; // decided by the first data line
  bool firstData = true;
  uint32_t number = 0;
  size_t nextHash =
      whole.find('#'); // the first '#' at or after the current line: most lines have none
  // A plain file (the usual one) has no byte besides its line ends that could start a control
  // character, so no reader space but ' ' either (tab, CR, FF and VT are below 0x20): one pass
  // over the whole text stands for the per-field control walks, and words are split at ' '.
  const bool plain = !mayHaveControlChar(whole, true);
  for (size_t start = 0; start < whole.size();) {
    const char *nl =
        static_cast<const char *>(std::memchr(whole.data() + start, '\n', whole.size() - start));
    size_t end = nl ? static_cast<size_t>(nl - whole.data()) : whole.size();
    if (nextHash < start)
      nextHash = whole.find('#', start);
    std::string_view text(whole.data() + start, end - start);
    if (!text.empty() && text.back() == '\r')
      text.remove_suffix(1);
    const Line line{++number, text, static_cast<uint32_t>(start)};
    start = end + 1;
    uint32_t bom = line.number == 1 && startsWith(text, "\xEF\xBB\xBF") ? 3 : 0;
    text.remove_prefix(bom);
    // A comment runs from a '#' at the start of the line or after whitespace.
    size_t i = nextHash < end ? text.find('#') : std::string_view::npos;
    for (; i != std::string_view::npos; i = text.find('#', i + 1))
      if (i == 0 || text[i - 1] == ' ' || text[i - 1] == '\t') {
        text = text.substr(0, i);
        break;
      }
    if (trim(text).empty())
      continue;
    auto bad = [&](uint32_t col, uint32_t len, const std::string &why) {
      if (!builder.finish()) // a duplicate on an earlier line is the first error
        return false;
      diags.report(DiagID::err_inventory_malformed,
                   sm.lineRange(file, line.number, col, std::max<uint32_t>(len, 1)), {why});
      return false;
    };
    if (csv < 0) {
      csv = text.find(',') != std::string_view::npos;
      out.format = csv ? "manifest-csv" : "manifest";
    }
    Fields fields;
    if (csv) {
      size_t fieldStart = 0;
      while (true) {
        size_t comma = text.find(',', fieldStart);
        std::string_view raw =
            text.substr(fieldStart, comma == std::string_view::npos ? std::string_view::npos
                                                                    : comma - fieldStart);
        size_t lead = raw.find_first_not_of(" \t");
        std::string_view f = trim(raw);
        uint32_t col = static_cast<uint32_t>(bom + fieldStart +
                                             (lead == std::string_view::npos ? 0 : lead) + 1);
        uint32_t len = static_cast<uint32_t>(f.size());
        if (f.size() >= 2 && f.front() == '"' && f.back() == '"')
          f = f.substr(1, f.size() - 2);
        fields.push({f, col, len});
        if (comma == std::string_view::npos)
          break;
        fieldStart = comma + 1;
      }
      if (fields.count > 2)
        return bad(fields.f[2].col, fields.f[2].len,
                   "expected 'NAME,TYPE' on each line, found " + std::to_string(fields.count) +
                       " fields");
      if (fields.f[0].text.empty())
        return bad(fields.f[0].col, 1, "empty module name");
    } else {
      auto push = [&](std::string_view word, uint32_t offset) {
        fields.push(
            {word, static_cast<uint32_t>(bom + offset + 1), static_cast<uint32_t>(word.size())});
      };
      if (plain)
        forEachSpacedWord(text, push);
      else
        forEachWord(text, push);
      if (fields.count > 2)
        return bad(fields.f[2].col, fields.f[2].len,
                   "expected 'NAME TYPE' on each line, found " + std::to_string(fields.count) +
                       " words");
    }
    if (firstData) {
      firstData = false;
      if (fields.count == 2 && equalsLower(fields.f[0].text, "name") &&
          equalsLower(fields.f[1].text, "type"))
        continue; // a header row
    }
    for (size_t k = 0; !plain && k < fields.count; ++k)
      if (hasControlChar(fields.f[k].text))
        return bad(fields.f[k].col, fields.f[k].len,
                   k == 0 ? "control character in the module name"
                          : "control character in the module type");
    const Field &name = fields.f[0];
    // Only a CSV field can hold a blank (a word is split at them). (A loop, not
    // find_first_of(" \t"): that calls memchr once per character of the name; and without an
    // early exit, so it is vectorized.)
    unsigned char blank = 0;
    if (csv)
      for (char c : name.text)
        blank |= static_cast<unsigned char>((c == ' ') | (c == '\t'));
    if (blank)
      return bad(name.col, name.len, "the module name contains a space");
    std::string_view type = fields.count > 1 ? fields.f[1].text : std::string_view();
    if (!builder.add(name.text, type, line.offset + name.col - 1, name.len, line.number))
      return false;
  }
  return builder.finish();
}

// [{"name": "...", "type": "..."}, ...]
bool readJsonManifest(FileID file, ir::Inventory &out, DiagnosticEngine &diags,
                      const ReaderLimits &limits) {
  SourceManager &sm = diags.sourceManager();
  const std::string &text = sm.text(file);
  out.format = "manifest-json";
  auto at = [&](std::optional<uint32_t> off) {
    uint32_t o = off.value_or(0);
    return sm.range(file, o, o + 1);
  };
  uint32_t off = 0;
  std::string why;
  if (!checkJson(text, off, why)) {
    diags.report(DiagID::err_inventory_malformed, at(off), {why});
    return false;
  }
  nlohmann::ordered_json doc = nlohmann::ordered_json::parse(text, nullptr, false);
  if (!doc.is_array()) {
    diags.report(DiagID::err_inventory_malformed, at(0),
                 {"a JSON inventory is an array of {\"name\", \"type\"} objects"});
    return false;
  }
  InventoryBuilder builder(out, diags, file, limits);
  builder.reserve(doc.size());
  // Where each element starts, from one scan (locateJson per element rescans from the top:
  // quadratic, about a second for 5,000 elements). Empty when a byte-order mark precedes the
  // array, where locateJson finds nothing either.
  const std::vector<uint32_t> elems = jsonMemberOffsets(text, locateJson(text, {}).value_or(0));
  for (uint32_t i = 0; i < doc.size(); ++i) {
    const auto &e = doc[i];
    std::optional<uint32_t> elem;
    if (i < elems.size())
      elem = elems[i];
    if (!e.is_object() || !e.contains("name") || !e["name"].is_string()) {
      if (!builder.finish()) // a duplicate in an earlier element is the first error
        return false;
      diags.report(DiagID::err_inventory_malformed, at(elem),
                   {"element " + std::to_string(i) + " needs a string \"name\""});
      return false;
    }
    std::string type;
    if (e.contains("type") && !e["type"].is_null()) {
      if (!e["type"].is_string()) {
        if (!builder.finish())
          return false;
        diags.report(DiagID::err_inventory_malformed, at(elem),
                     {"\"type\" of element " + std::to_string(i) + " must be a string"});
        return false;
      }
      type = e["type"].get<std::string>();
    }
    std::string name = e["name"].get<std::string>();
    if (name.empty() || hasControlChar(name) || hasControlChar(type)) {
      if (!builder.finish())
        return false;
      diags.report(DiagID::err_inventory_malformed, at(elem),
                   {"element " + std::to_string(i) + " has an empty name or a control character"});
      return false;
    }
    uint32_t keyOff = elem.value_or(0);
    uint32_t idx = 0;
    for (auto it = e.begin(); it != e.end(); ++it, ++idx)
      if (it.key() == "name") {
        if (elem) {
          std::vector<uint32_t> keys = jsonMemberOffsets(text, *elem);
          if (idx < keys.size())
            keyOff = keys[idx];
        }
        break;
      }
    if (!builder.add(name, type, keyOff, 6))
      return false;
  }
  return builder.finish();
}

} // namespace

bool readInventory(const std::string &path, ir::Inventory &out, DiagnosticEngine &diags,
                   SourceRange requestedAt, const ReaderLimits &limits) {
  out.modules.clear();
  out.index.clear();
  out.format.clear();
  out.path = path;
  SourceManager &sm = diags.sourceManager();

  // The first bytes tell the format. Every read below goes through the bounded-input layer
  // (ir/BoundedInput.h): a regular file, never waited on as a FIFO, with each format's size cap.
  std::string head;
  {
    bounded::BoundedFile probe;
    bounded::ReadOptions any;
    any.maxBytes = UINT64_MAX; // each format's reader applies its own cap
    bounded::Problem p = probe.open(path, any);
    if (!p)
      p = probe.read(0, 9, head);
    if (p) {
      diags.report(DiagID::err_cannot_open_file, requestedAt, {path, bounded::reason(p)});
      return false;
    }
  }
  size_t got = head.size();

  bool ok;
  if (endsWith(path, ".safetensors")) {
    ok = readSafetensorsFile(path, out, diags, requestedAt, limits);
  } else if (endsWith(path, ".onnx")) {
    ok = readOnnx(path, out, diags, requestedAt, limits);
  } else if (got == 9 && head[8] == '{' && std::memchr(head.data(), 0, 8)) {
    // No telling suffix, but the first 8 bytes look like a safetensors length (a small
    // little-endian number has zero high bytes) followed by '{'.
    ok = readSafetensorsFile(path, out, diags, requestedAt, limits);
  } else {
    std::string err;
    FileID f = sm.loadFile(path, err, limits.maxFileBytes);
    if (!f) {
      diags.report(DiagID::err_cannot_open_file, requestedAt, {path, err});
      return false;
    }
    QuoteNothingFrom unquoted(sm, f);
    std::string_view text = sm.text(f);
    if (startsWith(text, "\xEF\xBB\xBF"))
      text.remove_prefix(3);
    std::string_view body = trim(text);
    std::string_view sniff = text.substr(0, 4096);
    if (sniff.find('\0') != std::string_view::npos) {
      diags.report(DiagID::err_inventory_unknown_format, SourceRange{f, {}, {}}, {path});
      return false;
    }
    // Every text inventory is UTF-8 (ir/BoundedInput.h); the message names the place only.
    if (size_t bad = bounded::firstInvalidUtf8(sm.text(f)); bad != std::string_view::npos) {
      uint32_t o = static_cast<uint32_t>(bad);
      diags.report(DiagID::err_inventory_malformed, sm.range(f, o, o + 1), {"invalid UTF-8"});
      return false;
    }
    if (endsWith(path, ".index.json") || startsWith(body, "{")) {
      ok = readSafetensorsIndex(f, out, diags, limits);
    } else if (startsWith(body, "[")) {
      ok = readJsonManifest(f, out, diags, limits);
    } else {
      ok = readManifest(f, out, diags, limits);
    }
    // Nothing quotes the file's text (names and types are copied out; a range into it needs
    // only its lines, which stay): freed by `unquoted` here.
  }
  if (!ok)
    return false;
  if (out.modules.empty()) {
    diags.report(DiagID::err_inventory_empty, requestedAt, {path});
    return false;
  }
  return true;
}

} // namespace qspec::readers
