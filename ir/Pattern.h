// Module-name patterns with msModelSlim's glob meaning (wcmatch fnmatch with BRACE):
// whole-name match, case-sensitive, `*` crosses dots, `?`, `[...]` / `[!...]` / `[[:alnum:]]`,
// `\` escapes, brace lists `{a,b}` (nested), numeric ranges `{0..63}` (`{00..10}` zero-padded,
// `{0..10..2}` stepped) and character ranges `{a..e}`. A leading `!` is literal.
//
// qspec adds one construct: `{name}` (a bare identifier in braces) matches one decimal number
// and binds it, so `model.layers.{i}.mlp.gate_proj` ties modules of the same block together.
//
// Brace lists and ranges are never expanded into strings: a range matches by reading the digits
// at that position, so `{0..99999999}` costs nothing.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace qspec {

class Pattern {
public:
  // Compiles `text`; on failure returns nullopt and sets `error` (a phrase, no location).
  static std::optional<Pattern> compile(std::string_view text, std::string &error);

  // True iff the whole `name` matches. `captures` (if given) receives the values bound by
  // `{name}` variables, in order of appearance.
  bool matches(std::string_view name, std::vector<std::string_view> *captures = nullptr) const;
  // The same answer by the plain VM alone (no fast paths, fresh memory per call): the reference
  // `matches` is tested against.
  bool matchesReference(std::string_view name,
                        std::vector<std::string_view> *captures = nullptr) const;

  const std::string &text() const { return text_; }
  // True if the pattern has no glob syntax: it matches exactly one string, `literal()`.
  bool isLiteral() const { return literal_; }
  const std::string &literal() const { return literalText_; }
  // The longest literal prefix every match starts with (for indexing).
  const std::string &literalPrefix() const { return prefix_; }
  // The longest literal suffix every match ends with (for indexing; "" if none).
  const std::string &literalSuffix() const { return suffix_; }
  // Literal runs every match contains, each read without interruption, in program order. The
  // first is the prefix when `literalPrefix()` is not empty, the last the suffix when
  // `literalSuffix()` is not empty.
  const std::vector<std::string> &requiredLiterals() const { return required_; }
  // Only literal characters and `*`: matched by finding the literal runs left to right.
  bool starsOnly() const { return starsOnly_; }
  // For starsOnly(): the literal runs between literalPrefix() and literalSuffix(), in order.
  const std::vector<std::string> &starRuns() const { return starRuns_; }
  // Literal strings one of which every match starts with, brace lists and small ranges at the
  // front expanded ("a.{1,2}.b*" -> "a.1.b", "a.2.b"); at most 64, else just literalPrefix().
  const std::vector<std::string> &literalPrefixes() const { return prefixes_; }
  // Names of `{name}` variables, in order.
  const std::vector<std::string> &variables() const { return vars_; }
  // Number of instructions (a size measure for limits).
  size_t size() const { return prog_.size(); }
  // True if `matches` runs the pattern as a DFA (long programs without variables whose numeric
  // ranges have few values); for tests and benchmarks.
  bool runsOnDfa() const { return dfa_; }

  // Instruction set of the matcher (a small backtracking VM with a visited set, so matching is
  // O(instructions x name length) whatever the pattern).
  enum class Op : uint8_t {
    Char,
    Any,
    Class,
    Star,
    Split,
    Jmp,
    NumRange,
    CharRange,
    CapStart,
    CapEnd,
    Match
  };
  struct Inst {
    Op op;
    char ch = 0;
    bool negate = false;
    uint32_t x = 0, y = 0;   // Split targets / Jmp target
    uint32_t cls = 0;        // index into classes_
    uint64_t lo = 0, hi = 0; // NumRange bounds (inclusive), CharRange
    uint64_t step = 1;
    uint32_t width = 0; // NumRange: zero-padded width (0 = no padding)
    uint32_t cap = 0;   // capture index
  };

private:
  std::string text_;
  bool literal_ = false;
  std::string literalText_;
  std::string prefix_;
  std::string suffix_;
  std::vector<std::string> required_;
  std::vector<std::string> prefixes_;
  bool simple_ = false; // only Char, Any, Class and `*`: matched without the VM
  // Only Char and `*`: the literal runs between prefix_ and suffix_, found left to right.
  bool starsOnly_ = false;
  std::vector<std::string> starRuns_;
  uint32_t minLength_ = 0; // no shorter name matches
  // The Split of a `*` that ends the pattern (it is followed by Match): the VM accepts as soon as
  // it gets there, instead of reading the rest of the name one character at a time.
  uint32_t tailStar_ = UINT32_MAX;
  // Long programs of single-character steps only (no variables; ranges of few values) run as a
  // lazily built DFA (one state per set of program positions, cached per thread), so a name costs
  // one table step per character once its states exist.
  bool dfa_ = false;
  // The program the DFA reads: prog_ with small numeric ranges spelled out as alternations of
  // their texts (empty when prog_ has no range: the DFA reads prog_).
  std::vector<Inst> dfaProg_;
  const std::vector<Inst> &dfaProgram() const { return dfaProg_.empty() ? prog_ : dfaProg_; }
  uint64_t id_ = 0; // identifies the program for the per-thread DFA cache
  // byte -> class (bytes no instruction tells apart share one), class -> one of its bytes
  void byteClasses(std::vector<uint8_t> &byteClass, std::vector<uint8_t> &classByte) const;
  int matchDfa(std::string_view name) const; // 1 / 0, or -1 when the DFA outgrew its budget
  // After matches' quick checks (the prefix and suffix are there): the glob with `*` backtracking
  // to the last star only (exact when every item is one character), and the VM as
  // matchesReference runs it, on per-thread memory, from the end of the prefix.
  bool matchSimple(std::string_view name, std::vector<std::string_view> *captures) const;
  bool matchVm(std::string_view name, std::vector<std::string_view> *captures) const;
  bool reads(const Inst &in, unsigned char c) const; // a single-character instruction
  std::vector<std::string> vars_;
  std::vector<Inst> prog_;
  std::vector<std::vector<bool>> classes_; // 256 entries each
  friend class PatternCompiler;
};

// Does `text` contain glob syntax?
bool hasGlobSyntax(std::string_view text);
// Escapes glob metacharacters so the result matches `name` literally.
std::string escapeGlob(std::string_view name);

} // namespace qspec
