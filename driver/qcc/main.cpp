// qcc: compiles a .qspec file into vendor configs.
//
//   qcc SPEC [--inventory FILE] [--scores FILE] --emit=KIND [-o PATH]
//   qcc SPEC --explain NAME
//   qcc fmt [--check | -i] FILE...   (driver/qcc/Fmt.cpp)
//   qcc import FILE... [--inventory INV] [-o SPEC]   (driver/qcc/Import.cpp)
//   qcc diff BEFORE AFTER | --rev REV SPEC   (driver/qcc/Diff.cpp)
// SPEC `-` reads the spec from standard input; `-o -` writes to standard output.
//
// Exit codes: 0 success, 1 errors in the input, 2 usage or internal problem. No output file is
// written unless compilation succeeds; files are written atomically.
#include "driver/qcc/Diff.h"
#include "driver/qcc/Fmt.h"
#include "driver/qcc/Import.h"
#include "emitters/Emitter.h"
#include "emitters/TargetStage.h"
#include "emitters/WriteFile.h"
#include "frontend/Frontend.h"
#include "ir/Cli.h"
#include "ir/DiagnosticVerifier.h"
#include "ir/IRPrinter.h"
#include "ir/Parallel.h"
#include "passes/Pass.h"
#include "support/Heap.h"

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <new>
#include <sstream>
#include <unistd.h>

using namespace qspec;
namespace fs = std::filesystem;

namespace {

const char *kUsage = R"(usage: qcc SPEC [options]
       qcc fmt [--check | -i] FILE...   (the canonical layout; see 'qcc fmt --help')
       qcc import FILE... [--inventory INV] [-o SPEC]   (vendor files to a spec; see 'qcc import --help')
       qcc diff BEFORE AFTER | --rev REV SPEC   (what a change does, module by module; see 'qcc diff --help')

