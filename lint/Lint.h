// qlint: the lint framework. Rules are rows of lint/Rules.def (stable ID, category, file kind,
// default severity, fixable, one-line summary); each rule is one function in one file under
// lint/rules/<category>/. A run lints files (in parallel), applies suppression comments, the
// project config (.qlint.yaml) and command-line selection, then prints findings in one of four
// formats and optionally applies safe fixes.
#pragma once

#include "ir/Diagnostics.h"
#include "vendors/FileKind.h"

#include <cstdint>
#include <functional>
#include <iosfwd>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace qspec::frontend {
class InputReader;
}

namespace qspec::lint {

using vendors::FileKind;
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
// A rule ID that was split or renamed (lint/DeprecatedRules.def): as a selector it selects
// exactly its replacements, so old settings and suppression comments keep their meaning.
struct DeprecatedRule {
  const char *id;
  std::vector<std::string> replacements; // current rule IDs, in the table's order
  const char *why;                       // what became of it
};
const std::vector<DeprecatedRule> &deprecatedRules();
const DeprecatedRule *findDeprecatedRule(std::string_view id);
// The deprecated IDs whose replacements include `rule` (SARIF deprecatedIds).
std::vector<std::string> deprecatedIdsOf(const RuleInfo &rule);
// Does selector `sel` (an ID, a deprecated ID, a category, an ID prefix or ALL) select `rule`?
bool selectorMatches(std::string_view sel, const RuleInfo &rule);
bool isValidSelector(std::string_view sel);
// The rule's doc page (docs/lint/<category>/<name>.md, embedded), or nullptr.
const char *ruleDoc(const RuleInfo &r);
// Prints rule `id`'s doc page (or, without one, its table row); false if no rule has that ID.
bool explainRule(std::ostream &os, std::string_view id);

// Options of one run (command line merged later with each file's .qlint.yaml).
struct Options {
  std::vector<std::string> select, ignore; // selectors; empty select = config's or all
  bool werror = false;                     // every warning becomes an error
  std::vector<std::string> werrorRules;    // -Werror=SEL
  std::string against;                     // git revision for spec-tuning-too-many-changes
  std::string anchor;                      // anchor .qspec for the same rule
  std::string amctHardware;                // e.g. Ascend950PR, for amct-sparsity-unsupported-soc
  std::string amctFramework;               // pytorch | tensorflow | onnx | caffe | "" (not said)
  std::string inventory, scores;           // --inventory / --scores for .qspec files; the
                                           // inventory also for vendor files
  std::string onnx;                        // --onnx: the model graph for vendor files
  std::string root; // --root: includes and input files of a .qspec must be inside (see
                    // frontend::FrontendOptions::root); "" = .qlint.yaml's `confine`, else none
  bool useConfig = true;          // read .qlint.yaml
  std::string stdinFilename;      // --stdin-filename: path `-` (standard input) is linted
                                  // as this file (kind, .qlint.yaml, shown name)
  unsigned jobs = 0;              // 0 = auto
  std::vector<std::string> named; // paths as named on the command line ('-' too): one
                                  // of no known kind is a lint-unknown-file finding,
                                  // not skipped as in a directory walk
  bool hook = false;              // --hook (pre-commit): a named file that is not a
                                  // .qspec, a vendor config known by its content or a
                                  // spec's input is skipped without a word
  bool checkTargets = true;       // .qspec: run every declared target's emitter and
                                  // translation validation, as qcc --emit=all does
  SourceManager::Overlay overlay; // unsaved texts read instead of the disk (qspec-lsp)
  std::shared_ptr<frontend::InputReader> inputReader; // reads inventory and scores (null: the
                                                      // readers, each time; qspec-lsp: a cache)
  // Asked between the stages of a check (parse, build, each pass, the targets, the rules); once
  // it answers true the check stops there and its result is marked `abandoned` (qspec-lsp: a
  // newer edit, a cancelled request, a spent budget). Null: never.
  std::function<bool()> stop;
};

// What linting one file produced.
struct FileResult {
  std::string path;
  FileKind kind = FileKind::Unknown;
  std::shared_ptr<SourceManager> sm; // owns the text quoted by findings
  FileID file = 0;
  std::vector<Diagnostic> findings; // sorted by position, then rule ID
  std::string internalError;        // non-empty: could not lint (unreadable, bad config)
  bool skipped = false;             // not a file qlint knows
  bool abandoned = false;           // Options::stop ended the check early: findings incomplete
};

using vendors::detectContentKind;
using vendors::detectFileKind;

// The files to lint for the command line's inputs: a file as given; a directory searched
// recursively (sorted), skipping hidden entries, files with other extensions, files git ignores
// (.gitignore etc., when the folder is in a git work tree) and files the governing .qlint.yaml's
// `exclude` globs match (unless Options::useConfig is off).
std::vector<std::string> expandInputs(const std::vector<std::string> &inputs, const Options &opts);

// pre-commit passes the changed files: a file named in `inputs` that qlint does not lint itself
// (an inventory, a scores file) is replaced by the results of the .qspec files that read it (the
// specs of its git work tree, or of its folder outside one, linted to see what they read). A file
// no spec reads stays.
void lintSpecsReading(std::vector<FileResult> &results, const std::vector<std::string> &inputs,
                      const Options &opts);

// What qlint lints for the command line's `inputs`: expandInputs, then lintFiles (a file named in
// `inputs` fails closed: one of no known kind is a lint-unknown-file finding; Options::named is
// set to `inputs`), then lintSpecsReading. Results with an internalError could not be linted.
// qlint and the Python module's qspec.lint both run this.
std::vector<FileResult> lintInputs(const std::vector<std::string> &inputs, Options &opts);

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
// Each finding's fingerprint, in order: lineHash + ":N", N counting identical hashes in the file,
// so two identical findings stay two (SARIF partialFingerprints, the baseline).
std::vector<std::string> fingerprints(const FileResult &r);

// ---- Baseline -------------------------------------------------------------------------------
// A baseline (--write-baseline FILE) records every finding of a run as (path relative to the
// baseline's folder, rule, fingerprint); --baseline FILE drops the findings it records, so only
// new ones are reported (and fail). Returns false with `error` (unreadable or invalid file).
bool writeBaseline(const std::string &file, const std::vector<FileResult> &results,
                   std::string &error);
bool applyBaseline(const std::string &file, std::vector<FileResult> &results, unsigned &dropped,
                   std::string &error);

// ---- Fixes ------------------------------------------------------------------------------------
// Applies the fix-its of `findings` (non-overlapping, first wins) to `text`. Returns the new text
// and, in `applied`, how many findings were fixed (their `code`s in `fixedRules`).
std::string applyFixes(const std::string &text, const std::vector<Diagnostic> &findings,
                       unsigned &applied, std::vector<std::string> *fixedRules = nullptr);
// Fixes one file to a fixed point: applies the safe fixes, re-lints the fixed text (through an
// overlay, nothing written), and repeats until no fix applies, at most kMaxFixRounds times.
constexpr unsigned kMaxFixRounds = 8;
struct FixOutcome {
  std::string before, after;      // the file's text and the fixed text
  unsigned applied = 0;           // findings fixed, over all rounds
  std::vector<std::string> rules; // their rule IDs, sorted, unique
  bool stable = false;            // the last round found nothing left to fix
};
FixOutcome fixUntilStable(const FileResult &r, const Options &opts);
// A unified diff between two versions of `path`.
std::string unifiedDiff(const std::string &path, const std::string &before,
                        const std::string &after);

} // namespace qspec::lint
