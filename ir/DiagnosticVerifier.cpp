#include "ir/DiagnosticVerifier.h"
#include "ir/Regex.h"

#include <ostream>

namespace qspec {

namespace {
struct Expectation {
  FileID file;
  uint32_t line;
  Severity severity;
  std::string text;
  bool seen = false;
};

bool isSpecFile(const std::string &path) {
  return path.size() > 6 && path.compare(path.size() - 6, 6, ".qspec") == 0;
}
} // namespace

bool verifyDiagnostics(const DiagnosticEngine &diags, const SourceManager &sm, std::ostream &os) {
  std::vector<Expectation> expected;
  static const ir::Regex re(
      R"(expected-(error|warning|note|remark)(@([+-]?)(\d+))?\s*\{\{(.*?)\}\})");
  for (FileID f = 1; !sm.path(f).empty(); ++f) {
    if (!sm.hasText(f) || !isSpecFile(sm.path(f)))
      continue;
    const std::string &text = sm.text(f);
    uint32_t line = 1;
    size_t start = 0;
    while (start <= text.size()) {
      size_t end = text.find('\n', start);
      if (end == std::string::npos)
        end = text.size();
      for (const ir::Regex::Match &m :
           re.findAll(std::string_view(text).substr(start, end - start))) {
        Expectation e{f, line, Severity::Error, m.groups[5]};
        const std::string &sev = m.groups[1];
        e.severity = sev == "warning"  ? Severity::Warning
                     : sev == "note"   ? Severity::Note
                     : sev == "remark" ? Severity::Remark
                                       : Severity::Error;
        if (m.matched[2]) {
          long n = std::stol(m.groups[4]);
          e.line = m.groups[3] == "+"   ? line + static_cast<uint32_t>(n)
                   : m.groups[3] == "-" ? line - static_cast<uint32_t>(n)
                                        : static_cast<uint32_t>(n);
        }
        expected.push_back(e);
      }
      start = end + 1;
      ++line;
    }
  }

  bool ok = true;
  auto match = [&](const Diagnostic &d) {
    Severity sev = d.severity == Severity::Fatal ? Severity::Error : d.severity;
    for (Expectation &e : expected)
      if (!e.seen && e.file == d.range.file && e.line == d.range.begin.line && e.severity == sev &&
          d.message.find(e.text) != std::string::npos) {
        e.seen = true;
        return;
      }
    for (Expectation &e : expected) // a second diagnostic may satisfy an already-seen line
      if (e.file == d.range.file && e.line == d.range.begin.line && e.severity == sev &&
          d.message.find(e.text) != std::string::npos && e.seen)
        return;
    if (sev == Severity::Note || sev == Severity::Remark)
      return; // notes and remarks are checked only where expected
    ok = false;
    os << "error: unexpected " << severityName(d.severity) << " at "
       << (d.range.file ? sm.path(d.range.file) + ":" + std::to_string(d.range.begin.line)
                        : "<no location>")
       << ": " << d.message << '\n';
  };
  for (const Diagnostic &d : diags.diagnostics()) {
    match(d);
    for (const Diagnostic &n : d.notes)
      match(n);
  }
  for (const Expectation &e : expected)
    if (!e.seen) {
      ok = false;
      os << "error: expected " << severityName(e.severity) << " not produced at " << sm.path(e.file)
         << ":" << e.line << ": " << e.text << '\n';
    }
  if (ok)
    os << "verify: " << expected.size() << " expected diagnostics matched\n";
  return ok;
}

} // namespace qspec