  SPEC                     the .qspec file; - reads standard input
  --emit=KIND              ast | ir | msmodelslim-yaml | amct-cfg | hmct-json | horizon-py |
                           llm-compressor-yaml | compressed-tensors-config | all
  -o PATH                  output file (a directory for --emit=all); - or none: standard output
  --inventory FILE         module inventory (overrides the spec's): .safetensors, .index.json,
                           .onnx or a manifest
  --scores FILE            sensitivity scores (overrides the spec's)
  --explain NAME           print every setting of module NAME and the rule that decided it
  --diagnostics-format=F   text (default) or json
  -Werror, -Wno-error      turn warnings into errors (or back)
  -W<group>, -Wno-<group>  turn a warning group on or off (see --list-warning-groups)
  -Werror=<group>          turn a group's warnings into errors; -Wno-error=<group> back
  -w                       print no warnings
  --color=WHEN             auto (default: on a terminal, unless NO_COLOR is set) | always | never
  --error-limit=N          stop after N errors (default 50, 0 = no limit)
  --verify                 check diagnostics against expected-* comments in the spec
  --verify-each            run the IR verifier after every pass
  --remarks                print a remark after each pass
  --time-report            print the wall time of each phase to standard error
  --stop-after=PASS        stop the pipeline after PASS (see --list-passes)
  --list-passes            print the passes in pipeline order
  --list-diagnostics       print the diagnostic table
  --list-warning-groups    print the warning groups and their diagnostics
  --version, --help
)";

struct Options {
  std::string spec, emit, output, inventory, scores, explain, stopAfter;
  std::string format = "text", color = "auto";
  std::vector<std::string> warningOptions; // -w, -W..., in command-line order
  bool verify = false, verifyEach = false, remarks = false, timeReport = false;
  unsigned errorLimit = 50;
};

int usageError(const std::string &msg) {
  std::cerr << "qcc: error: " << msg << "\n"
            << "run 'qcc --help' for usage\n";
  return 2;
}

bool startsWith(const std::string &s, const char *p) { return s.rfind(p, 0) == 0; }

// The commands that print something and end (--help, --version, --list-*); -1 if `a` is none.
int listCommand(const std::string &a) {
  if (a == "--help" || a == "-h") {
    std::cout << kUsage;
  } else if (a == "--version") {
    std::cout << versionLine("qcc") << "\n";
  } else if (a == "--list-warning-groups") {
    for (const auto &[group, ids] : allWarningGroups()) {
      std::cout << group << "\t";
      for (size_t k = 0; k < ids.size(); ++k)
        std::cout << (k ? " " : "") << ids[k];
      std::cout << "\n";
    }
  } else if (a == "--list-passes") {
    for (const auto &p : passes::allPasses())
      std::cout << p.name << "\t" << p.summary << "\n";
  } else if (a == "--list-diagnostics") {
    for (DiagID id : allDiagIDs())
      std::cout << diagInfo(id).id << "\t" << severityName(diagInfo(id).severity) << "\t"
                << diagInfo(id).format << "\n";
  } else {
    return -1;
  }
  return 0;
}

// The flags without a value; false if `a` is none of them.
bool setSwitch(const std::string &a, Options &o) {
  if (a == "-w" || (startsWith(a, "-W") && a.size() > 2))
    o.warningOptions.push_back(a);
  else if (a == "--verify")
    o.verify = true;
  else if (a == "--verify-each")
    o.verifyEach = true;
  else if (a == "--remarks")
    o.remarks = true;
  else if (a == "--time-report")
    o.timeReport = true;
  else
    return false;
  return true;
}

// What parseArgs cannot judge one flag at a time; -1 if the options can be used.
int checkOptions(Options &o) {
  if (o.spec.empty())
    return usageError("no input file");
  if (o.color != "auto" && o.color != "always" && o.color != "never")
    return usageError("--color must be auto, always or never");
  if (o.output == "-")
    o.output.clear(); // standard output
  {
    SourceManager sm;
    DiagnosticEngine probe(sm);
    std::string err;
    for (const std::string &w : o.warningOptions)
      if (!probe.applyWarningOption(w, err))
        return usageError(err.empty() ? "unknown option '" + sanitizeForTerminal(w) + "'" : err);
  }
  if (o.format != "text" && o.format != "json")
    return usageError("--diagnostics-format must be text or json");
  if (!o.emit.empty() && o.emit != "ast" && o.emit != "ir" && o.emit != "all" &&
      !ir::findTargetByEmitKind(o.emit))
    return usageError("unknown --emit kind '" + sanitizeForTerminal(o.emit) +
                      "'; use ast, ir, msmodelslim-yaml, amct-cfg, hmct-json, horizon-py, "
                      "llm-compressor-yaml, compressed-tensors-config or all");
  if (o.emit == "all" && o.output.empty())
    return usageError("--emit=all needs -o DIRECTORY (one file per target; not standard output)");
  if (!o.stopAfter.empty() && ((!o.emit.empty() && o.emit != "ir") || !o.explain.empty()))
    // A partial resolution is for looking at (--emit=ir), never for vendor files or --explain.
    return usageError("--stop-after works only with --emit=ir or without --emit");
  if (!o.stopAfter.empty()) {
    bool known = false;
    for (const auto &p : passes::allPasses())
      known = known || o.stopAfter == p.name;
    if (!known)
      return usageError("unknown pass '" + sanitizeForTerminal(o.stopAfter) +
                        "' (see --list-passes)");
  }
  return -1;
}

// Parses argv; returns -1 to continue, or an exit code.
int parseArgs(int argc, char **argv, Options &o) {
  std::string missingValue;
  for (int i = 1; i < argc && missingValue.empty(); ++i) {
    std::string a = argv[i];
    auto value = [&](const char *flag, std::string &out) -> bool {
      std::string f = flag;
      if (a == f) {
        if (i + 1 >= argc) {
          missingValue = f;
          return true;
        }
        out = argv[++i];
        return true;
      }
      if (startsWith(a, (f + "=").c_str())) {
        out = a.substr(f.size() + 1);
        return true;
      }
      return false;
    };
    if (int rc = listCommand(a); rc >= 0) {
      return rc;
    } else if (value("--emit", o.emit) || value("-o", o.output) ||
               value("--inventory", o.inventory) || value("--scores", o.scores) ||
               value("--explain", o.explain) || value("--diagnostics-format", o.format) ||
               value("--stop-after", o.stopAfter) || value("--color", o.color) || setSwitch(a, o)) {
      continue;
    } else if (startsWith(a, "--error-limit=")) {
      try {
        o.errorLimit = static_cast<unsigned>(std::stoul(a.substr(14)));
      } catch (...) {
        return usageError("--error-limit takes a whole number");
      }
    } else if (!a.empty() && a[0] == '-' && a != "-") {
      return usageError("unknown option '" + sanitizeForTerminal(a) + "'");
    } else if (o.spec.empty()) {
      o.spec = a;
    } else {
      return usageError("more than one input file ('" + sanitizeForTerminal(o.spec) + "' and '" +
                        sanitizeForTerminal(a) + "')");
    }
  }
  if (!missingValue.empty())
    return usageError("option '" + missingValue + "' needs a value (" + missingValue +
                      (missingValue == "-o"          ? " PATH"
                       : missingValue == "--explain" ? " NAME"
                                                     : " VALUE") +
                      ")");
  return checkOptions(o);
}

// A file name must stay inside the output directory.
// --time-report: wall time per phase, printed when the process ends (like clang's -ftime-report).
class TimeReport {
public:
  explicit TimeReport(bool on) : on_(on), start_(Clock::now()), last_(start_) {}
  // Ends the current phase under `name`.
  void phase(const std::string &name) {
    auto now = Clock::now();
    rows_.emplace_back(name, std::chrono::duration<double>(now - last_).count());
    last_ = now;
  }
  // Splits the phase now ending into the passes' own rows, the rest under `name`.
  void passes(const std::vector<std::pair<std::string, double>> &timings, const std::string &name) {
    double inPasses = 0;
    for (const auto &[pass, secs] : timings) {
      rows_.emplace_back("pass " + pass, secs);
      inPasses += secs;
    }
    auto now = Clock::now();
    rows_.emplace_back(name, std::chrono::duration<double>(now - last_).count() - inPasses);
    last_ = now;
  }
  void print(std::ostream &os) const {
    if (!on_)
      return;
    os << "qcc: time report (wall milliseconds)\n";
    char line[128];
    for (const auto &[name, secs] : rows_) {
      std::snprintf(line, sizeof line, "  %-24s %10.2f\n", name.c_str(), secs * 1000);
      os << line;
    }
    std::snprintf(line, sizeof line, "  %-24s %10.2f\n", "total",
                  std::chrono::duration<double>(Clock::now() - start_).count() * 1000);
    os << line;
  }

private:
  using Clock = std::chrono::steady_clock;
  bool on_;
  Clock::time_point start_, last_;
  std::vector<std::pair<std::string, double>> rows_;
};

} // namespace

namespace {

// One qcc run: its options, sources, diagnostics and time report.
struct Session {
  explicit Session(const Options &opts)
      : o(opts), times(opts.timeReport), color(useColor(opts.color, STDERR_FILENO)) {
    std::string ignored;
    for (const std::string &w : o.warningOptions)
      diags.applyWarningOption(w, ignored);
    diags.setErrorLimit(o.errorLimit);
  }

