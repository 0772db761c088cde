// Inventory dispatch (format by name and content), assignBlocks, and the manifest formats:
// `NAME TYPE` lines, `NAME,TYPE` CSV, and a JSON array of {"name", "type"} objects. The binary
// formats live in Safetensors.cpp and Onnx.cpp.
#include "frontend/readers/ReaderSupport.h"
#include "frontend/readers/Readers.h"

#include <nlohmann/json.hpp>

#include <cstring>
#include <filesystem>
#include <fstream>

namespace qspec::readers {

using namespace detail;

void assignBlocks(ir::Inventory &inv, const Pattern &blockPattern) {
  // A module belongs to block N when a dotted prefix of its name matches the block pattern.
  std::vector<std::string_view> caps;
  for (ir::Module &m : inv.modules) {
    m.block = -1;
    std::string_view name = m.name;
    for (size_t dot = name.find('.'); dot != std::string_view::npos; dot = name.find('.', dot + 1)) {
      if (blockPattern.matches(name.substr(0, dot), &caps) && !caps.empty()) {
        std::string_view digits = caps[0];
        if (!digits.empty() && digits.size() < 9) {
          m.block = std::stoi(std::string(digits));
          break;
        }
      }
    }
  }
}

std::string moduleTypeFromName(const std::string &moduleName) { return typeFromName(moduleName); }

namespace detail {
bool readSafetensorsIndex(FileID file, ir::Inventory &out, DiagnosticEngine &diags, const ReaderLimits &limits);
bool readSafetensorsFile(const std::string &path, ir::Inventory &out, DiagnosticEngine &diags,
                         SourceRange requestedAt, const ReaderLimits &limits);
bool readOnnx(const std::string &path, ir::Inventory &out, DiagnosticEngine &diags, SourceRange requestedAt,
              const ReaderLimits &limits);
} // namespace detail

namespace {

bool hasControlChar(std::string_view s) {
  for (unsigned char c : s)
    if (c < 0x20 || c == 0x7f)
      return true;
  return false;
}

// `NAME TYPE` (whitespace) or `NAME,TYPE` (CSV) per line; `#` starts a comment.
bool readManifest(FileID file, ir::Inventory &out, DiagnosticEngine &diags, const ReaderLimits &limits) {
  SourceManager &sm = diags.sourceManager();
  InventoryBuilder builder(out, diags, file, limits);
  out.format = "manifest";
  int csv = -1; // decided by the first data line
  bool firstData = true;
  for (const Line &line : splitLines(sm.text(file))) {
    std::string_view text = line.text;
    uint32_t bom = line.number == 1 && startsWith(text, "\xEF\xBB\xBF") ? 3 : 0;
    text.remove_prefix(bom);
    // A comment runs from a '#' at the start of the line or after whitespace.
    for (size_t i = 0; i < text.size(); ++i)
      if (text[i] == '#' && (i == 0 || text[i - 1] == ' ' || text[i - 1] == '\t')) {
        text = text.substr(0, i);
        break;
      }
    if (trim(text).empty())
      continue;
    auto bad = [&](uint32_t col, uint32_t len, const std::string &why) {
      diags.report(DiagID::err_inventory_malformed, sm.lineRange(file, line.number, col, std::max<uint32_t>(len, 1)),
                   {why});
      return false;
    };
    if (csv < 0) {
      csv = text.find(',') != std::string_view::npos;
      out.format = csv ? "manifest-csv" : "manifest";
    }
    struct Field {
      std::string text;
      uint32_t col, len;
    };
    std::vector<Field> fields;
    if (csv) {
      size_t start = 0;
      while (true) {
        size_t comma = text.find(',', start);
        std::string_view raw = text.substr(start, comma == std::string_view::npos ? std::string_view::npos : comma - start);
        size_t lead = raw.find_first_not_of(" \t");
        std::string_view f = trim(raw);
        uint32_t col = static_cast<uint32_t>(bom + start + (lead == std::string_view::npos ? 0 : lead) + 1);
        if (f.size() >= 2 && f.front() == '"' && f.back() == '"')
          f = f.substr(1, f.size() - 2);
        fields.push_back({std::string(f), col, static_cast<uint32_t>(trim(raw).size())});
        if (comma == std::string_view::npos)
          break;
        start = comma + 1;
      }
      if (fields.size() > 2)
        return bad(fields[2].col, fields[2].len, "expected 'NAME,TYPE' on each line, found " +
                                                     std::to_string(fields.size()) + " fields");
      if (fields[0].text.empty())
        return bad(fields[0].col, 1, "empty module name");
    } else {
      for (const Token &t : tokenize(text))
        fields.push_back({std::string(t.text), bom + t.offset + 1, static_cast<uint32_t>(t.text.size())});
      if (fields.size() > 2)
        return bad(fields[2].col, fields[2].len, "expected 'NAME TYPE' on each line, found " +
                                                     std::to_string(fields.size()) + " words");
    }
    if (firstData) {
      firstData = false;
      auto lower = [](std::string s) {
        for (char &c : s)
          c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
        return s;
      };
      if (fields.size() == 2 && lower(fields[0].text) == "name" && lower(fields[1].text) == "type")
        continue; // a header row
    }
    for (const Field &f : fields)
      if (hasControlChar(f.text))
        return bad(f.col, f.len, "control character in '" + f.text + "'");
    if (fields[0].text.find_first_of(" \t") != std::string::npos)
      return bad(fields[0].col, fields[0].len, "module name '" + fields[0].text + "' contains a space");
    std::string type = fields.size() > 1 ? fields[1].text : std::string();
    if (!builder.add(fields[0].text, std::move(type), line.offset + fields[0].col - 1, fields[0].len, line.number))
      return false;
  }
  return true;
}

// [{"name": "...", "type": "..."}, ...]
bool readJsonManifest(FileID file, ir::Inventory &out, DiagnosticEngine &diags, const ReaderLimits &limits) {
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
    diags.report(DiagID::err_inventory_malformed, at(0), {"a JSON inventory is an array of {\"name\", \"type\"} objects"});
    return false;
  }
  InventoryBuilder builder(out, diags, file, limits);
  for (uint32_t i = 0; i < doc.size(); ++i) {
    const auto &e = doc[i];
    auto elem = locateJson(text, {i});
    if (!e.is_object() || !e.contains("name") || !e["name"].is_string()) {
      diags.report(DiagID::err_inventory_malformed, at(elem),
                   {"element " + std::to_string(i) + " needs a string \"name\""});
      return false;
    }
    std::string type;
    if (e.contains("type") && !e["type"].is_null()) {
      if (!e["type"].is_string()) {
        diags.report(DiagID::err_inventory_malformed, at(elem),
                     {"\"type\" of element " + std::to_string(i) + " must be a string"});
        return false;
      }
      type = e["type"].get<std::string>();
    }
    std::string name = e["name"].get<std::string>();
    if (name.empty() || hasControlChar(name) || hasControlChar(type)) {
      diags.report(DiagID::err_inventory_malformed, at(elem),
                   {"element " + std::to_string(i) + " has an empty name or a control character"});
      return false;
    }
    uint32_t keyOff = elem.value_or(0);
    uint32_t idx = 0;
    for (auto it = e.begin(); it != e.end(); ++it, ++idx)
      if (it.key() == "name") {
        keyOff = locateJson(text, {i, idx}).value_or(keyOff);
        break;
      }
    if (!builder.add(std::move(name), std::move(type), keyOff, 6))
      return false;
  }
  return true;
}

} // namespace

