// Which kind of file a path and its text are; see FileKind.h.
#include "vendors/FileKind.h"

#include <algorithm>
#include <cctype>
#include <filesystem>

namespace qspec::vendors {

namespace fs = std::filesystem;

static bool endsWith(const std::string &s, const char *suf) {
  size_t n = std::char_traits<char>::length(suf);
  return s.size() >= n && s.compare(s.size() - n, n, suf) == 0;
}

FileKind detectFileKind(const std::string &path, std::string_view text) {
  std::string lower = path;
  for (char &c : lower)
    c = static_cast<char>(tolower(static_cast<unsigned char>(c)));
  if (endsWith(lower, ".qspec"))
    return FileKind::QSpec;
  if (endsWith(lower, ".yaml") || endsWith(lower, ".yml")) {
    std::string base = fs::path(path).filename().string();
    if (!base.empty() && base[0] == '.')
      return FileKind::Unknown; // .qlint.yaml, .pre-commit-*.yaml
    if (text.find("apiversion") != std::string_view::npos)
      return FileKind::MsModelSlim;
    // An llm-compressor recipe: a modifier that carries a quantization scheme.
    if (text.find("QuantizationModifier") != std::string_view::npos ||
        text.find("GPTQModifier") != std::string_view::npos)
      return FileKind::CompressedTensors;
    return FileKind::Unknown;
  }
  if (endsWith(lower, ".cfg")) {
    // An INI file ([section]) is not an AMCT config.
    size_t i = 0;
    while (i < text.size()) {
      size_t e = text.find('\n', i);
      std::string_view line =
          text.substr(i, e == std::string_view::npos ? std::string_view::npos : e - i);
      size_t s = line.find_first_not_of(" \t\r");
      if (s != std::string_view::npos && line[s] != '#')
        return line[s] == '[' ? FileKind::Unknown : FileKind::Amct;
      if (e == std::string_view::npos)
        break;
      i = e + 1;
    }
    return FileKind::Amct;
  }
  if (endsWith(lower, ".json") || endsWith(lower, ".jsonc")) {
    for (const char *k :
         {"\"model_config\"", "\"op_config\"", "\"node_config\"", "\"subgraph_config\""})
      if (text.find(k) != std::string_view::npos)
        return FileKind::Hmct;
    // A compressed-tensors quantization_config: bare, or in a checkpoint's config.json.
    if (text.find("\"compressed-tensors\"") != std::string_view::npos ||
        text.find("\"config_groups\"") != std::string_view::npos)
      return FileKind::CompressedTensors;
    return FileKind::Unknown;
  }
  return FileKind::Unknown;
}

FileKind detectContentKind(std::string_view text) {
  // The first significant character, past blank space and #, // and /* */ comments.
  size_t i = 0;
  while (i < text.size()) {
    if (isspace(static_cast<unsigned char>(text[i]))) {
      ++i;
    } else if (text[i] == '#' || text.compare(i, 2, "//") == 0) {
      i = std::min(text.find('\n', i), text.size());
    } else if (text.compare(i, 2, "/*") == 0) {
      size_t e = text.find("*/", i + 2);
      i = e == std::string_view::npos ? text.size() : e + 2;
    } else {
      break;
    }
  }
  if (i == text.size())
    return FileKind::Unknown;
  if (text[i] == '{')
    return detectFileKind("stdin.json", text);
  size_t w = i;
  while (w < text.size() && (isalnum(static_cast<unsigned char>(text[w])) || text[w] == '_'))
    ++w;
  std::string_view word = text.substr(i, w - i);
  size_t next = text.find_first_not_of(" \t", w);
  char after = next == std::string_view::npos ? '\0' : text[next];
  for (const char *k : {"qspec", "include", "model", "defaults", "tiers", "protect", "group",
                        "override", "target", "tune", "allow"})
    if (word == k && after != ':')
      return FileKind::QSpec;
  if (text.find("apiversion") != std::string_view::npos ||
      text.find("QuantizationModifier") != std::string_view::npos ||
      text.find("GPTQModifier") != std::string_view::npos)
    return detectFileKind("stdin.yaml", text);
  if (!word.empty() && (after == ':' || after == '{'))
    return detectFileKind("stdin.cfg", text);
  return FileKind::Unknown;
}

std::string vendorTargetKind(const std::string &path, std::string_view text) {
  if (path.size() >= 3 && path.compare(path.size() - 3, 3, ".py") == 0)
    return "horizon"; // a QconfigSetter file: Horizon's reader reads it
  switch (detectFileKind(path, text)) {
  case FileKind::MsModelSlim:
    return "msmodelslim";
  case FileKind::Amct:
    return "amct";
  case FileKind::Hmct:
    return "hmct";
  case FileKind::CompressedTensors:
    return "llm-compressor";
  default:
    return "";
  }
}

} // namespace qspec::vendors
