// qcc: compiles a .qspec file into vendor configs.
//
//   qcc SPEC [--inventory FILE] [--scores FILE] --emit=KIND [-o PATH]
//   qcc SPEC --explain NAME
//   qcc fmt [--check | -i] FILE...   (driver/qcc/Fmt.cpp)
//   qcc import FILE... [--inventory INV] [-o SPEC]   (driver/qcc/Import.cpp)
// SPEC `-` reads the spec from standard input; `-o -` writes to standard output.
//
// Exit codes: 0 success, 1 errors in the input, 2 usage or internal problem. No output file is
// written unless compilation succeeds; files are written atomically.
#include "driver/Compile.h"
#include "driver/qcc/Fmt.h"
#include "driver/qcc/Import.h"
#include "emitters/Emitter.h"
#include "emitters/WriteFile.h"
#include "frontend/Frontend.h"
#include "ir/Cli.h"
#include "ir/DiagnosticVerifier.h"
#include "ir/IRPrinter.h"
#include "passes/Pass.h"

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <malloc.h>
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

  SPEC                     the .qspec file; - reads standard input
  --emit=KIND              ast | ir | msmodelslim-yaml | amct-cfg | hmct-json | horizon-py | all
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
  std::cerr << "qcc: error: " << msg << "\n" << "run 'qcc --help' for usage\n";
  return 2;
}

bool startsWith(const std::string &s, const char *p) { return s.rfind(p, 0) == 0; }

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
    if (a == "--help" || a == "-h") {
      std::cout << kUsage;
      return 0;
    } else if (a == "--version") {
      std::cout << versionLine("qcc") << "\n";
      return 0;
    } else if (a == "--list-warning-groups") {
      for (const auto &[group, ids] : allWarningGroups()) {
        std::cout << group << "\t";
        for (size_t k = 0; k < ids.size(); ++k)
          std::cout << (k ? " " : "") << ids[k];
        std::cout << "\n";
      }
      return 0;
    } else if (a == "--list-passes") {
      for (const auto &p : passes::allPasses())
        std::cout << p.name << "\t" << p.summary << "\n";
      return 0;
    } else if (a == "--list-diagnostics") {
      for (DiagID id : allDiagIDs())
        std::cout << diagInfo(id).id << "\t" << severityName(diagInfo(id).severity) << "\t"
                  << diagInfo(id).format << "\n";
      return 0;
    } else if (value("--emit", o.emit) || value("-o", o.output) || value("--inventory", o.inventory) ||
               value("--scores", o.scores) || value("--explain", o.explain) ||
               value("--diagnostics-format", o.format) || value("--stop-after", o.stopAfter) ||
               value("--color", o.color)) {
      continue;
    } else if (a == "-w" || (startsWith(a, "-W") && a.size() > 2)) {
      o.warningOptions.push_back(a);
    } else if (a == "--verify") {
      o.verify = true;
    } else if (a == "--verify-each") {
      o.verifyEach = true;
    } else if (a == "--remarks") {
      o.remarks = true;
    } else if (a == "--time-report") {
      o.timeReport = true;
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
                      (missingValue == "-o" ? " PATH" : missingValue == "--explain" ? " NAME" : " VALUE") + ")");
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
                      "'; use ast, ir, msmodelslim-yaml, amct-cfg, hmct-json, horizon-py or all");
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
      return usageError("unknown pass '" + sanitizeForTerminal(o.stopAfter) + "' (see --list-passes)");
  }
  return -1;
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

