// The diagnostic engine: every message a tool prints about its input goes through here.
//
// Diagnostics are declared in DiagnosticKinds.def (one table, stable IDs); a message is built
// from its format string with %0..%9 replaced by arguments. Notes attach to their parent and are
// printed right after it at their own location. Rendering is clang style or JSON.
#pragma once

#include "ir/Location.h"

#include <deque>
#include <functional>
#include <initializer_list>
#include <iosfwd>
#include <map>
#include <string>
#include <vector>

namespace qspec {

enum class Severity { Ignored, Note, Remark, Warning, Error, Fatal };
const char *severityName(Severity s);

enum class DiagID : unsigned {
#define DIAG(ID, SEV, FMT) ID,
#include "ir/DiagnosticKinds.def"
#undef DIAG
  NumDiagIDs
};

struct DiagInfo {
  const char *id;     // stable ID printed as [id], e.g. "err_pattern_matches_nothing"
  Severity severity;  // default severity
  const char *format; // lowercase, no trailing period, %0..%9 for arguments
};
const DiagInfo &diagInfo(DiagID id);
// All IDs in table order (for docs and tests).
std::vector<DiagID> allDiagIDs();
// The warning groups (ir/DiagnosticGroups.def) the diagnostic with this printed ID belongs to.
std::vector<std::string> diagGroups(const std::string &id);
// Every warning group, sorted, each with its IDs in table order.
std::vector<std::pair<std::string, std::vector<std::string>>> allWarningGroups();
// The warning IDs `name` covers: a group's members, or a warning ID itself (each warning is also
// a group of its own); empty if `name` is neither.
std::vector<std::string> diagGroupMembers(const std::string &name);
// The group or warning ID within a few edits of `name` ("" if none), for a did-you-mean.
std::string closestWarningGroup(const std::string &name);

// A replacement of bytes [range.begin.offset, range.end.offset) by `text`.
struct FixIt {
  SourceRange range;
  std::string text;
};

struct Diagnostic {
  std::string code; // printed in brackets: a DiagID name or a lint rule id
  Severity severity = Severity::Error;
  SourceRange range;
  std::string message;
  std::vector<Diagnostic> notes;
  std::vector<FixIt> fixits;
};

// Replaces %0..%9 in `format` by `args`.
std::string formatDiag(const char *format, const std::vector<std::string> &args);

class DiagnosticEngine {
public:
  explicit DiagnosticEngine(SourceManager &sm) : sm_(sm) {}

  // Reports `id` at `range`. The returned reference stays valid for the engine's lifetime and
  // may receive notes and fix-its.
  Diagnostic &report(DiagID id, SourceRange range, std::vector<std::string> args = {});
  // Adds a note (a DiagID of severity Note) to `parent`.
  Diagnostic &note(Diagnostic &parent, DiagID id, SourceRange range,
                   std::vector<std::string> args = {});
  // Reports an already-built diagnostic (used by qlint, whose codes are rule IDs).
  Diagnostic &report(Diagnostic d);

  void setWarningsAsErrors(bool on) { werror_ = on; }
  bool warningsAsErrors() const { return werror_; }
  // Warnings under the user's control, as clang's flags (later options win):
  //   -w (no warnings), -Werror / -Wno-error, -W<group> / -Wno-<group> (on / off),
  //   -Werror=<group> (on, as errors) / -Wno-error=<group> (back to warnings).
  // <group> may also be one warning ID. Returns false with `error` set for an unknown group, or
  // with `error` empty if `opt` is not a warning option.
  bool applyWarningOption(const std::string &opt, std::string &error);
  // Turns a group off (`allow GROUP because "..."` in a spec) or on.
  void setGroupEnabled(const std::string &group, bool on) { groups_[group].enabled = {on, ++seq_}; }
  void setGroupAsError(const std::string &group, bool on) { groups_[group].error = {on, ++seq_}; }
  // Copies -w, -Werror and the group settings (for engines whose diagnostics are replayed here).
  void copyWarningPolicy(const DiagnosticEngine &from);
  // Stops recording errors after `n` (0 = unlimited); one note says so.
  void setErrorLimit(unsigned n) { errorLimit_ = n; }

  unsigned errorCount() const { return errors_; }
  unsigned warningCount() const { return warnings_; }
  bool hasErrors() const { return errors_ > 0; }
  const std::deque<Diagnostic> &diagnostics() const { return diags_; }
  SourceManager &sourceManager() { return sm_; }

  // Sorts nothing: diagnostics print in the order reported. `color`: ANSI colours (--color).
  void printText(std::ostream &os, bool color = false) const;
  void printJSON(std::ostream &os) const;

private:
  struct Setting {
    bool on = false;
    unsigned seq = 0; // 0 = never set; a higher number was set later
  };
  struct GroupState {
    Setting enabled, error;
  };
  // The severity a warning with this ID gets under the options.
  Severity warningSeverity(const std::string &id) const;

  SourceManager &sm_;
  std::map<std::string, GroupState> groups_;
  unsigned seq_ = 0;
  bool noWarnings_ = false;
  std::deque<Diagnostic> diags_;
  Diagnostic dropped_;
  unsigned errors_ = 0, warnings_ = 0;
  unsigned errorLimit_ = 50;
  bool werror_ = false;
  bool limitReached_ = false;
};

// Renders one diagnostic (and its notes) clang style: `file:line:col: severity: message [code]`,
// the source line, a caret and `~` underline. Control characters and escape sequences are shown
// as \xNN so nothing from the input reaches the terminal raw. `color`: ANSI colours as clang's.
void renderDiagnosticText(std::ostream &os, const SourceManager &sm, const Diagnostic &d,
                          bool color = false);
// Makes text safe for a terminal: control bytes (C0, DEL, C1), invalid UTF-8 and the characters
// that reorder or break a displayed line (bidi overrides and isolates, U+2028/U+2029) become \xNN.
std::string sanitizeForTerminal(std::string_view text);

} // namespace qspec
