// qspec.lint: qlint's run (lint::lintInputs, the baseline) without its output: the findings as
// objects, the same ones `qlint --format=json` prints. Option values are checked as qlint checks
// them, with ValueError in place of its usage error.
#include "driver/python/Bindings.h"
#include "lint/Lint.h"
#include "vendors/amct/AmctRules.h"

#include <pybind11/stl.h>

#include <optional>

namespace py = pybind11;

namespace qspec::python {
namespace {

// One fix-it of a finding: the bytes it replaces and the text it puts there.
struct PyFix {
  uint32_t offset = 0, length = 0, line = 0, column = 0;
  std::string text;
};

// One finding: a diagnostic of qlint (its `id` is the rule ID), with the file it was found in.
struct PyFinding : PyDiagnostic {
  std::string path, kind; // the linted file, as qlint --format=json names it, and its kind
  std::vector<PyFix> fixes;
};

// The options of one qspec.lint call, as the Python front passes them (already typed).
struct LintRequest {
  std::vector<std::string> paths, select, ignore, werrorRules;
  bool werror = false, useConfig = true;
  std::string inventory, scores, onnx, amctHardware, amctFramework, root, against, anchor, baseline;
  unsigned jobs = 0;
};

void addSelectors(const char *what, const std::vector<std::string> &from,
                  std::vector<std::string> &to) {
  for (const std::string &s : from) {
    if (!lint::isValidSelector(s))
      throw py::value_error(std::string(what) + " '" + s +
                            "' selects no rule (see qlint --list-rules)");
    to.push_back(s);
  }
}

lint::Options lintOptions(const LintRequest &req) {
  lint::Options o;
  addSelectors("select", req.select, o.select);
  addSelectors("ignore", req.ignore, o.ignore);
  addSelectors("werror", req.werrorRules, o.werrorRules);
  o.werror = req.werror;
  o.useConfig = req.useConfig;
  o.inventory = req.inventory;
  o.scores = req.scores;
  o.onnx = req.onnx;
  o.root = req.root;
  o.against = req.against;
  o.anchor = req.anchor;
  o.jobs = req.jobs;
  if (!req.amctFramework.empty()) {
    auto fw = amct::parseFramework(req.amctFramework);
    if (!fw)
      throw py::value_error("amct_framework: unknown framework '" + req.amctFramework +
                            "' (known: " + amct::knownFrameworkList() + ")");
    o.amctFramework = amct::frameworkName(*fw);
  }
  if (!req.amctHardware.empty())
    if (std::string why = amct::checkHardwareName(req.amctHardware); !why.empty())
      throw py::value_error("amct_hardware: " + why);
  o.amctHardware = req.amctHardware;
  return o;
}

PyFinding convertFinding(const lint::FileResult &r, const Diagnostic &d) {
  PyFinding f;
  static_cast<PyDiagnostic &>(f) = convertDiagnostic(d, *r.sm);
  f.path = r.path;
  f.kind = lint::fileKindName(r.kind);
  for (const FixIt &x : d.fixits)
    f.fixes.push_back({x.range.begin.offset, x.range.end.offset - x.range.begin.offset,
                       x.range.begin.line, x.range.begin.col, x.text});
  return f;
}

// Lints as `qlint PATHS...` does; the files qlint could not lint (its exit code 2) and an
// unusable baseline are a ValueError naming them.
std::vector<PyFinding> lintPaths(const LintRequest &req) {
  lint::Options o = lintOptions(req);
  std::vector<lint::FileResult> shown;
  std::string errors;
  {
    py::gil_scoped_release unlocked;
    for (lint::FileResult &r : lint::lintInputs(req.paths, o)) {
      if (!r.internalError.empty())
        errors += (errors.empty() ? "" : "\n") + r.internalError;
      else
        shown.push_back(std::move(r));
    }
    unsigned dropped = 0;
    std::string err;
    if (errors.empty() && !req.baseline.empty() &&
        !lint::applyBaseline(req.baseline, shown, dropped, err))
      errors = err;
  }
  if (!errors.empty())
    throw py::value_error(errors);
  std::vector<PyFinding> out;
  for (const lint::FileResult &r : shown)
    if (!r.skipped)
      for (const Diagnostic &d : r.findings)
        out.push_back(convertFinding(r, d));
  return out;
}

} // namespace

void bindLint(py::module_ &m) {
  py::class_<PyFix>(m, "Fix", "A safe fix of a finding: replace `length` bytes at `offset`.")
      .def_readonly("offset", &PyFix::offset, "0-based byte offset in the file")
      .def_readonly("length", &PyFix::length, "how many bytes it replaces")
      .def_readonly("line", &PyFix::line)
      .def_readonly("column", &PyFix::column)
      .def_readonly("text", &PyFix::text, "the text put in their place")
      .def("__repr__", [](const PyFix &f) {
        return "<Fix " + std::to_string(f.line) + ":" + std::to_string(f.column) + " -" +
               std::to_string(f.length) + " +" + std::to_string(f.text.size()) + ">";
      });
  py::class_<PyFinding, PyDiagnostic>(m, "Finding",
                                      "One qlint finding: a Diagnostic whose id is the rule ID.")
      .def_property_readonly(
          "rule", [](const PyFinding &f) { return f.id; },
          "the rule's ID (the same as id), e.g. spec-group-split")
      .def_readonly("path", &PyFinding::path, "the linted file, as qlint names it")
      .def_readonly("kind", &PyFinding::kind, "its kind: qspec, msmodelslim, amct, hmct...")
      .def_readonly("fixes", &PyFinding::fixes, "its safe fixes (Fix objects)")
      .def("__repr__", [](const PyFinding &f) {
        return "<Finding " + f.severity + " " + f.id + " at " + f.file + ":" +
               std::to_string(f.line) + ":" + std::to_string(f.column) + ">";
      });
  m.def(
      "_lint",
      [](std::vector<std::string> paths, std::vector<std::string> select,
         std::vector<std::string> ignore, bool werror, std::vector<std::string> werrorRules,
         bool useConfig, std::map<std::string, std::string> values, unsigned jobs) {
        LintRequest req;
        req.paths = std::move(paths);
        req.select = std::move(select);
        req.ignore = std::move(ignore);
        req.werror = werror;
        req.werrorRules = std::move(werrorRules);
        req.useConfig = useConfig;
        req.jobs = jobs;
        std::pair<const char *, std::string *> named[] = {{"inventory", &req.inventory},
                                                          {"scores", &req.scores},
                                                          {"onnx", &req.onnx},
                                                          {"amct_hardware", &req.amctHardware},
                                                          {"amct_framework", &req.amctFramework},
                                                          {"root", &req.root},
                                                          {"against", &req.against},
                                                          {"anchor", &req.anchor},
                                                          {"baseline", &req.baseline}};
        for (auto &[key, to] : named)
          if (auto it = values.find(key); it != values.end())
            *to = it->second;
        return lintPaths(req);
      },
      py::arg("paths"), py::arg("select"), py::arg("ignore"), py::arg("werror"),
      py::arg("werror_rules"), py::arg("config"), py::arg("values"), py::arg("jobs"));
}

} // namespace qspec::python
