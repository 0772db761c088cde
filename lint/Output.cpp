// Output formats: text (clang style), JSON, SARIF 2.1.0 (GitHub code scanning) and GitHub
// workflow annotations; and --statistics.
#include "lint/Lint.h"

#include <nlohmann/json.hpp>

#include <filesystem>
#include <map>
#include <ostream>

// Where the rule docs (docs/lint/) are published: the SARIF informationUri and each rule's
// helpUri. CMake's QSPEC_DOCS_URL; by default the copy the .deb installs.
#ifndef QSPEC_DOCS_URL
#define QSPEC_DOCS_URL "file:///usr/share/doc/qspec/lint/"
#endif

namespace qspec::lint {

namespace {

constexpr const char *kDocsUrl = QSPEC_DOCS_URL;
#undef QSPEC_DOCS_URL

bool isError(Severity s) { return s == Severity::Error || s == Severity::Fatal; }

const char *sarifLevel(Severity s) {
  return isError(s) ? "error" : s == Severity::Warning ? "warning" : "note";
}

std::string trim(std::string_view s) {
  size_t b = s.find_first_not_of(" \t\r");
  if (b == std::string_view::npos)
    return "";
  size_t e = s.find_last_not_of(" \t\r");
  return std::string(s.substr(b, e - b + 1));
}

std::string docPath(const RuleInfo &r) {
  std::string id = r.id;
  std::string cat = r.category;
  return "docs/lint/" + cat + "/" + id.substr(cat.size() + 1) + ".md";
}

nlohmann::json location(const SourceManager &sm, const Diagnostic &d) {
  nlohmann::json j;
  if (d.range.file == 0)
    return j;
  j["file"] = sm.path(d.range.file);
  j["line"] = d.range.begin.line;
  j["column"] = d.range.begin.col;
  j["endLine"] = d.range.end.line;
  j["endColumn"] = d.range.end.col;
  return j;
}

// GitHub workflow-command escaping: data escapes % CR LF; properties also ':' and ','. Other
// control bytes, escape sequences and invalid UTF-8 (e.g. a NUL quoted from a YAML parser's
// message) become \xNN first, as on a terminal: the runner's log viewer interprets them.
std::string ghData(const std::string &raw) {
  std::string s = sanitizeForTerminal(raw);
  std::string o;
  for (char c : s) {
    if (c == '%')
      o += "%25";
    else if (c == '\r')
      o += "%0D";
    else if (c == '\n')
      o += "%0A";
    else
      o += c;
  }
  return o;
}
std::string ghProp(const std::string &s) {
  std::string o;
  for (char c : ghData(s)) {
    if (c == ':')
      o += "%3A";
    else if (c == ',')
      o += "%2C";
    else
      o += c;
  }
  return o;
}

// RFC 3986 percent-encoding of a path: unreserved characters and '/' stay, every other byte is
// %XX (a space, '#', '?', '%', non-ASCII).
std::string percentEncode(const std::string &path) {
  static const char *hex = "0123456789ABCDEF";
  std::string out;
  for (unsigned char c : path) {
    if (isalnum(c) || c == '-' || c == '.' || c == '_' || c == '~' || c == '/') {
      out += static_cast<char>(c);
    } else {
      out += '%';
      out += hex[c >> 4];
      out += hex[c & 15];
    }
  }
  return out;
}

// SARIF wants URIs relative to the repository root: paths under the working directory are made
// relative to it (run qlint from the root; `uriBaseId` %SRCROOT%), others become file:// URIs;
// '/' separators, percent-encoded.
struct SarifUri {
  std::string uri;
  bool relative = true;
};
SarifUri sarifUri(const std::string &path) {
  std::error_code ec;
  std::filesystem::path p(path);
  std::filesystem::path cwd = std::filesystem::current_path(ec);
  if (p.is_absolute() && !ec) {
    std::filesystem::path rel = p.lexically_relative(cwd);
    if (!rel.empty() && rel.begin()->string() != "..")
      p = rel;
  }
  p = p.lexically_normal();
  if (!p.is_absolute() && !p.empty() && p.begin()->string() == ".." && !ec)
    p = (cwd / p).lexically_normal();
  if (p.is_absolute())
    return {"file://" + percentEncode(p.generic_string()), false};
  std::string uri = p.generic_string();
  if (uri.rfind("./", 0) == 0)
    uri = uri.substr(2);
  return {percentEncode(uri), true};
}

nlohmann::json artifactLocation(const std::string &path) {
  SarifUri u = sarifUri(path);
  nlohmann::json j = {{"uri", u.uri}};
  if (u.relative)
    j["uriBaseId"] = "%SRCROOT%";
  return j;
}

// The file a finding is in: an included file's own path, not the including file's (a finding
// without a place belongs to the file linted).
std::string findingPath(const FileResult &r, const Diagnostic &d) {
  return d.range.file && r.sm ? r.sm->path(d.range.file) : r.path;
}

// SARIF `fixes` for a finding of a fixable rule: one replacement per fix-it, by byte range.
nlohmann::json sarifFixes(const FileResult &r, const Diagnostic &d) {
  nlohmann::json replacements = nlohmann::json::array();
  for (const FixIt &f : d.fixits)
    replacements.push_back({{"deletedRegion",
                             {{"byteOffset", f.range.begin.offset},
                              {"byteLength", f.range.end.offset - f.range.begin.offset}}},
                            {"insertedContent", {{"text", f.text}}}});
  nlohmann::json change = {{"artifactLocation", artifactLocation(findingPath(r, d))},
                           {"replacements", replacements}};
  return nlohmann::json::array({{{"description", {{"text", "qlint --fix: " + d.message}}},
                                 {"artifactChanges", nlohmann::json::array({change})}}});
}

} // namespace

std::string lineHash(const std::string &ruleId, std::string_view lineText) {
  // FNV-1a 64 over the rule ID and the line without surrounding blanks: moving the line keeps
  // the hash, editing it changes it.
  uint64_t h = 1469598103934665603ull;
  auto mix = [&](std::string_view s) {
    for (unsigned char c : s) {
      h ^= c;
      h *= 1099511628211ull;
    }
  };
  mix(ruleId);
  mix(std::string_view("\0", 1));
  mix(trim(lineText));
  static const char *hex = "0123456789abcdef";
  std::string out;
  for (int i = 15; i >= 0; --i)
    out += hex[(h >> (i * 4)) & 15];
  return out;
}

std::vector<std::string> fingerprints(const FileResult &r) {
  std::vector<std::string> out;
  std::map<std::string, unsigned> seen;
  for (const Diagnostic &d : r.findings) {
    std::string hash = lineHash(d.code, r.sm->line(d.range.file, d.range.begin.line));
    out.push_back(hash + ":" + std::to_string(++seen[hash]));
  }
  return out;
}

void printText(std::ostream &os, const std::vector<FileResult> &results, bool color) {
  unsigned errors = 0, warnings = 0;
  for (const FileResult &r : results)
    for (const Diagnostic &d : r.findings) {
      renderDiagnosticText(os, *r.sm, d, color);
      if (isError(d.severity))
        ++errors;
      else if (d.severity == Severity::Warning)
        ++warnings;
    }
  if (errors || warnings) {
    if (warnings)
      os << warnings << (warnings == 1 ? " warning" : " warnings");
    if (warnings && errors)
      os << " and ";
    if (errors)
      os << errors << (errors == 1 ? " error" : " errors");
    os << " generated.\n";
  }
}

void printJson(std::ostream &os, const std::vector<FileResult> &results) {
  nlohmann::json files = nlohmann::json::array();
  unsigned errors = 0, warnings = 0;
  for (const FileResult &r : results) {
    if (r.skipped)
      continue;
    nlohmann::json findings = nlohmann::json::array();
    for (const Diagnostic &d : r.findings) {
      nlohmann::json j;
      j["rule"] = d.code;
      j["severity"] = severityName(d.severity);
      j["message"] = d.message;
      j["location"] = location(*r.sm, d);
      nlohmann::json notes = nlohmann::json::array();
      for (const Diagnostic &n : d.notes)
        notes.push_back({{"message", n.message}, {"location", location(*r.sm, n)}});
      j["notes"] = notes;
      nlohmann::json fixes = nlohmann::json::array();
      for (const FixIt &f : d.fixits)
        fixes.push_back({{"offset", f.range.begin.offset},
                         {"length", f.range.end.offset - f.range.begin.offset},
                         {"line", f.range.begin.line},
                         {"column", f.range.begin.col},
                         {"text", f.text}});
      j["fixes"] = fixes;
      findings.push_back(j);
      errors += isError(d.severity);
      warnings += d.severity == Severity::Warning;
    }
    files.push_back({{"path", r.path}, {"kind", fileKindName(r.kind)}, {"findings", findings}});
  }
  nlohmann::json out = {
      {"version", 1}, {"files", files}, {"errors", errors}, {"warnings", warnings}};
  os << out.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) << '\n';
}