bool readInventory(const std::string &path, ir::Inventory &out, DiagnosticEngine &diags,
                   SourceRange requestedAt, const ReaderLimits &limits) {
  out.modules.clear();
  out.index.clear();
  out.format.clear();
  out.path = path;
  SourceManager &sm = diags.sourceManager();

  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) {
    diags.report(DiagID::err_cannot_open_file, requestedAt, {path, "is a directory"});
    return false;
  }
  std::ifstream probe(path, std::ios::binary);
  if (!probe) {
    diags.report(DiagID::err_cannot_open_file, requestedAt, {path, "cannot open file"});
    return false;
  }
  char head[9] = {};
  probe.read(head, 9);
  size_t got = static_cast<size_t>(probe.gcount());
  probe.close();

  bool ok;
  if (endsWith(path, ".safetensors")) {
    ok = readSafetensorsFile(path, out, diags, requestedAt, limits);
  } else if (endsWith(path, ".onnx")) {
    ok = readOnnx(path, out, diags, requestedAt, limits);
  } else if (got == 9 && head[8] == '{' && std::memchr(head, 0, 8)) {
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
    std::string_view text = sm.text(f);
    if (startsWith(text, "\xEF\xBB\xBF"))
      text.remove_prefix(3);
    std::string_view body = trim(text);
    std::string_view sniff = text.substr(0, 4096);
    if (sniff.find('\0') != std::string_view::npos) {
      diags.report(DiagID::err_inventory_unknown_format, SourceRange{f, {}, {}}, {path});
      return false;
    }
    if (endsWith(path, ".index.json") || startsWith(body, "{")) {
      ok = readSafetensorsIndex(f, out, diags, limits);
    } else if (startsWith(body, "[")) {
      ok = readJsonManifest(f, out, diags, limits);
    } else {
      ok = readManifest(f, out, diags, limits);
    }
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
