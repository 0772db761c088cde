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

#include <algorithm>
#include <filesystem>
#include <iostream>
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
  --against=REV          compare the tuning state with the file at git revision REV
  --anchor=FILE          compare the tuning state with the anchor spec FILE
  --amct-hardware=NAME   the Ascend chip AMCT configs target (e.g. Ascend950PR)
  --inventory=FILE       module inventory for .qspec files (overrides the spec's)
  --scores=FILE          sensitivity scores for .qspec files (overrides the spec's)
  --no-config            do not read .qlint.yaml files
  --stdin-filename=NAME  lint standard input ('-') as file NAME: its kind, .qlint.yaml and name
  -j N                   lint N files at a time (default: up to 4)
  --list-rules           print the rule table
  --version, --help
)";

int usageError(const std::string &msg) {
  std::cerr << "qlint: error: " << sanitizeForTerminal(msg) << "\nrun 'qlint --help' for usage\n";
  return 2;
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

bool lintable(const fs::path &p) {
  std::string e = p.extension().string();
  for (char &c : e)
    c = static_cast<char>(tolower(static_cast<unsigned char>(c)));
  return e == ".qspec" || e == ".yaml" || e == ".yml" || e == ".cfg" || e == ".json" || e == ".jsonc";
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

} // namespace

int main(int argc, char **argv) {
  Options o;
  std::string format = "text", color = "auto";
  bool statistics = false, fix = false, diff = false;
  std::vector<std::string> inputs;
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
    if (a == "--help" || a == "-h") {
      std::cout << kUsage;
      return 0;
    } else if (a == "--version") {
      std::cout << versionLine("qlint") << "\n";
      return 0;
    } else if (a == "--list-rules") {
      for (const RuleInfo &r : allRules())
        std::cout << r.id << "\t" << severityName(r.severity) << "\t" << (r.fixable ? "fix" : "-") << "\t"
                  << r.summary << "\n";
      return 0;
    } else if (value("--format", format) || value("--output-format", format) || value("--color", color)) {
    } else if (a == "--statistics") {
      statistics = true;
    } else if (value("--select", v)) {
      for (auto &s : splitList(v)) {
        if (!isValidSelector(s))
          return usageError("--select: '" + s + "' selects no rule (see --list-rules)");
        o.select.push_back(s);
      }
    } else if (value("--ignore", v)) {
      for (auto &s : splitList(v)) {
        if (!isValidSelector(s))
          return usageError("--ignore: '" + s + "' selects no rule (see --list-rules)");
        o.ignore.push_back(s);
      }
    } else if (a == "-Werror") {
      o.werror = true;
    } else if (a.rfind("-Werror=", 0) == 0) {
      for (auto &s : splitList(a.substr(8))) {
        if (!isValidSelector(s))
          return usageError("-Werror=: '" + s + "' selects no rule (see --list-rules)");
        o.werrorRules.push_back(s);
      }
    } else if (a == "--fix") {
      fix = true;
    } else if (a == "--diff") {
      diff = true;
    } else if (value("--against", o.against) || value("--anchor", o.anchor) ||
               value("--amct-hardware", o.amctHardware) || value("--inventory", o.inventory) ||
               value("--scores", o.scores) || value("--stdin-filename", o.stdinFilename)) {
    } else if (a == "--no-config") {
      o.useConfig = false;
    } else if (value("-j", v)) {
      try {
        o.jobs = static_cast<unsigned>(std::stoul(v));
      } catch (...) {
        return usageError("-j takes a whole number");
      }
      if (o.jobs == 0 || o.jobs > 64)
        return usageError("-j takes a number from 1 to 64");
    } else if (a == "--") {
      for (++i; i < argc; ++i)
        inputs.push_back(argv[i]);
    } else if (!a.empty() && a[0] == '-' && a != "-") {
      return usageError("unknown option '" + a + "'");
    } else {
      inputs.push_back(a);
    }
  }
  if (format != "text" && format != "json" && format != "sarif" && format != "github")
    return usageError("--format must be text, json, sarif or github");
  if (color != "auto" && color != "always" && color != "never")
    return usageError("--color must be auto, always or never");
  if (inputs.empty())
    return usageError("no input files");
  if (fix && diff)
    return usageError("--fix and --diff cannot be combined");
  if (std::string err = checkStdinUse(inputs, o, fix); !err.empty())
    return usageError(err);

  // Expand directories (sorted, hidden entries skipped); explicit files are always linted.
  std::vector<std::string> paths;
  for (const std::string &in : inputs) {
    std::error_code ec;
    if (in != "-" && fs::is_directory(in, ec)) {
      std::vector<std::string> found;
      fs::recursive_directory_iterator it(in, fs::directory_options::skip_permission_denied, ec), end;
      for (; !ec && it != end; it.increment(ec)) {
        std::string name = it->path().filename().string();
        if (!name.empty() && name[0] == '.') {
          if (it->is_directory(ec))
            it.disable_recursion_pending();
          continue;
        }
        if (it->is_regular_file(ec) && lintable(it->path()))
          found.push_back(it->path().string());
      }
      std::sort(found.begin(), found.end());
      paths.insert(paths.end(), found.begin(), found.end());
    } else {
      paths.push_back(in);
    }
  }

  // A file named on the command line (not found by a directory walk) fails closed: one of no
  // known kind is a lint-unknown-file finding.
  o.named = inputs;
  std::vector<FileResult> results = lintFiles(paths, o);
  int rc = 0;
  for (const FileResult &r : results) {
    if (!r.internalError.empty()) {
      std::cerr << "qlint: error: " << sanitizeForTerminal(r.internalError) << "\n";
      rc = 2;
    }
  }

  if (fix || diff) {
    for (FileResult &r : results) {
      if (r.findings.empty() || !r.file)
        continue;
      std::vector<Diagnostic> fixable;
      for (const Diagnostic &d : r.findings) {
        const RuleInfo *info = findRule(d.code);
        if (info && info->fixable && !d.fixits.empty())
          fixable.push_back(d);
      }
      if (fixable.empty())
        continue;
      const std::string &before = r.sm->text(r.file);
      unsigned applied = 0;
      std::vector<std::string> rules;
      std::string after = applyFixes(before, fixable, applied, &rules);
      if (after == before)
        continue;
      if (diff) {
        std::cout << unifiedDiff(r.path, before, after);
        continue;
      }
      std::string err;
      if (!emit::writeFileAtomically(r.path, after, err)) {
        std::cerr << "qlint: error: cannot write '" << sanitizeForTerminal(r.path) << "': " << err << "\n";
        rc = 2;
        continue;
      }
      std::sort(rules.begin(), rules.end());
      std::string list;
      for (size_t k = 0; k < rules.size(); ++k)
        if (k == 0 || rules[k] != rules[k - 1])
          list += (list.empty() ? "" : ", ") + rules[k];
      std::cerr << "qlint: fixed " << applied << (applied == 1 ? " finding" : " findings") << " in "
                << sanitizeForTerminal(r.path) << " (" << list << ")\n";
      r = lintFile(r.path, o); // report what remains
    }
  }

  // Still skipped after that: lint-unknown-file is turned off for the file.
  for (size_t i = 0; i < results.size(); ++i)
    if (results[i].skipped && std::find(inputs.begin(), inputs.end(), paths[i]) != inputs.end())
      std::cerr << "qlint: note: skipping '" << sanitizeForTerminal(results[i].path)
                << "': not a .qspec file or a recognised vendor config\n";

  std::vector<FileResult> shown;
  for (FileResult &r : results)
    if (r.internalError.empty())
      shown.push_back(std::move(r));
  if (format == "json")
    printJson(std::cout, shown);
  else if (format == "sarif")
    printSarif(std::cout, shown);
  else if (format == "github")
    printGithub(std::cout, shown);
  else if (!diff)
    printText(std::cout, shown, useColor(color, STDOUT_FILENO));
  if (statistics)
    printStatistics(format == "text" ? std::cout : std::cerr, shown);

  if (rc)
    return rc;
  for (const FileResult &r : shown)
    for (const Diagnostic &d : r.findings)
      if (d.severity == Severity::Error || d.severity == Severity::Fatal)
        return 1;
  return 0;
}
