// qspec.import_file: `qcc import` (driver::importSpec) without printing or writing: the spec's
// text, the --roundtrip rows and the diagnostics, in an object Python keeps.
#include "driver/python/Bindings.h"
#include "driver/qcc/Import.h"

#include <pybind11/stl.h>

#include <memory>

namespace py = pybind11;

namespace qspec::python {
namespace {

// One import's result; the diagnostics point into its own source manager.
struct ImportState {
  SourceManager sm;
  DiagnosticEngine diags{sm};
  std::string text, rows;
};

std::shared_ptr<ImportState> importFiles(const driver::ImportOptions &o) {
  auto st = std::make_shared<ImportState>();
  py::gil_scoped_release unlocked;
  st->text = driver::importSpec(o, st->diags, st->rows);
  return st;
}

} // namespace

void bindImport(py::module_ &m) {
  py::class_<ImportState, std::shared_ptr<ImportState>>(m, "_Import")
      .def_property_readonly("text", [](const ImportState &s) { return py::bytes(s.text); })
      .def_property_readonly("roundtrip", [](const ImportState &s) { return s.rows; })
      .def_property_readonly("has_errors", [](const ImportState &s) { return s.diags.hasErrors(); })
      .def_property_readonly("diagnostics",
                             [](const ImportState &s) { return convertDiagnostics(s.diags, s.sm); })
      .def_property_readonly("diagnostics_text",
                             [](const ImportState &s) { return diagnosticsText(s.diags); });
  m.def(
      "_import",
      [](std::vector<std::string> files, const std::string &inventory, const std::string &kind,
         const std::string &output, bool roundtrip) {
        driver::ImportOptions o;
        o.files = std::move(files);
        o.inventory = inventory;
        o.kind = kind;
        o.output = output;
        o.roundtrip = roundtrip;
        return importFiles(o);
      },
      py::arg("files"), py::arg("inventory"), py::arg("kind"), py::arg("output"),
      py::arg("roundtrip"));
}

} // namespace qspec::python
