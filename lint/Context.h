// What a rule sees: the file, its kind's typed input, and a way to report. Internal to lint/
// (rules and the driver).
#pragma once

#include "ir/IR.h"
#include "lint/Lint.h"
#include "lint/readers/Located.h"

#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

namespace qspec::amct {
struct AmctDocument;
struct Finding;
} // namespace qspec::amct
namespace qspec::msmodelslim {
struct Issue;
}
namespace qspec::hmct {
struct Issue;
}
namespace qspec::vendors::ct {
struct Issue;
}

namespace qspec::lint {

// What every rule sees: the file, the run's options and a way to report. Each file kind has its
// own input type below, filled by that kind's reader (lint/Lint.cpp); a rule's handler takes the
// type of its Rules.def kind (InputFor), never another kind's state.
struct LintContext {
  SourceManager &sm;
  FileID file = 0;
  std::string path;
  FileKind kind = FileKind::Unknown;
  const Options &opts;

  std::vector<Diagnostic> findings;

  LintContext(SourceManager &s, const Options &o) : sm(s), opts(o) {}
  LintContext(const LintContext &) = delete;
  LintContext &operator=(const LintContext &) = delete;

  // Records a finding of `rule` at `range` with the rule's default severity.
  Diagnostic &report(RuleID rule, SourceRange range, std::string message);
  // Adds a note to a finding.
  Diagnostic &note(Diagnostic &parent, SourceRange range, std::string message);
  // A range for 1-based line/col (whole rest of the token on that line if `len` is 0).
  SourceRange at(uint32_t line, uint32_t col = 1, uint32_t len = 0) const;
  // The range of the whole line `line` including its newline (for deleting it).
  SourceRange wholeLine(uint32_t line) const;
};

// .qspec: the typed spec after running every pass (even after errors), and every diagnostic the
// frontend and the passes reported (their codes are DiagID names).
struct SpecInput : LintContext {
  using LintContext::LintContext;
  ir::Spec *spec = nullptr;
  bool specBuilt = false;    // buildSpec succeeded
  bool specResolved = false; // passes ran with an inventory
  std::vector<Diagnostic> compilerDiags;
};

// A vendor file: the model --inventory names (read once per run), or null.
struct VendorInput : LintContext {
  using LintContext::LintContext;
  std::shared_ptr<const ir::Inventory> inventory;
};

// YAML / JSON vendor files: the located tree (nullptr when the file did not parse; `parseError`
// then says why).
struct TreeInput : VendorInput {
  using VendorInput::VendorInput;
  const LNode *tree = nullptr;
  std::optional<ParseError> parseError;
  LNode treeStorage; // what `tree` points at
};

// msModelSlim practices: the vendor model's findings (msmodelslim::checkPractice), nullptr when
// the file did not parse. Rules pick theirs by check (PracticeUtil.h).
struct PracticeInput : TreeInput {
  using TreeInput::TreeInput;
  const std::vector<msmodelslim::Issue> *practiceIssues = nullptr;
  std::vector<msmodelslim::Issue> issueStorage;
};

// HMCT quant_configs: the vendor model's checks (hmct::checkQuantConfig), nullptr when the file
// did not parse. Rules pick theirs by check (QuantConfigUtil.h).
struct QuantConfigInput : TreeInput {
  using TreeInput::TreeInput;
  const std::vector<hmct::Issue> *hmctIssues = nullptr;
  std::vector<hmct::Issue> issueStorage;
};

// AMCT files: the strict parse (document valid only when `amctParsed`) and, when it parsed, the
// vendor model's value checks (amct::checkDocument with --amct-hardware/--amct-framework), run
// once per file; rules pick theirs by check (AmctUtil.h).
struct AmctInput : VendorInput {
  using VendorInput::VendorInput;
  const amct::AmctDocument *amctDoc = nullptr;
  bool amctParsed = false;
  struct AmctError {
    uint32_t line = 0, col = 0; // 0 = no position (missing required fields)
    std::string message;
  };
  std::vector<AmctError> amctErrors;
  std::string amctTried; // what each root message said
  // When no root message accepts the file: the top-level field that decided which message's
  // errors are reported (amct::KindEvidence), as a note's text and place; empty: none decided.
  std::string amctKindNote;
  uint32_t amctKindLine = 0, amctKindCol = 0;
  const std::vector<amct::Finding> *amctFindings = nullptr;
  std::shared_ptr<amct::AmctDocument> docStorage;
  std::vector<amct::Finding> findingStorage;
};

// llm-compressor recipes and compressed-tensors quantization_configs: the vendor model's checks
// (vendors::ct::checkDocument, against --inventory when given), run once per file; rules pick
// theirs by check (lint/rules/llmc/LlmcUtil.h).
struct RecipeInput : VendorInput {
  using VendorInput::VendorInput;
  std::vector<vendors::ct::Issue> ctIssues;
};

// The input type of the rules of each file kind (Any and Unknown: the common part only).
template <FileKind K> struct InputFor { using type = LintContext; };
template <> struct InputFor<FileKind::QSpec> { using type = SpecInput; };
template <> struct InputFor<FileKind::MsModelSlim> { using type = PracticeInput; };
template <> struct InputFor<FileKind::Hmct> { using type = QuantConfigInput; };
template <> struct InputFor<FileKind::Amct> { using type = AmctInput; };
template <> struct InputFor<FileKind::CompressedTensors> { using type = RecipeInput; };

// Takes compiler diagnostics with one of `codes` out of ctx.compilerDiags and reports them as
// findings of `rule` (message with the compiler's ID appended, notes kept). Returns how many
// were taken.
unsigned takeCompilerDiags(SpecInput &ctx, RuleID rule, std::initializer_list<const char *> codes);
// True for a compiler code a rule of its own reports (so spec-invalid and spec-compiler-warning
// leave it alone, even when that rule is turned off).
bool hasOwnRule(const std::string &code);
// Reports the compiler diagnostics without a rule of their own whose severity `wanted` accepts as
// findings of `rule` (spec-invalid: errors, spec-compiler-warning: warnings).
void takeUnmapped(SpecInput &ctx, RuleID rule, bool (*wanted)(Severity));

// Held while the ANTLR lexer or parser runs (its runtime's shared caches are not thread-safe).
std::mutex &frontendMutex();

// Runs `git -C dir ARGS...` (no shell, standard error discarded); true if git exited with 0.
bool runGit(const std::string &dir, const std::vector<std::string> &args, std::string &out);

struct EffectiveRules;
// Drops the findings that suppression comments in the file silence and reports the suppressions
// that silence nothing (lint-unused-suppression). lint/Suppress.cpp.
void applySuppressions(FileResult &res, const EffectiveRules &rules);

// Rule entry points (one per file under lint/rules/), each taking its kind's input.
#define RULE(ENUM, ID, CAT, KIND, SEV, FIX, SUMMARY)                                               \
  void check##ENUM(InputFor<FileKind::KIND>::type &ctx);
#include "lint/Rules.def"
#undef RULE

} // namespace qspec::lint
