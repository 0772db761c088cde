// Command-line conventions shared by qcc, qlint and qtune: the --version line and --color.
#pragma once

#include <string>

namespace qspec {

// "qcc (qspec) 0.1.0 (git abc1234)": the release and the git revision the tree was configured
// from ("unknown" outside a git checkout).
std::string versionLine(const char *tool);

// --color=WHEN: "always", "never", or "auto" (colour when `fd` is a terminal and the NO_COLOR
// environment variable is unset or empty, as https://no-color.org asks).
bool useColor(const std::string &when, int fd);

// Colours every diagnostic this process renders (renderDiagnosticText, printText), whatever the
// caller asked: for a tool whose diagnostics are printed inside a library (qtune), set once from
// --color before any output. Off unless set.
void setColorAllDiagnostics(bool on);
bool colorAllDiagnostics();

} // namespace qspec
