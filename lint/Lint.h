// qlint: the lint framework. Rules are rows of lint/Rules.def (stable ID, category, file kind,
// default severity, fixable, one-line summary); each rule is one function in one file under
// lint/rules/<category>/. A run lints files (in parallel), applies suppression comments, the
// project config (.qlint.yaml) and command-line selection, then prints findings in one of four
// formats and optionally applies safe fixes.
#pragma once

#include "ir/Diagnostics.h"

#include <cstdint>
#include <iosfwd>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace qspec::lint {

enum class FileKind : uint8_t { QSpec, MsModelSlim, Amct, Hmct, Any, Unknown };
const char *fileKindName(FileKind k);

enum class RuleID : unsigned {
#define RULE(ENUM, ID, CAT, KIND, SEV, FIX, SUMMARY) ENUM,
#include "lint/Rules.def"
#undef RULE
  NumRules
};

struct LintContext;

struct RuleInfo {
  RuleID rule;
  const char *id;       // category-kebab-name, e.g. "spec-group-split"
  const char *category; // spec | msmodelslim | amct | hmct | lint
  FileKind kind;        // which files it checks (Any: every file)
  Severity severity;    // default
  bool fixable;         // offers safe fixes
  const char *summary;
  void (*check)(LintContext &); // nullptr for rules the framework itself reports
};
const std::vector<RuleInfo> &allRules();
const RuleInfo &ruleInfo(RuleID r);
const RuleInfo *findRule(std::string_view id);
// Does selector `sel` (an ID, a category, an ID prefix or ALL) select `rule`?
bool selectorMatches(std::string_view sel, const RuleInfo &rule);
bool isValidSelector(std::string_view sel);

// Options of one run (command line merged later with each file's .qlint.yaml).
struct Options {
  std::vector<std::string> select, ignore; // selectors; empty select = config's or all
  bool werror = false;                     // every warning becomes an error
  std::vector<std::string> werrorRules;    // -Werror=SEL
  std::string against;                     // git revision for spec-tuning-too-many-changes
  std::string anchor;                      // anchor .qspec for the same rule
  std::string amctHardware;                // e.g. Ascend950PR, for amct-sparsity-unsupported-soc
  std::string inventory, scores;           // --inventory / --scores for .qspec files
  bool useConfig = true;                   // read .qlint.yaml
  std::string stdinFilename;               // --stdin-filename: path `-` (standard input) is linted
                                           // as this file (kind, .qlint.yaml, shown name)
  unsigned jobs = 0;                       // 0 = auto
  std::vector<std::string> named;          // paths as named on the command line ('-' too): one
                                           // of no known kind is a lint-unknown-file finding,
                                           // not skipped as in a directory walk
  bool checkTargets = true;                // .qspec: run every declared target's emitter and
                                           // translation validation, as qcc --emit=all does
  SourceManager::Overlay overlay;          // unsaved texts read instead of the disk (qspec-lsp)
};

// What linting one file produced.
struct FileResult {
  std::string path;
  FileKind kind = FileKind::Unknown;
  std::shared_ptr<SourceManager> sm; // owns the text quoted by findings
  FileID file = 0;
  std::vector<Diagnostic> findings;  // sorted by position, then rule ID
  std::string internalError;         // non-empty: could not lint (unreadable, bad config)
  bool skipped = false;              // not a file qlint knows
};

// Detects the kind of `path` from its extension and, for .yaml/.json/.cfg, its content.
FileKind detectFileKind(const std::string &path, std::string_view text);

// The kind of text without a file name (standard input without --stdin-filename), from the
// content checks detectFileKind makes: HMCT keys in a JSON object, a .qspec's first keyword,
// msModelSlim's apiversion, an AMCT `field:` or `message {`.
FileKind detectContentKind(std::string_view text);

// Lints one file; `-` is standard input (Options::stdinFilename). Thread-safe with respect to
// other calls.
FileResult lintFile(const std::string &path, const Options &opts);
// Lints many files with a small thread pool; results in input order.
std::vector<FileResult> lintFiles(const std::vector<std::string> &paths, const Options &opts);

// ---- Output ---------------------------------------------------------------------------------
enum class Format { Text, Json, Sarif, Github };
void printText(std::ostream &os, const std::vector<FileResult> &results, bool color = false);
void printJson(std::ostream &os, const std::vector<FileResult> &results);
void printSarif(std::ostream &os, const std::vector<FileResult> &results);
void printGithub(std::ostream &os, const std::vector<FileResult> &results);
void printStatistics(std::ostream &os, const std::vector<FileResult> &results);
// The GitHub fingerprint of a finding: a hash of the rule and the trimmed source line, plus
// ":N" for the N-th identical one in the file.
std::string lineHash(const std::string &ruleId, std::string_view lineText);

// ---- Fixes ------------------------------------------------------------------------------------
// Applies the fix-its of `findings` (non-overlapping, first wins) to `text`. Returns the new text
// and, in `applied`, how many findings were fixed (their `code`s in `fixedRules`).
std::string applyFixes(const std::string &text, const std::vector<Diagnostic> &findings,
                       unsigned &applied, std::vector<std::string> *fixedRules = nullptr);
// A unified diff between two versions of `path`.
std::string unifiedDiff(const std::string &path, const std::string &before, const std::string &after);

} // namespace qspec::lint
