// qspec._core: the extension behind the Python package `qspec` (driver/python/qspec/__init__.py is
// the typed front; docs/python.md the user's guide). It calls what qcc calls: the frontend's
// loadSpec (parseText + buildSpec for a spec given as text), passes::runPipeline, and the target
// stage emit::buildTargets, which names each file as `qcc --emit=all` does. Every compile owns
// its own source manager, diagnostic engine and spec, so calls share nothing and may run on
// several threads at once; the GIL is released while one runs.
#include "driver/python/Bindings.h"
#include "emitters/Emitter.h"
#include "emitters/TargetStage.h"
#include "frontend/Format.h"
#include "frontend/Frontend.h"
#include "ir/Cli.h"
#include "ir/IRPrinter.h"
#include "ir/TargetInfo.h"
#include "passes/Pass.h"

#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <filesystem>
#include <memory>
#include <mutex>
#include <sstream>

namespace py = pybind11;
namespace fs = std::filesystem;
using namespace qspec;
using python::PyDiagnostic;

namespace qspec::python {

PyDiagnostic convertDiagnostic(const Diagnostic &d, const SourceManager &sm) {
  PyDiagnostic p;
  if (d.range.valid()) {
    p.file = sm.path(d.range.file);
    p.line = d.range.begin.line;
    p.column = d.range.begin.col;
    p.endLine = d.range.end.line;
    p.endColumn = d.range.end.col;
  }
  p.id = d.code;
  p.severity = severityName(d.severity);
  p.message = d.message;
  for (const Diagnostic &n : d.notes)
    p.notes.push_back(convertDiagnostic(n, sm));
  std::ostringstream os;
  renderDiagnosticText(os, sm, d);
  p.text = os.str();
  return p;
}

std::vector<PyDiagnostic> convertDiagnostics(const DiagnosticEngine &diags,
                                             const SourceManager &sm) {
  std::vector<PyDiagnostic> out;
  for (const Diagnostic &d : diags.diagnostics())
    out.push_back(convertDiagnostic(d, sm));
  return out;
}

std::string diagnosticsText(const DiagnosticEngine &diags) {
  std::ostringstream os;
  diags.printText(os);
  return os.str();
}

} // namespace qspec::python