void printSarif(std::ostream &os, const std::vector<FileResult> &results) {
  nlohmann::json rules = nlohmann::json::array();
  std::map<std::string, size_t> ruleIndex;
  for (const RuleInfo &r : allRules()) {
    ruleIndex[r.id] = rules.size();
    std::string help = std::string(r.summary) + ". See " + docPath(r) +
                       " for what it checks, why, an example and the fix.";
    rules.push_back({{"id", r.id},
                     {"helpUri", std::string(kDocsUrl) + docPath(r).substr(10)},
                     {"name", r.id},
                     {"shortDescription", {{"text", r.summary}}},
                     {"fullDescription",
                      {{"text", std::string(r.summary) + " (category " + r.category + ")."}}},
                     {"help", {{"text", help}, {"markdown", help}}},
                     {"defaultConfiguration", {{"level", sarifLevel(r.severity)}}},
                     {"properties", {{"tags", {r.category}}, {"precision", "high"}}}});
    // The IDs this rule was known by (lint/DeprecatedRules.def).
    if (std::vector<std::string> old = deprecatedIdsOf(r); !old.empty())
      rules.back()["deprecatedIds"] = old;
  }
  nlohmann::json res = nlohmann::json::array();
  for (const FileResult &r : results) {
    std::vector<std::string> prints = fingerprints(r);
    for (size_t k = 0; k < r.findings.size(); ++k) {
      const Diagnostic &d = r.findings[k];
      nlohmann::json region = {{"startLine", d.range.begin.line ? d.range.begin.line : 1},
                               {"startColumn", d.range.begin.col ? d.range.begin.col : 1}};
      if (d.range.end.line) {
        region["endLine"] = d.range.end.line;
        region["endColumn"] = d.range.end.col;
      }
      nlohmann::json result = {
          {"ruleId", d.code},
          {"level", sarifLevel(d.severity)},
          {"message", {{"text", d.message}}},
          {"locations",
           {{{"physicalLocation",
              {{"artifactLocation", artifactLocation(findingPath(r, d))}, {"region", region}}}}}},
          {"partialFingerprints", {{"primaryLocationLineHash", prints[k]}}}};
      auto it = ruleIndex.find(d.code);
      if (it != ruleIndex.end())
        result["ruleIndex"] = it->second;
      const RuleInfo *info = findRule(d.code);
      if (info && info->fixable && !d.fixits.empty())
        result["fixes"] = sarifFixes(r, d);
      if (!d.notes.empty()) {
        nlohmann::json related = nlohmann::json::array();
        unsigned id = 0;
        for (const Diagnostic &n : d.notes) {
          nlohmann::json rl = {{"id", id++}, {"message", {{"text", n.message}}}};
          if (n.range.file)
            rl["physicalLocation"] = {
                {"artifactLocation", artifactLocation(r.sm->path(n.range.file))},
                {"region",
                 {{"startLine", n.range.begin.line}, {"startColumn", n.range.begin.col}}}};
          related.push_back(rl);
        }
        result["relatedLocations"] = related;
      }
      res.push_back(result);
    }
  }
  nlohmann::json log = {{"$schema", "https://json.schemastore.org/sarif-2.1.0.json"},
                        {"version", "2.1.0"},
                        {"runs",
                         {{{"tool",
                            {{"driver",
                              {{"name", "qlint"},
                               {"semanticVersion", "0.1.0"},
                               {"informationUri", std::string(kDocsUrl) + "README.md"},
                               {"rules", rules}}}}},
                           {"automationDetails", {{"id", "qlint/"}}},
                           {"results", res}}}}};
  os << log.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) << '\n';
}

void printGithub(std::ostream &os, const std::vector<FileResult> &results) {
  for (const FileResult &r : results)
    for (const Diagnostic &d : r.findings) {
      const char *cmd = isError(d.severity)               ? "error"
                        : d.severity == Severity::Warning ? "warning"
                                                          : "notice";
      os << "::" << cmd << " file=" << ghProp(findingPath(r, d)) << ",line=" << d.range.begin.line
         << ",col=" << d.range.begin.col;
      if (d.range.end.line)
        os << ",endLine=" << d.range.end.line << ",endColumn=" << d.range.end.col;
      os << ",title=" << ghProp(d.code) << "::" << ghData(d.message) << "\n";
    }
}

void printStatistics(std::ostream &os, const std::vector<FileResult> &results) {
  std::map<std::string, unsigned> counts;
  for (const FileResult &r : results)
    for (const Diagnostic &d : r.findings)
      ++counts[d.code];
  for (const auto &[rule, n] : counts) {
    const RuleInfo *info = findRule(rule);
    os << n << "\t" << rule << "\t" << (info && info->fixable ? "[fixable] " : "")
       << (info ? info->summary : "") << "\n";
  }
}

} // namespace qspec::lint
