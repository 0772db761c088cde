// The parts of qspec._core (driver/python/): Module.cpp binds compile, the inventory and format;
// Lint.cpp binds qlint's run (qspec.lint); Import.cpp binds `qcc import` (qspec.import_file).
#pragma once

#include "ir/Diagnostics.h"

#include <pybind11/pybind11.h>

#include <cstdint>
#include <string>
#include <vector>

namespace qspec::python {

// One diagnostic as Python sees it (qspec.Diagnostic): where, which ID, how severe, what, and its
// notes.
struct PyDiagnostic {
  std::string file;
  uint32_t line = 0, column = 0;
  uint32_t endLine = 0, endColumn = 0;
  std::string id, severity, message;
  std::vector<PyDiagnostic> notes;
  std::string text; // as the tools print it (without colour)
};

PyDiagnostic convertDiagnostic(const Diagnostic &d, const SourceManager &sm);
std::vector<PyDiagnostic> convertDiagnostics(const DiagnosticEngine &diags,
                                             const SourceManager &sm);
// The diagnostics as the tools print them on standard error.
std::string diagnosticsText(const DiagnosticEngine &diags);

void bindLint(pybind11::module_ &m);
void bindImport(pybind11::module_ &m);

} // namespace qspec::python