namespace {

// A module inventory held in memory (read from a file once, or built from Python).
using HeldInventory = std::shared_ptr<const ir::Inventory>;

// Hands buildSpec the held inventory instead of reading one; scores are read as qcc reads them.
class HeldInventoryReader : public frontend::InputReader {
public:
  explicit HeldInventoryReader(HeldInventory inv) : inv_(std::move(inv)) {}
  bool readInventory(const std::string &path, ir::Inventory &out, DiagnosticEngine &, SourceRange,
                     const readers::ReaderLimits &) override {
    out = *inv_;
    out.path = path;
    return true;
  }
  bool readScores(const std::string &path, ir::Scores &out, DiagnosticEngine &diags,
                  SourceRange requestedAt, const readers::ReaderLimits &limits) override {
    return readers::readScores(path, out, diags, requestedAt, limits);
  }

private:
  HeldInventory inv_;
};

// What one call of qspec.compile asks for, checked and converted while the GIL is held.
struct CompileRequest {
  std::string specPath; // a file, or the name shown for `specText`
  std::string specText;
  bool isText = false;
  std::string inventoryPath, scoresPath;
  HeldInventory inventory;
  std::vector<std::string> targets; // target kinds; empty = every target of the spec
  bool allTargets = true;
};

// One compile's state: Python's Compilation keeps it alive, since the resolution points into
// the spec and the diagnostics into the source manager.
struct CompileState {
  SourceManager sm;
  DiagnosticEngine diags{sm};
  ir::Spec spec;
  bool resolved = false;
  std::vector<emit::TargetFile> files;
};

// The targets asked for, in the spec's order for all of them; false (reported) for one the spec
// does not declare, as `qcc --emit=KIND` reports it.
bool chooseTargets(CompileState &st, const CompileRequest &req,
                   std::vector<const ir::Target *> &out) {
  if (req.allTargets) {
    for (const ir::Target &t : st.spec.targets)
      out.push_back(&t);
    return true;
  }
  for (const std::string &kind : req.targets) {
    const ir::Target *t = st.spec.target(kind);
    if (!t) {
      st.diags.report(DiagID::err_emit_no_target,
                      SourceRange::point(st.sm.find(req.specPath), 1, 1), {kind});
      return false;
    }
    out.push_back(t);
  }
  return true;
}

// qcc's pipeline for `--emit=all`, without writing: load, resolve, build every target's bytes.
// Files are kept only when nothing failed (qcc writes nothing then either).
std::shared_ptr<CompileState> compileSpec(const CompileRequest &req) {
  auto st = std::make_shared<CompileState>();
  frontend::FrontendOptions fo;
  fo.inventoryOverride = req.inventoryPath;
  fo.scoresOverride = req.scoresPath;
  if (req.inventory) {
    fo.inventoryOverride = req.inventory->path;
    fo.inputReader = std::make_shared<HeldInventoryReader>(req.inventory);
  }
  bool loaded;
  if (req.isText) {
    auto root = frontend::parseText(req.specPath, req.specText, st->diags, fo);
    loaded = root && frontend::buildSpec(*root, req.specPath, st->spec, st->diags, fo);
  } else {
    loaded = frontend::loadSpec(req.specPath, st->spec, st->diags, fo);
  }
  if (!loaded)
    return st;
  st->resolved = passes::runPipeline(st->spec, st->diags);
  std::vector<const ir::Target *> targets;
  if (!st->resolved || !chooseTargets(*st, req, targets))
    return st;
  std::string stem = fs::path(req.specPath).stem().string();
  st->files = emit::buildTargets(st->spec, targets, st->diags, stem, ".");
  if (st->diags.hasErrors())
    st->files.clear();
  return st;
}

// A kind a target may be named by: its kind (`amct`) or qcc's --emit kind (`amct-cfg`).
std::string targetKind(const std::string &name) {
  if (const ir::TargetInfo *info = ir::findTarget(name))
    return info->kind;
  if (const ir::TargetInfo *info = ir::findTargetByEmitKind(name))
    return info->kind;
  throw py::value_error("unknown target '" + name +
                        "'; use msmodelslim, amct, hmct or horizon (or qcc's --emit kinds)");
}

std::shared_ptr<CompileState> compileBinding(const std::string &spec, bool isText,
                                             const std::string &textName,
                                             const std::string &inventoryPath,
                                             HeldInventory inventory, const std::string &scoresPath,
                                             std::optional<std::vector<std::string>> targets) {
  CompileRequest req;
  req.isText = isText;
  if (isText) {
    req.specPath = textName;
    req.specText = spec;
  } else {
    req.specPath = spec;
  }
  req.inventoryPath = inventoryPath;
  req.inventory = std::move(inventory);
  req.scoresPath = scoresPath;
  if (targets) {
    req.allTargets = false;
    for (const std::string &t : *targets)
      req.targets.push_back(targetKind(t));
  }
  py::gil_scoped_release unlocked;
  return compileSpec(req);
}

// Reads an inventory file as qcc's --inventory does; ValueError with qcc's diagnostics if the
// file is not an inventory.
HeldInventory loadInventory(const std::string &path) {
  auto inv = std::make_shared<ir::Inventory>();
  SourceManager sm;
  DiagnosticEngine diags(sm);
  bool ok;
  {
    py::gil_scoped_release unlocked;
    ok = readers::readInventory(path, *inv, diags);
  }
  if (!ok || diags.hasErrors()) {
    std::ostringstream os;
    diags.printText(os);
    throw py::value_error("cannot read inventory '" + path + "':\n" + os.str());
  }
  inv->path = path;
  return inv;
}

// An inventory of (name, type) pairs, in order; ValueError for an empty or repeated name.
HeldInventory inventoryFromPairs(const std::vector<std::pair<std::string, std::string>> &modules,
                                 const std::string &path) {
  auto inv = std::make_shared<ir::Inventory>();
  inv->path = path;
  inv->format = "python";
  inv->modules.reserve(modules.size());
  for (const auto &[name, type] : modules) {
    if (name.empty())
      throw py::value_error("a module name is empty");
    ir::Module m;
    m.name = name;
    m.type = type;
    inv->modules.push_back(std::move(m));
  }
  inv->rebuildIndex();
  if (inv->index.size() != inv->modules.size())
    for (uint32_t k = 0; k < inv->modules.size(); ++k)
      if (inv->index.find(inv->modules[k].name)->second != k)
        throw py::value_error("module '" + inv->modules[k].name + "' is named twice");
  return inv;
}

// `qcc --explain NAME`'s text; KeyError for a module the inventory lacks.
std::string explainModule(const CompileState &st, const std::string &name) {
  if (!st.resolved)
    throw py::value_error("the compilation has errors: nothing was resolved to explain");
  auto it = st.spec.inventory.index.find(name);
  if (it == st.spec.inventory.index.end())
    throw py::key_error("no module named '" + name + "' in the inventory");
  std::ostringstream os;
  ir::printExplain(st.spec, it->second, st.sm, os);
  return os.str();
}

// `qcc fmt`'s layout of `text`; ValueError with the syntax errors when it does not parse.
std::string formatText(const std::string &text) {
  SourceManager sm;
  DiagnosticEngine diags(sm);
  FileID f = sm.addFile("<string>", text);
  std::string out;
  if (!frontend::formatSpec(f, diags, out)) {
    std::ostringstream os;
    diags.printText(os);
    throw py::value_error("the spec does not parse:\n" + os.str());
  }
  return out;
}

void bindCompilation(py::module_ &m) {
  py::class_<CompileState, std::shared_ptr<CompileState>>(m, "_Compilation")
      .def_property_readonly("resolved", [](const CompileState &s) { return s.resolved; })
      .def_property_readonly("has_errors",
                             [](const CompileState &s) { return s.diags.hasErrors(); })
      .def_property_readonly(
          "diagnostics",
          [](const CompileState &s) { return python::convertDiagnostics(s.diags, s.sm); })
      .def_property_readonly("diagnostics_text",
                             [](const CompileState &s) { return python::diagnosticsText(s.diags); })
      .def_property_readonly("files",
                             [](const CompileState &s) {
                               py::list out;
                               for (const emit::TargetFile &f : s.files)
                                 out.append(
                                     py::make_tuple(f.target->kind, f.name, py::bytes(f.bytes)));
                               return out;
                             })
      .def("ir_json",
           [](const CompileState &s) {
             if (!s.resolved)
               throw py::value_error("the compilation has errors: nothing was resolved");
             std::string out;
             {
               py::gil_scoped_release unlocked;
               ir::printIRJSON(s.spec, s.sm, out);
             }
             return out;
           })
      .def("explain", &explainModule);
}

void bindDiagnostic(py::module_ &m) {
  py::class_<PyDiagnostic>(m, "Diagnostic", "One diagnostic, as qcc reports it.")
      .def_readonly("file", &PyDiagnostic::file, "the file it points into ('' for none)")
      .def_readonly("line", &PyDiagnostic::line, "1-based line (0 for none)")
      .def_readonly("column", &PyDiagnostic::column, "1-based column (0 for none)")
      .def_readonly("end_line", &PyDiagnostic::endLine, "the line its range ends on (0 for none)")
      .def_readonly("end_column", &PyDiagnostic::endColumn,
                    "the column its range ends before (0 for none)")
      .def_readonly("id", &PyDiagnostic::id, "the stable ID, e.g. err_pattern_matches_nothing")
      .def_readonly("severity", &PyDiagnostic::severity, "error, warning, note or remark")
      .def_readonly("message", &PyDiagnostic::message)
      .def_readonly("notes", &PyDiagnostic::notes, "the diagnostics attached to this one")
      .def("__str__", [](const PyDiagnostic &d) { return d.text; })
      .def("__repr__", [](const PyDiagnostic &d) {
        return "<Diagnostic " + d.severity + " " + d.id + " at " + d.file + ":" +
               std::to_string(d.line) + ":" + std::to_string(d.column) + ">";
      });
}

void bindInventory(py::module_ &m) {
  py::class_<ir::Inventory, std::shared_ptr<ir::Inventory>>(m, "_Inventory")
      .def_property_readonly("path", [](const ir::Inventory &i) { return i.path; })
      .def_property_readonly("format", [](const ir::Inventory &i) { return i.format; })
      .def("__len__", [](const ir::Inventory &i) { return i.modules.size(); })
      .def("modules", [](const ir::Inventory &i) {
        std::vector<std::pair<std::string, std::string>> out;
        out.reserve(i.modules.size());
        for (const ir::Module &mod : i.modules)
          out.emplace_back(mod.name, mod.type);
        return out;
      });
  m.def("_load_inventory", [](const std::string &path) {
    return std::const_pointer_cast<ir::Inventory>(loadInventory(path));
  });
  m.def("_inventory_from_pairs", [](const std::vector<std::pair<std::string, std::string>> &modules,
                                    const std::string &path) {
    return std::const_pointer_cast<ir::Inventory>(inventoryFromPairs(modules, path));
  });
}

} // namespace

PYBIND11_MODULE(_core, m) {
  m.doc() = "The qspec compiler's libraries; use the package qspec, not this module.";
  static std::once_flag registered;
  std::call_once(registered, [] { emit::registerAllEmitters(); });
  m.attr("version") = versionLine("qspec");
  bindDiagnostic(m);
  bindCompilation(m);
  bindInventory(m);
  python::bindLint(m);
  python::bindImport(m);
  m.def(
      "_compile",
      [](const std::string &spec, bool isText, const std::string &textName,
         const std::string &inventoryPath, std::shared_ptr<ir::Inventory> inventory,
         const std::string &scoresPath, std::optional<std::vector<std::string>> targets) {
        return compileBinding(spec, isText, textName, inventoryPath, std::move(inventory),
                              scoresPath, std::move(targets));
      },
      py::arg("spec"), py::arg("is_text"), py::arg("text_name"), py::arg("inventory_path"),
      py::arg("inventory"), py::arg("scores_path"), py::arg("targets"));
  m.def("_format", &formatText);
}