  // Prints the time report and the diagnostics (or checks them against the spec's expected-*
  // comments with --verify); returns the exit code.
  int finish(int rc) {
    times.print(std::cerr);
    if (o.verify)
      return verifyDiagnostics(diags, sm, std::cout) ? 0 : 1;
    if (o.format == "json")
      diags.printJSON(std::cerr);
    else
      diags.printText(std::cerr, color);
    return rc;
  }

  const Options &o;
  SourceManager sm;
  DiagnosticEngine diags{sm};
  TimeReport times;
  bool color;
};

// --emit=ast: the parse tree as JSON, before any input is read.
int emitAst(Session &s, const frontend::FrontendOptions &fo) {
  auto root = frontend::parseFile(s.o.spec, s.diags, fo);
  if (!root || s.diags.hasErrors())
    return s.finish(1);
  std::ostringstream os;
  ast::printJSON(*root, s.sm, os);
  if (s.o.output.empty()) {
    std::cout << os.str();
    return s.finish(0);
  }
  std::string err;
  if (!emit::writeFileAtomically(s.o.output, os.str(), err)) {
    s.diags.report(DiagID::err_cannot_write_output, SourceRange{}, {s.o.output, err});
    return s.finish(1);
  }
  return s.finish(0);
}

// Loads the spec and its inputs and runs the pass pipeline; false after an error.
bool compile(Session &s, const frontend::FrontendOptions &fo, ir::Spec &spec) {
  bool loaded = frontend::loadSpec(s.o.spec, spec, s.diags, fo);
  s.times.phase("parse and read inputs");
  if (!loaded)
    return false;
  support::prepareThreadHeaps(spec.inventory.modules.size(),
                              s.o.emit == "all" ? spec.targets.size() : 1, ir::kParallelMinModules);
  passes::PipelineOptions po;
  po.verifyEach = s.o.verifyEach;
  po.stopAfter = s.o.stopAfter;
  po.remarks = s.o.remarks;
  std::vector<std::pair<std::string, double>> passTimes;
  po.timings = &passTimes;
  bool resolved = passes::runPipeline(spec, s.diags, po);
  s.times.passes(passTimes, "pipeline (other)");
  return resolved;
}

// The module whose name shares the longest prefix with `name` (the first of equals), or null
// when none shares a character.
const ir::Module *closestModule(const ir::Spec &spec, const std::string &name) {
  const ir::Module *best = nullptr;
  size_t bestScore = 0;
  for (const auto &m : spec.inventory.modules) {
    size_t k = 0;
    while (k < m.name.size() && k < name.size() && m.name[k] == name[k])
      ++k;
    if (!best || k > bestScore) {
      best = &m;
      bestScore = k;
    }
  }
  return bestScore > 0 ? best : nullptr;
}

// --explain NAME: every setting of the module and the rule that decided it.
int explainModule(Session &s, const ir::Spec &spec) {
  if (!spec.inventory.present()) {
    s.diags.report(DiagID::err_explain_needs_inventory, SourceRange{});
    return s.finish(1);
  }
  auto it = spec.inventory.index.find(s.o.explain);
  if (it == spec.inventory.index.end()) {
    // A tied output head is no module of the inventory, but every target decides it.
    if (ir::printExplainTiedHead(spec, s.o.explain, std::cout))
      return s.finish(0);
    Diagnostic &d = s.diags.report(DiagID::err_unknown_module, SourceRange{}, {s.o.explain});
    if (const ir::Module *best = closestModule(spec, s.o.explain))
      s.diags.note(d, DiagID::note_did_you_mean, SourceRange{}, {best->name});
    return s.finish(1);
  }
  ir::printExplain(spec, it->second, s.sm, std::cout);
  return s.finish(0);
}

// --emit=ir, streamed: neither standard output nor the file's bytes are held whole in memory.
int emitIR(Session &s, const ir::Spec &spec) {
  if (s.o.output.empty()) {
    ir::printIRJSON(spec, s.sm, std::cout);
    s.times.phase("print IR");
    return s.finish(0);
  }
  // Streamed into the temporary file that is renamed over the output: one chunk in memory.
  std::string err;
  bool written = emit::writeFileStreamed(
      s.o.output, [&](const emit::ChunkSink &sink) { return ir::printIRJSON(spec, s.sm, sink); },
      err);
  s.times.phase("print and write IR");
  if (!written) {
    s.diags.report(DiagID::err_cannot_write_output, SourceRange{}, {s.o.output, err});
    return s.finish(1);
  }
  return s.finish(0);
}

// The targets --emit names (every target for `all`); false (reported) when the spec lacks it.
bool chooseTargets(Session &s, const ir::Spec &spec, std::vector<const ir::Target *> &targets) {
  if (s.o.emit == "all") {
    for (const ir::Target &t : spec.targets)
      targets.push_back(&t);
    return true;
  }
  const ir::TargetInfo *info = ir::findTargetByEmitKind(s.o.emit);
  const ir::Target *t = spec.target(info->kind);
  if (!t) {
    s.diags.report(DiagID::err_emit_no_target,
                   SourceRange::point(s.sm.find(s.o.spec == "-" ? kStdinName : s.o.spec), 1, 1),
                   {info->kind});
    return false;
  }
  targets.push_back(t);
  return true;
}

// Writes every built file (path "" = standard output), each atomically; false after a failure.
bool writeFiles(Session &s, std::vector<std::pair<std::string, std::string>> &files) {
  if (s.o.emit == "all") {
    std::error_code ec;
    fs::create_directories(s.o.output, ec);
    if (ec) {
      s.diags.report(DiagID::err_cannot_write_output, SourceRange{}, {s.o.output, ec.message()});
      return false;
    }
  }
  for (auto &[path, bytes] : files) {
    if (path.empty()) {
      std::cout << bytes;
      continue;
    }
    std::string err;
    if (!emit::writeFileAtomically(path, bytes, err)) {
      s.diags.report(DiagID::err_cannot_write_output, SourceRange{}, {path, err});
      return false;
    }
    if (s.o.emit == "all")
      std::cerr << "qcc: wrote " << path << "\n";
  }
  return true;
}

// Vendor files: every buffer is built (and validated) first; nothing is written unless all succeed.
int emitVendorFiles(Session &s, const ir::Spec &spec) {
  std::vector<const ir::Target *> targets;
  if (!chooseTargets(s, spec, targets))
    return s.finish(1);
  std::vector<std::pair<std::string, std::string>> files; // path, bytes
  std::string stem = s.o.spec == "-" ? "stdin" : fs::path(s.o.spec).stem().string();
  bool all = s.o.emit == "all";
  emit::EmitIndexes asked; // a backend's other file kind (--emit=compressed-tensors-config)
  if (!all && ir::findTargetByEmitKind(s.o.emit)->emitKind != s.o.emit)
    asked.emitKind = s.o.emit;
  std::vector<emit::TargetFile> built =
      emit::buildTargets(spec, targets, s.diags, stem, all ? s.o.output : "", asked);
  s.times.phase(targets.size() == 1 ? "emit " + targets[0]->kind
                                    : "emit " + std::to_string(targets.size()) + " targets");
  for (emit::TargetFile &f : built)
    files.emplace_back(all ? (fs::path(s.o.output) / f.name).string() : s.o.output,
                       std::move(f.bytes));
  if (s.diags.hasErrors() || !writeFiles(s, files))
    return s.finish(1);
  s.times.phase("write");
  return s.finish(0);
}

int runQcc(int argc, char **argv) {
  if (argc >= 2 && std::string(argv[1]) == "fmt")
    return driver::runFmt(argc - 1, argv + 1);
  if (argc >= 2 && std::string(argv[1]) == "import")
    return driver::runImport(argc - 1, argv + 1);
  if (argc >= 2 && std::string(argv[1]) == "diff")
    return driver::runDiff(argc - 1, argv + 1);
  emit::registerAllEmitters();
  Options o;
  if (int rc = parseArgs(argc, argv, o); rc >= 0)
    return rc;

  Session s(o);
  frontend::FrontendOptions fo;
  fo.inventoryOverride = o.inventory;
  fo.scoresOverride = o.scores;
  if (o.emit == "ast")
    return emitAst(s, fo);

  // Like clang's -disable-free: the process ends right after, and freeing every module name and
  // resolved setting one by one would cost about a tenth of a large compile. The pointer stays
  // reachable, so leak checkers do not report it.
  static ir::Spec *keepUntilExit = new ir::Spec;
  ir::Spec &spec = *keepUntilExit;
  if (!compile(s, fo, spec))
    return s.finish(1);
  if (!o.explain.empty())
    return explainModule(s, spec);
  if (o.emit.empty() || (o.emit == "ir" && o.verify))
    return s.finish(0); // a check only (--verify checks the IR's diagnostics, not its text)
  if (o.emit == "ir")
    return emitIR(s, spec);
  return emitVendorFiles(s, spec);
}

} // namespace

int main(int argc, char **argv) {
  support::configureHeap();
  try {
    return runQcc(argc, argv);
  } catch (const std::bad_alloc &) {
    // An input that needs more memory than there is (or than `ulimit -v` allows): a diagnostic
    // and exit 1, not an abort. The memory of the failed run is free again by now.
    SourceManager sm;
    DiagnosticEngine diags(sm);
    diags.report(DiagID::err_out_of_memory, SourceRange{}, {});
    diags.printText(std::cerr);
    return 1;
  }
}
