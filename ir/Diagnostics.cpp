#include "ir/Diagnostics.h"

#include "ir/BoundedInput.h"
#include "ir/Cli.h"
#include "ir/EditDistance.h"
#include "support/Utf8.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <map>
#include <ostream>
#include <sstream>

namespace qspec {

static const DiagInfo kDiagTable[] = {
#define DIAG(ID, SEV, FMT) {#ID, Severity::SEV, FMT},
#include "ir/DiagnosticKinds.def"
#undef DIAG
};

const DiagInfo &diagInfo(DiagID id) { return kDiagTable[static_cast<unsigned>(id)]; }

namespace {
struct GroupRow {
  DiagID id;
  const char *group;
};
const GroupRow kGroupTable[] = {
#define DIAG_GROUP(ID, GROUP) {DiagID::ID, GROUP},
#include "ir/DiagnosticGroups.def"
#undef DIAG_GROUP
};
} // namespace

std::vector<std::string> diagGroups(const std::string &id) {
  std::vector<std::string> out;
  for (const GroupRow &row : kGroupTable)
    if (id == diagInfo(row.id).id)
      out.push_back(row.group);
  return out;
}

std::vector<std::pair<std::string, std::vector<std::string>>> allWarningGroups() {
  std::map<std::string, std::vector<std::string>> byGroup;
  for (DiagID id : allDiagIDs())
    for (const GroupRow &row : kGroupTable)
      if (row.id == id)
        byGroup[row.group].push_back(diagInfo(id).id);
  return {byGroup.begin(), byGroup.end()};
}

std::vector<std::string> diagGroupMembers(const std::string &name) {
  std::vector<std::string> ids;
  for (DiagID id : allDiagIDs()) {
    const DiagInfo &info = diagInfo(id);
    if (info.severity != Severity::Warning)
      continue;
    bool member = name == info.id;
    for (const GroupRow &row : kGroupTable)
      member = member || (row.id == id && name == row.group);
    if (member)
      ids.push_back(info.id);
  }
  return ids;
}

std::string closestWarningGroup(const std::string &name) {
  std::vector<std::string> names;
  for (const GroupRow &row : kGroupTable)
    names.push_back(row.group);
  for (DiagID id : allDiagIDs())
    if (diagInfo(id).severity == Severity::Warning)
      names.push_back(diagInfo(id).id);
  std::string best;
  size_t bestDist = std::max<size_t>(2, name.size() / 3) + 1;
  for (const std::string &n : names) {
    size_t d = editDistanceAtMost(name, n, bestDist - 1);
    if (d < bestDist) {
      best = n;
      bestDist = d;
    }
  }
  return best;
}

bool DiagnosticEngine::applyWarningOption(const std::string &opt, std::string &error) {
  error.clear();
  auto group = [&](const std::string &g, auto set) {
    if (diagGroupMembers(g).empty()) {
      std::string best = closestWarningGroup(g);
      error = "unknown warning group '" + sanitizeForTerminal(g) + "'" +
              (best.empty() ? "" : "; did you mean '" + best + "'?") +
              " (see --list-warning-groups)";
      return false;
    }
    set(g);
    return true;
  };
  if (opt == "-w")
    noWarnings_ = true;
  else if (opt == "-Werror")
    werror_ = true;
  else if (opt == "-Wno-error")
    werror_ = false;
  else if (opt.rfind("-Werror=", 0) == 0)
    return group(opt.substr(8), [&](const std::string &g) {
      setGroupEnabled(g, true);
      setGroupAsError(g, true);
    });
  else if (opt.rfind("-Wno-error=", 0) == 0)
    return group(opt.substr(11), [&](const std::string &g) { setGroupAsError(g, false); });
  else if (opt.rfind("-Wno-", 0) == 0)
    return group(opt.substr(5), [&](const std::string &g) { setGroupEnabled(g, false); });
  else if (opt.rfind("-W", 0) == 0 && opt.size() > 2)
    return group(opt.substr(2), [&](const std::string &g) { setGroupEnabled(g, true); });
  else
    return false;
  return true;
}

void DiagnosticEngine::copyWarningPolicy(const DiagnosticEngine &from) {
  werror_ = from.werror_;
  noWarnings_ = from.noWarnings_;
  groups_ = from.groups_;
  seq_ = from.seq_;
}

Severity DiagnosticEngine::warningSeverity(const std::string &id) const {
  if (noWarnings_)
    return Severity::Ignored;
  Setting enabled{true, 0}, error{werror_, 0};
  std::vector<std::string> keys = diagGroups(id);
  keys.push_back(id); // a warning ID is a group of its own
  for (const std::string &g : keys) {
    auto it = groups_.find(g);
    if (it == groups_.end())
      continue;
    if (it->second.enabled.seq > enabled.seq)
      enabled = it->second.enabled;
    if (it->second.error.seq > error.seq)
      error = it->second.error;
  }
  if (!enabled.on)
    return Severity::Ignored;
  return error.on ? Severity::Error : Severity::Warning;
}

std::vector<DiagID> allDiagIDs() {
  std::vector<DiagID> ids;
  for (unsigned i = 0; i < static_cast<unsigned>(DiagID::NumDiagIDs); ++i)
    ids.push_back(static_cast<DiagID>(i));
  return ids;
}

const char *severityName(Severity s) {
  switch (s) {
  case Severity::Ignored:
    return "ignored";
  case Severity::Note:
    return "note";
  case Severity::Remark:
    return "remark";
  case Severity::Warning:
    return "warning";
  case Severity::Error:
    return "error";
  case Severity::Fatal:
    return "fatal error";
  }
  return "error";
}

std::string formatDiag(const char *format, const std::vector<std::string> &args) {
  std::string out;
  for (const char *p = format; *p; ++p) {
    if (*p == '%' && p[1] >= '0' && p[1] <= '9') {
      size_t idx = static_cast<size_t>(p[1] - '0');
      if (idx < args.size())
        out += args[idx];
      ++p;
    } else {
      out += *p;
    }
  }
  return out;
}

Diagnostic &DiagnosticEngine::report(DiagID id, SourceRange range, std::vector<std::string> args) {
  const DiagInfo &info = diagInfo(id);
  Diagnostic d;
  d.code = info.id;
  d.severity = info.severity;
  d.range = range;
  d.message = formatDiag(info.format, args);
  return report(std::move(d));
}

Diagnostic &DiagnosticEngine::report(Diagnostic d) {
  if (d.severity == Severity::Warning)
    d.severity = groups_.empty() && !noWarnings_ ? (werror_ ? Severity::Error : Severity::Warning)
                                                 : warningSeverity(d.code);
  if (d.severity == Severity::Ignored) {
    dropped_ = std::move(d);
    return dropped_;
  }
  bool isError = d.severity == Severity::Error || d.severity == Severity::Fatal;
  if (limitReached_) {
    if (isError)
      ++errors_;
    dropped_ = std::move(d);
    return dropped_;
  }
  if (isError) {
    ++errors_;
    if (errorLimit_ && errors_ > errorLimit_) {
      limitReached_ = true;
      Diagnostic stop;
      stop.code = diagInfo(DiagID::err_too_many_errors).id;
      stop.severity = Severity::Fatal;
      stop.message = diagInfo(DiagID::err_too_many_errors).format;
      diags_.push_back(std::move(stop));
      dropped_ = std::move(d);
      return dropped_;
    }
  } else if (d.severity == Severity::Warning) {
    ++warnings_;
  }
  diags_.push_back(std::move(d));
  return diags_.back();
}

Diagnostic &DiagnosticEngine::note(Diagnostic &parent, DiagID id, SourceRange range,
                                   std::vector<std::string> args) {
  const DiagInfo &info = diagInfo(id);
  Diagnostic n;
  n.code = info.id;
  n.severity = Severity::Note;
  n.range = range;
  n.message = formatDiag(info.format, args);
  parent.notes.push_back(std::move(n));
  return parent.notes.back();
}

// The length of the valid UTF-8 sequence at `s[i]`, or 0.
static size_t utf8Length(std::string_view s, size_t i) {
  uint32_t cp;
  return support::utf8::decode(s, i, cp);
}

std::string sanitizeForTerminal(std::string_view text) {
  static const char *hex = "0123456789abcdef";
  std::string out;
  out.reserve(text.size());
  for (size_t i = 0; i < text.size();) {
    unsigned char c = static_cast<unsigned char>(text[i]);
    size_t len = utf8Length(text, i);
    bool control = c < 0x20 || c == 0x7f;
    if (c == '\t') {
      out += ' ';
      ++i;
    } else if (len == 0 || control || (len > 1 && bounded::invisibleControlAt(text, i) == len)) {
      // Also C1 controls (escape sequences on some terminals) and the characters that reorder
      // or break the displayed line (a name holding U+202E could show as another name: Trojan
      // Source, CVE-2021-42574).
      size_t n = len == 0 ? 1 : len;
      for (size_t k = 0; k < n; ++k) {
        unsigned char b = static_cast<unsigned char>(text[i + k]);
        out += "\\x";
        out += hex[b >> 4];
        out += hex[b & 15];
      }
      i += n;
    } else {
      out.append(text.substr(i, len));
      i += len;
    }
  }
  return out;
}

// ANSI colours as clang uses them: bold location and message, red errors, magenta warnings,
// cyan notes, a green caret line.
struct Palette {
  const char *bold = "", *reset = "", *caret = "";
  const char *severity(Severity s) const { return on ? severityColor(s) : ""; }
  bool on = false;
  static const char *severityColor(Severity s) {
    switch (s) {
    case Severity::Error:
    case Severity::Fatal:
      return "\033[1;31m";
    case Severity::Warning:
      return "\033[1;35m";
    case Severity::Note:
      return "\033[1;36m";
    default:
      return "\033[1m";
    }
  }
};

static Palette palette(bool color) {
  Palette p;
  if (color || colorAllDiagnostics()) {
    p.on = true;
    p.bold = "\033[1m";
    p.reset = "\033[0m";
    p.caret = "\033[1;32m";
  }
  return p;
}

static void renderOne(std::ostream &os, const SourceManager &sm, const Diagnostic &d,
                      const Palette &c) {
  os << c.bold;
  if (d.range.file != 0) {
    os << sanitizeForTerminal(sm.path(d.range.file));
    if (d.range.begin.line)
      os << ':' << d.range.begin.line << ':' << d.range.begin.col;
    os << ": ";
  }
  os << c.severity(d.severity) << severityName(d.severity) << ": " << c.reset << c.bold
     << sanitizeForTerminal(d.message);
  if (!d.code.empty() && d.severity != Severity::Note)
    os << " [" << d.code << ']';
  os << c.reset << '\n';
  if (!d.range.valid() || !sm.hasText(d.range.file))
    return;
  std::string_view line = sm.line(d.range.file, d.range.begin.line);
  if (line.empty() && d.range.begin.col > 1)
    return;
  // Long lines are cut around the caret so a 1 MB one-line file does not flood the terminal.
  const size_t kMax = 200;
  size_t col0 = d.range.begin.col ? d.range.begin.col - 1 : 0;
  size_t start = 0;
  if (line.size() > kMax && col0 > kMax / 2)
    start = std::min(col0 - kMax / 2, line.size());
  std::string_view shown = line.substr(start, kMax);
  // Keep the caret under the right byte: sanitize character by character and track widths.
  std::string text, marks;
  size_t caretAt = col0 >= start ? col0 - start : 0;
  size_t endCol = d.range.end.line == d.range.begin.line && d.range.end.col > d.range.begin.col
                      ? d.range.end.col - 1 - start
                      : caretAt + 1;
  for (size_t i = 0; i < shown.size();) {
    size_t len = utf8Length(shown, i);
    std::string piece = sanitizeForTerminal(shown.substr(i, len ? len : 1));
    // An escaped character is as wide as its escape; any other multi-byte character one column.
    size_t width = len > 1 && piece.size() == len ? 1 : piece.size();
    char m = (i == caretAt) ? '^' : (i > caretAt && i < endCol) ? '~' : ' ';
    text += piece;
    marks += std::string(1, m);
    if (width > 1)
      marks += std::string(width - 1, m == '^' ? '~' : m);
    i += len ? len : 1;
  }
  if (caretAt >= shown.size())
    marks += std::string(caretAt - std::min(caretAt, shown.size()), ' ') + "^";
  while (!marks.empty() && marks.back() == ' ')
    marks.pop_back();
  os << (start ? "..." : "") << text << '\n'
     << (start ? "   " : "") << c.caret << marks << c.reset << '\n';
  for (const FixIt &f : d.fixits)
    if (f.range.begin.line == d.range.begin.line && !f.text.empty())
      os << std::string(f.range.begin.col
                            ? f.range.begin.col - 1 - std::min<size_t>(start, f.range.begin.col - 1)
                            : 0,
                        ' ')
         << sanitizeForTerminal(f.text) << '\n';
}

void renderDiagnosticText(std::ostream &os, const SourceManager &sm, const Diagnostic &d,
                          bool color) {
  Palette c = palette(color);
  // Rendered whole, then written at once: std::cerr is unbuffered, and each piece would be a
  // write of its own (89 warnings of a spec were 1,520 write calls).
  std::ostringstream text;
  renderOne(text, sm, d, c);
  for (const Diagnostic &n : d.notes)
    renderOne(text, sm, n, c);
  os << text.str();
}

void DiagnosticEngine::printText(std::ostream &os, bool color) const {
  for (const Diagnostic &d : diags_)
    renderDiagnosticText(os, sm_, d, color);
  if (errors_ || warnings_) {
    if (warnings_)
      os << warnings_ << (warnings_ == 1 ? " warning" : " warnings");
    if (warnings_ && errors_)
      os << " and ";
    if (errors_)
      os << errors_ << (errors_ == 1 ? " error" : " errors");
    os << " generated.\n";
  }
}

static nlohmann::json rangeJSON(const SourceManager &sm, const SourceRange &r) {
  nlohmann::json j = nlohmann::json::object();
  if (r.file == 0)
    return j;
  j["file"] = sm.path(r.file);
  j["line"] = r.begin.line;
  j["column"] = r.begin.col;
  j["endLine"] = r.end.line;
  j["endColumn"] = r.end.col;
  return j;
}

static nlohmann::json diagJSON(const SourceManager &sm, const Diagnostic &d) {
  nlohmann::json j;
  j["id"] = d.code;
  j["severity"] = severityName(d.severity);
  j["message"] = d.message;
  j["location"] = rangeJSON(sm, d.range);
  nlohmann::json notes = nlohmann::json::array();
  for (const Diagnostic &n : d.notes)
    notes.push_back(diagJSON(sm, n));
  j["notes"] = notes;
  nlohmann::json fixes = nlohmann::json::array();
  for (const FixIt &f : d.fixits)
    fixes.push_back({{"location", rangeJSON(sm, f.range)}, {"text", f.text}});
  j["fixits"] = fixes;
  return j;
}

void DiagnosticEngine::printJSON(std::ostream &os) const {
  nlohmann::json all = nlohmann::json::array();
  for (const Diagnostic &d : diags_)
    all.push_back(diagJSON(sm_, d));
  nlohmann::json out = {{"diagnostics", all}, {"errors", errors_}, {"warnings", warnings_}};
  os << out.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) << '\n';
}

} // namespace qspec
