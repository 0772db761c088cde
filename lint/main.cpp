// qlint: lints .qspec files and the vendor configs themselves (msModelSlim practice YAML, AMCT
// .cfg, HMCT quant_config JSON).
//
//   qlint [options] PATH...      (PATH `-`: standard input)
//
// Exit codes (like ruff): 0 no error-severity findings, 1 findings at error severity remain,
// 2 usage error, unreadable input, invalid .qlint.yaml or internal error.
#include "emitters/Emitter.h"
#include "ir/Cli.h"
#include "lint/Lint.h"
#include "vendors/amct/AmctRules.h"
#include "support/Heap.h"

#include <algorithm>
#include <filesystem>
#include <iostream>
#include <optional>
#include <set>
#include <sstream>
#include <unistd.h>

using namespace qspec;
using namespace qspec::lint;
namespace fs = std::filesystem;

namespace {

const char *kUsage = R"(usage: qlint [options] PATH...

Lints .qspec files and vendor configs: msModelSlim practice YAML (.yaml/.yml with apiversion),
AMCT .cfg (PTQ and QAT), HMCT quant_config JSON (.json/.jsonc, // and /* */ comments allowed).
Directories are searched recursively. PATH '-' reads standard input: linted as the file
--stdin-filename names, else shown as <stdin> with its kind told from its content.

  --format=F             text (default) | json | sarif | github
  --color=WHEN           auto (default: on a terminal, unless NO_COLOR is set) | always | never
  --statistics           print how many findings each rule produced
  --select=SEL[,SEL]     only these rules (IDs, categories, ID prefixes, ALL); replaces .qlint.yaml
  --ignore=SEL[,SEL]     skip these rules (added to .qlint.yaml's ignore)
  -Werror                warnings become errors;  -Werror=SEL  only for the selected rules
  --fix                  apply safe fixes and report what changed (files written atomically)
  --diff                 print the safe fixes as a unified diff; write nothing
  --baseline=FILE        do not report the findings FILE records (adopt qlint on old files)
  --write-baseline=FILE  record every finding of this run in FILE and exit 0
  --against=REV          compare the tuning state with the file at git revision REV
  --anchor=FILE          compare the tuning state with the anchor spec FILE
  --amct-hardware=NAME   the Ascend chip AMCT configs target (e.g. Ascend950PR)
  --amct-framework=NAME  the framework AMCT configs are for: pytorch, tensorflow, onnx, caffe
  --inventory=FILE       module inventory for .qspec files (overrides the spec's), and the
                         model vendor files are checked against (layers, patterns, node names)
  --onnx=FILE            the model graph (ONNX) vendor files are checked against
  --scores=FILE          sensitivity scores for .qspec files (overrides the spec's)
  --root=DIR             a .qspec's includes, inventory, scores and ONNX files must be inside
                         DIR (for untrusted checkouts; .qlint.yaml: confine: true)
  --no-config            do not read .qlint.yaml files
  --hook                 pre-commit mode: lint a named file only if it is a .qspec, a vendor
                         config recognised by its content or a spec's input; skip the others
  --stdin-filename=NAME  lint standard input ('-') as file NAME: its kind, .qlint.yaml and name
  -j N                   lint N files at a time (default: up to 4)
  --list-rules           print the rule table
  --explain=ID           print rule ID's documentation (also: qlint rule ID)
  --version, --help
)";

int usageError(const std::string &msg) {
  std::cerr << "qlint: error: " << sanitizeForTerminal(msg) << "\nrun 'qlint --help' for usage\n";
  return 2;
}

// `qlint rule ID` and `--explain ID`.
int explain(const std::string &id) {
  if (!explainRule(std::cout, id))
    return usageError("no rule '" + id + "' (see --list-rules)");
  return 0;
}

std::vector<std::string> splitList(const std::string &s) {
  std::vector<std::string> out;
  std::stringstream ss(s);
  std::string item;
  while (std::getline(ss, item, ','))
    if (!item.empty())
      out.push_back(item);
  return out;
}

// '-' at most once, --stdin-filename only with it, and no --fix (standard input cannot be
// rewritten; --diff shows the fixes). Returns the usage error, or "".
std::string checkStdinUse(const std::vector<std::string> &inputs, const Options &o, bool fix) {
  auto dashes = std::count(inputs.begin(), inputs.end(), "-");
  if (dashes > 1)
    return "'-' (standard input) given more than once";
  if (dashes == 0 && !o.stdinFilename.empty())
    return "--stdin-filename names standard input: give '-' as the input";
  if (dashes && fix)
    return "--fix cannot rewrite standard input; use --diff to see the fixes";
  return "";
}

// --fix / --diff: each file fixed until stable (fixUntilStable), then written through symlinks
// with its mode kept (writeFileAtomically), or shown as a diff. Returns 2 if a write failed.
int fixFiles(std::vector<FileResult> &results, const Options &o, bool diff) {
  int rc = 0;
  for (FileResult &r : results) {
    if (r.findings.empty() || !r.file || !r.internalError.empty())
      continue;
    FixOutcome fx = fixUntilStable(r, o);
    if (fx.after == fx.before)
      continue;
    if (diff) {
      std::cout << unifiedDiff(r.path, fx.before, fx.after);
      continue;
    }
    std::string err;
    if (!emit::writeFileAtomically(r.path, fx.after, err)) {
      std::cerr << "qlint: error: cannot write '" << sanitizeForTerminal(r.path) << "': " << err
                << "\n";
      rc = 2;
      continue;
    }
    std::string list;
    for (const std::string &id : fx.rules)
      list += (list.empty() ? "" : ", ") + id;
    std::cerr << "qlint: fixed " << fx.applied << (fx.applied == 1 ? " finding" : " findings")
              << " in " << sanitizeForTerminal(r.path) << " (" << list << ")\n";
    if (!fx.stable)
      std::cerr << "qlint: warning: fixes in " << sanitizeForTerminal(r.path)
                << " did not settle after " << kMaxFixRounds << " rounds\n";
    r = lintFile(r.path, o); // report what remains
  }
  return rc;
}

// --write-baseline: records the findings and returns 0 (2 if it cannot write). --baseline: drops
// the recorded findings and returns -1 (go on), or 2 if the baseline is unusable.
int useBaseline(std::vector<FileResult> &shown, const std::string &baseline,
                const std::string &writeTo) {
  std::string err;
  if (!writeTo.empty()) {
    if (!writeBaseline(writeTo, shown, err)) {
      std::cerr << "qlint: error: cannot write baseline '" << sanitizeForTerminal(writeTo)
                << "': " << err << "\n";
      return 2;
    }
    size_t n = 0;
    for (const FileResult &r : shown)
      n += r.findings.size();
    std::cerr << "qlint: wrote " << n << (n == 1 ? " finding" : " findings") << " to the baseline "
              << sanitizeForTerminal(writeTo) << "\n";
    return 0;
  }
  unsigned dropped = 0;
  if (!applyBaseline(baseline, shown, dropped, err)) {
    std::cerr << "qlint: error: " << sanitizeForTerminal(err) << "\n";
    return 2;
  }
  return -1;
}

// The command line, parsed.
struct Cli {
  Options o;
  std::string format = "text", color = "auto", baseline, writeBaselineTo;
  bool statistics = false, fix = false, diff = false;
  std::vector<std::string> inputs;
};

std::string joinIds(const std::vector<std::string> &ids) {
  std::string out;
  for (const std::string &id : ids)
    out += (out.empty() ? "" : ", ") + id;
  return out;
}

// Adds the rule selectors of a comma list to `to`; a usage error names `flag` and the selector
// that selects no rule.
std::optional<int> addSelectors(const char *flag, const std::string &list,
                                std::vector<std::string> &to) {
  for (auto &s : splitList(list)) {
    if (!isValidSelector(s))
      return usageError(std::string(flag) + " '" + s + "' selects no rule (see --list-rules)");
    if (const DeprecatedRule *d = findDeprecatedRule(s))
      std::cerr << "qlint: warning: " << flag << " '" << s << "': the rule ID is deprecated ("
                << d->why << "); it selects " << joinIds(d->replacements) << "\n";
    to.push_back(s);
  }
  return std::nullopt;
}

int listRules() {
  for (const RuleInfo &r : allRules())
    std::cout << r.id << "\t" << severityName(r.severity) << "\t" << (r.fixable ? "fix" : "-")
              << "\t" << r.summary << "\n";
  return 0;
}

std::optional<int> parseJobs(const std::string &v, unsigned &jobs) {
  try {
    jobs = static_cast<unsigned>(std::stoul(v));
  } catch (...) {
    return usageError("-j takes a whole number");
  }
  if (jobs == 0 || jobs > 64)
    return usageError("-j takes a number from 1 to 64");
  return std::nullopt;
}

// Reads argv into `c`. Returns the exit code when the command is done (help, version, rule
// documentation, the rule list) or wrong (a usage error); nothing to go on linting.
std::optional<int> parseArgs(int argc, char **argv, Cli &c) {
  Options &o = c.o;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    auto value = [&](const char *flag, std::string &out) -> bool {
      std::string f = flag;
      if (a == f) {
        if (i + 1 >= argc)
          return false;
        out = argv[++i];
        return true;
      }
      if (a.rfind(f + "=", 0) == 0) {
        out = a.substr(f.size() + 1);
        return true;
      }
      return false;
    };
    std::string v;
    std::optional<int> rc;
    if (a == "--help" || a == "-h") {
      std::cout << kUsage;
      return 0;
    } else if (a == "--version") {
      std::cout << versionLine("qlint") << "\n";
      return 0;
    } else if (value("--explain", v)) {
      return explain(v);
    } else if (a == "--list-rules") {
      return listRules();
    } else if (value("--format", c.format) || value("--output-format", c.format) ||
               value("--color", c.color)) {
    } else if (a == "--statistics") {
      c.statistics = true;
    } else if (value("--select", v)) {
      rc = addSelectors("--select:", v, o.select);
    } else if (value("--ignore", v)) {
      rc = addSelectors("--ignore:", v, o.ignore);
    } else if (a == "-Werror") {
      o.werror = true;
    } else if (a.rfind("-Werror=", 0) == 0) {
      rc = addSelectors("-Werror=:", a.substr(8), o.werrorRules);
    } else if (a == "--fix") {
      c.fix = true;
    } else if (a == "--diff") {
      c.diff = true;
    } else if (value("--baseline", c.baseline) || value("--write-baseline", c.writeBaselineTo)) {
    } else if (value("--against", o.against) || value("--anchor", o.anchor) ||
               value("--amct-hardware", o.amctHardware) ||
               value("--amct-framework", o.amctFramework) || value("--inventory", o.inventory) ||
               value("--onnx", o.onnx) || value("--scores", o.scores) ||
               value("--stdin-filename", o.stdinFilename) || value("--root", o.root)) {
    } else if (a == "--no-config") {
      o.useConfig = false;
    } else if (a == "--hook") {
      o.hook = true;
    } else if (value("-j", v)) {
      rc = parseJobs(v, o.jobs);
    } else if (a == "--") {
      for (++i; i < argc; ++i)
        c.inputs.push_back(argv[i]);
    } else if (!a.empty() && a[0] == '-' && a != "-") {
      return usageError("unknown option '" + a + "'");
    } else {
      c.inputs.push_back(a);
    }
    if (rc)
      return rc;
  }
  return std::nullopt;
}

// The combinations and values parseArgs cannot judge one flag at a time. Returns the usage error's
// exit code, or nothing.
std::optional<int> checkArgs(Cli &c) {
  if (c.format != "text" && c.format != "json" && c.format != "sarif" && c.format != "github")
    return usageError("--format must be text, json, sarif or github");
  if (c.color != "auto" && c.color != "always" && c.color != "never")
    return usageError("--color must be auto, always or never");
  if (!c.o.amctFramework.empty()) {
    auto fw = amct::parseFramework(c.o.amctFramework);
    if (!fw)
      return usageError("--amct-framework: unknown framework '" + c.o.amctFramework +
                        "' (known: " + amct::knownFrameworkList() + ")");
    c.o.amctFramework = amct::frameworkName(*fw);
  }
  if (!c.o.amctHardware.empty())
    if (std::string why = amct::checkHardwareName(c.o.amctHardware); !why.empty())
      return usageError("--amct-hardware: " + why);
  if (c.inputs.empty())
    return usageError("no input files");
  if (c.fix && c.diff)
    return usageError("--fix and --diff cannot be combined");
  if (!c.baseline.empty() && !c.writeBaselineTo.empty())
    return usageError("--baseline and --write-baseline cannot be combined");
  if (std::string err = checkStdinUse(c.inputs, c.o, c.fix); !err.empty())
    return usageError(err);
  return std::nullopt;
}

// Prints the findings in the chosen format (text is not printed with --diff, which printed the
// fixes instead) and the statistics.
void report(const Cli &c, const std::vector<FileResult> &shown) {
  if (c.format == "json")
    printJson(std::cout, shown);
  else if (c.format == "sarif")
    printSarif(std::cout, shown);
  else if (c.format == "github")
    printGithub(std::cout, shown);
  else if (!c.diff)
    printText(std::cout, shown, useColor(c.color, STDOUT_FILENO));
  if (c.statistics)
    printStatistics(c.format == "text" ? std::cout : std::cerr, shown);
}

int exitCode(const std::vector<FileResult> &shown) {
  for (const FileResult &r : shown)
    for (const Diagnostic &d : r.findings)
      if (d.severity == Severity::Error || d.severity == Severity::Fatal)
        return 1;
  return 0;
}

// Lints the inputs, applies --fix / --diff and the baseline, and reports. Returns the exit code.
int run(Cli &c) {
  Options &o = c.o;
  // Directories expanded (sorted; hidden, git-ignored and `exclude`d entries skipped); explicit
  // files are always linted, and fail closed.
  std::vector<FileResult> results = lintInputs(c.inputs, o);
  int rc = 0;
  for (const FileResult &r : results) {
    if (!r.internalError.empty()) {
      std::cerr << "qlint: error: " << sanitizeForTerminal(r.internalError) << "\n";
      rc = 2;
    }
  }

  if (c.fix || c.diff)
    rc = std::max(rc, fixFiles(results, o, c.diff));

  // Still skipped after that: lint-unknown-file is turned off for the file (the hook skips
  // what is not ours without a word).
  // (Results are matched by path: lintSpecsReading removed and appended some.)
  std::set<std::string> named(c.inputs.begin(), c.inputs.end());
  if (named.count("-"))
    named.insert(o.stdinFilename.empty() ? kStdinName : o.stdinFilename);
  for (const FileResult &r : results)
    if (r.skipped && !o.hook && named.count(r.path))
      std::cerr << "qlint: note: skipping '" << sanitizeForTerminal(r.path)
                << "': not a .qspec file or a recognised vendor config\n";

  std::vector<FileResult> shown;
  for (FileResult &r : results)
    if (r.internalError.empty())
      shown.push_back(std::move(r));
  if (!c.writeBaselineTo.empty() || !c.baseline.empty()) {
    int brc = useBaseline(shown, c.baseline, c.writeBaselineTo);
    if (brc >= 0)
      return std::max(rc, brc);
  }
  report(c, shown);
  return rc ? rc : exitCode(shown);
}

} // namespace

int main(int argc, char **argv) {
  // A spec is linted through qcc's whole pipeline and emitters: the same heap as qcc's, an arena
  // per thread (files are linted side by side).
  support::configureHeap();
  if (argc == 3 && std::string(argv[1]) == "rule")
    return explain(argv[2]);
  Cli c;
  if (std::optional<int> rc = parseArgs(argc, argv, c))
    return *rc;
  if (std::optional<int> rc = checkArgs(c))
    return *rc;
  return run(c);
}