int runQcc(int argc, char **argv) {
  // Large temporary buffers (per-module vectors of the passes and emitters) are reused from the
  // heap instead of being mapped and unmapped one by one: every fresh mapping costs a page fault
  // per 4 KiB on first touch, about a fifth of a DeepSeek-V3-size compile.
  mallopt(M_MMAP_THRESHOLD, 64 << 20);
  mallopt(M_TRIM_THRESHOLD, 128 << 20);
  if (argc >= 2 && std::string(argv[1]) == "fmt")
    return driver::runFmt(argc - 1, argv + 1);
  if (argc >= 2 && std::string(argv[1]) == "import")
    return driver::runImport(argc - 1, argv + 1);
  emit::registerAllEmitters();
  Options o;
  if (int rc = parseArgs(argc, argv, o); rc >= 0)
    return rc;

  SourceManager sm;
  DiagnosticEngine diags(sm);
  std::string ignored;
  for (const std::string &w : o.warningOptions)
    diags.applyWarningOption(w, ignored);
  bool color = useColor(o.color, STDERR_FILENO);
  diags.setErrorLimit(o.errorLimit);
  TimeReport times(o.timeReport);
  auto finish = [&](int rc) {
    times.print(std::cerr);
    if (o.verify) {
      bool ok = verifyDiagnostics(diags, sm, std::cout);
      return ok ? 0 : 1;
    }
    if (o.format == "json")
      diags.printJSON(std::cerr);
    else
      diags.printText(std::cerr, color);
    return rc;
  };

  frontend::FrontendOptions fo;
  fo.inventoryOverride = o.inventory;
  fo.scoresOverride = o.scores;

  if (o.emit == "ast") {
    auto root = frontend::parseFile(o.spec, diags, fo);
    if (!root || diags.hasErrors())
      return finish(1);
    std::ostringstream os;
    ast::printJSON(*root, sm, os);
    if (o.output.empty()) {
      std::cout << os.str();
      return finish(0);
    }
    std::string err;
    if (!emit::writeFileAtomically(o.output, os.str(), err)) {
      diags.report(DiagID::err_cannot_write_output, SourceRange{}, {o.output, err});
      return finish(1);
    }
    return finish(0);
  }

  // Like clang's -disable-free: the process ends right after, and freeing every module name and
  // resolved setting one by one would cost about a tenth of a large compile. The pointer stays
  // reachable, so leak checkers do not report it.
  static ir::Spec *keepUntilExit = new ir::Spec;
  ir::Spec &spec = *keepUntilExit;
  bool loaded = frontend::loadSpec(o.spec, spec, diags, fo);
  times.phase("parse and read inputs");
  if (!loaded)
    return finish(1);
  passes::PipelineOptions po;
  po.verifyEach = o.verifyEach;
  po.stopAfter = o.stopAfter;
  po.remarks = o.remarks;
  std::vector<std::pair<std::string, double>> passTimes;
  po.timings = &passTimes;
  bool resolved = passes::runPipeline(spec, diags, po);
  times.passes(passTimes, "pipeline (other)");
  if (!resolved)
    return finish(1);

  if (!o.explain.empty()) {
    if (!spec.inventory.present()) {
      diags.report(DiagID::err_explain_needs_inventory, SourceRange{});
      return finish(1);
    }
    auto it = spec.inventory.index.find(o.explain);
    if (it == spec.inventory.index.end()) {
      Diagnostic &d = diags.report(DiagID::err_unknown_module, SourceRange{}, {o.explain});
      // Suggest the closest name by shared prefix length, then by length difference.
      const ir::Module *best = nullptr;
      size_t bestScore = 0;
      for (const auto &m : spec.inventory.modules) {
        size_t k = 0;
        while (k < m.name.size() && k < o.explain.size() && m.name[k] == o.explain[k])
          ++k;
        if (!best || k > bestScore) {
          best = &m;
          bestScore = k;
        }
      }
      if (best && bestScore > 0)
        diags.note(d, DiagID::note_did_you_mean, SourceRange{}, {best->name});
      return finish(1);
    }
    ir::printExplain(spec, it->second, sm, std::cout);
    return finish(0);
  }

  if (o.emit.empty() || o.emit == "ir") {
    if (o.verify)
      return finish(0);
    if (o.emit.empty())
      return finish(0); // a check only
    if (o.output.empty()) { // streamed: standard output never holds the whole document
      ir::printIRJSON(spec, sm, std::cout);
      times.phase("print IR");
      return finish(0);
    }
    // Streamed into the temporary file that is renamed over the output: one chunk in memory.
    std::string err;
    bool written = emit::writeFileStreamed(
        o.output, [&](const emit::ChunkSink &sink) { return ir::printIRJSON(spec, sm, sink); }, err);
    times.phase("print and write IR");
    if (!written) {
      diags.report(DiagID::err_cannot_write_output, SourceRange{}, {o.output, err});
      return finish(1);
    }
    return finish(0);
  }

  // Vendor files: build every buffer first; write only if all succeed.
  std::vector<const ir::Target *> targets;
  if (o.emit == "all") {
    for (const ir::Target &t : spec.targets)
      targets.push_back(&t);
  } else {
    const ir::TargetInfo *info = ir::findTargetByEmitKind(o.emit);
    const ir::Target *t = spec.target(info->kind);
    if (!t) {
      diags.report(DiagID::err_emit_no_target, SourceRange::point(sm.find(o.spec == "-" ? kStdinName : o.spec), 1, 1), {info->kind});
      return finish(1);
    }
    targets.push_back(t);
  }
  std::vector<std::pair<std::string, std::string>> files; // path, bytes
  std::string stem = o.spec == "-" ? "stdin" : fs::path(o.spec).stem().string();
  std::vector<driver::TargetFile> built =
      driver::buildTargets(spec, targets, diags, stem, o.emit == "all" ? o.output : std::string());
  times.phase(targets.size() == 1 ? "emit " + targets[0]->kind : "emit " + std::to_string(targets.size()) + " targets");
  for (driver::TargetFile &f : built)
    files.emplace_back(o.emit == "all" ? (fs::path(o.output) / f.name).string() : o.output, std::move(f.bytes));
  if (diags.hasErrors())
    return finish(1);
  if (o.emit == "all") {
    std::error_code ec;
    fs::create_directories(o.output, ec);
    if (ec) {
      diags.report(DiagID::err_cannot_write_output, SourceRange{}, {o.output, ec.message()});
      return finish(1);
    }
  }
  for (auto &[path, bytes] : files) {
    if (path.empty()) {
      std::cout << bytes;
      continue;
    }
    std::string err;
    if (!emit::writeFileAtomically(path, bytes, err)) {
      diags.report(DiagID::err_cannot_write_output, SourceRange{}, {path, err});
      return finish(1);
    }
    if (o.emit == "all")
      std::cerr << "qcc: wrote " << path << "\n";
  }
  times.phase("write");
  return finish(0);
}

} // namespace

int main(int argc, char **argv) {
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
