// compressed-tensors as llm-compressor writes it and vLLM reads it: the document model of a
// recipe's QuantizationModifier and of a checkpoint's quantization_config (one model: both carry
// config_groups, ignore and kv_cache_scheme), and the matching rules
// (docs/emitters/llm-compressor.md gives each rule with its source):
//
// 1. A target or ignore entry `re:P` matches a module name when Python's re.match(P, name) does: a
//    match anchored at the start only (a prefix). Any other entry matches a name equal to it.
// 2. compressed-tensors (when llm-compressor quantizes): ignore first; then name matches (exact
//    names, then `re:` patterns, each in sorted order) beat class-name matches; among groups naming
//    one target, the last group's scheme is the target's.
// 3. vLLM (when it loads): ignore first; then the first target, in the order the groups list them,
//    whose name matches; else the first target contained (case-insensitively) in the layer's class
//    name; else, for a fused layer, the first shard's target when every shard matches one.
// 4. Fused layers: vLLM loads q/k/v_proj as one qkv_proj and gate/up_proj as one gate_up_proj. An
//    ignore that takes some shards and not the others is refused by vLLM; shards quantized with
//    different schemes are loaded with one scheme (the first shard's), which this reader refuses.
#pragma once

#include "vendors/Reading.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace qspec::vendors::ct {

struct Loc {
  uint32_t line = 0, column = 0; // 1-based; 0 = not in the file
};

// QuantizationArgs as written (the library's defaults for keys left out).
struct Args {
  int numBits = 8;
  std::string type = "int"; // int | float
  bool symmetric = true;
  std::string strategy = "tensor"; // tensor | channel | group | block | token | tensor_group
  std::optional<int64_t> groupSize;
  bool dynamic = false;
  std::string observer = "minmax"; // "" when dynamic
  Loc at;
  // The scheme's identity: every field above but the location.
  std::string key() const;
};

struct Entry {
  std::string text; // a name, `re:PATTERN`, or a class name
  Loc at;
};

struct ConfigGroup {
  std::string name;
  std::vector<Entry> targets;
  std::optional<Args> weights, acts;
  Loc at;
  std::string key() const; // weights and acts
};

struct Doc {
  bool recipe = false; // a recipe (YAML with a QuantizationModifier) or a quantization_config
  std::string format;  // quantization_config "format" ("" in a recipe)
  std::vector<ConfigGroup> groups;
  std::vector<Entry> ignore;
  std::optional<Args> kvCache;
};

// Parses a recipe (the first QuantizationModifier of any stage) or a quantization_config (bare, or
// the "quantization_config" key of a whole config.json). False with `error` and its location.
bool parseDoc(std::string_view text, Doc &doc, std::string &error, Loc &at);

// A JSON string literal for `text` (also a YAML double-quoted scalar).
std::string quoted(std::string_view text);

// One target or ignore entry, compiled once.
class Matcher {
public:
  // False (with `error`) for a `re:` pattern qspec cannot read as Python does.
  static bool compile(const std::string &entry, std::unique_ptr<Matcher> &out, std::string &error);
  ~Matcher();
  bool isRegex() const { return regex_ != nullptr; }
  bool matchesName(std::string_view name) const;
  // vLLM's class-name rule: a plain entry contained in the class name (case-insensitive).
  bool containedIn(std::string_view className) const;
  // compressed-tensors' class-name rule: a plain entry equal to the class name.
  bool namesClass(std::string_view className) const;
  const std::string &text() const { return text_; }

private:
  Matcher() = default;
  std::string text_;
  struct Re;
  std::unique_ptr<Re> regex_;
};

// The fused layer vLLM makes of `name` (a shard: q_proj, k_proj, v_proj, gate_proj, up_proj), its
// name and the names of all its shards; nullopt for a module vLLM does not fuse.
struct Fused {
  std::string name;
  std::vector<std::string> shards;
};
std::optional<Fused> fusedLayerOf(std::string_view name);

// The compiled document: which group each rule gives a module.
class Rules {
public:
  // False (with `error` at `at`) when an entry does not compile.
  bool build(const Doc &doc, std::string &error, Loc &at);
  bool ignored(std::string_view name) const;
  const Entry *ignoredBy(std::string_view name) const; // null when not ignored
  // Rule 2 and rule 3 above: the group (index into doc.groups) or -1.
  int libraryGroup(std::string_view name, std::string_view className) const;
  int vllmGroup(std::string_view name, std::string_view className) const;
  // vLLM's rule for a fused layer: name, then class, then every shard matching by name.
  int vllmFusedGroup(const Fused &f, std::string_view className) const;

private:
  struct T {
    std::unique_ptr<Matcher> m;
    int group; // the last group naming this target (Python dict semantics)
  };
  std::vector<T> targets_; // in first-seen order
  std::vector<std::pair<std::unique_ptr<Matcher>, const Entry *>> ignore_;
  std::unordered_map<std::string, size_t> exact_; // plain target -> its position
  std::vector<size_t> regexes_;                   // positions of `re:` targets, ascending
  // The position of the first target (in order) whose name rule matches `name`, or -1.
  int firstNameMatch(std::string_view name) const;
};

// The module as vLLM loads it under `g` (nullptr = unquantized), in the IR's words.
ModuleReading readingOf(const ConfigGroup *g);

// vendors::ReadBack for target kind "llm-compressor": a recipe or a quantization_config, read
// module by module as vLLM loads the checkpoint; a file vLLM would refuse (or whose fused shards
// differ) is err_llmc_refused.
bool readCompressedTensors(const ir::Spec &spec, const ir::Target &target, std::string_view bytes,
                           VendorReading &out, DiagnosticEngine &diags);

// One target or ignore entry judged against an inventory's modules (by name, or by class for a
// plain entry): a syntax error, no module, or modules that only Python's reading matches (an
// unescaped '.' as any character, a prefix match): `extra` of them, the first `firstExtra`, and
// `fix` the pattern as its writer most likely meant it.
struct PatternVerdict {
  enum Kind { Ok, Syntax, NoMatch, OverMatch } kind = Ok;
  std::string error; // Syntax
  std::string firstExtra, fix;
  size_t extra = 0;
};
PatternVerdict judgePattern(const std::string &entry, const std::vector<ir::Module> &modules);

// Without an inventory: the digits of a `re:` entry's number that starts a name component and is
// left open -- followed by the pattern's end or by a quantified unescaped '.' ('layers.1.*',
// 'layers\.1') -- so that re.match also takes the numbers it begins (10-19); "" when none.
std::string numberPrefixDigits(const std::string &entry);

// Checks one `re:` entry against the inventory's names: no match (err_llmc_pattern_no_match), a
// match that only Python's reading makes (an unescaped '.' as any character, a prefix match;
// err_llmc_pattern_over_match, with the pattern it should be), or syntax
// (err_llmc_pattern_syntax). Reported at `range`; false when one was.
bool checkPattern(const std::string &entry, const std::vector<ir::Module> &modules,
                  SourceRange range, DiagnosticEngine &diags);

// ---- Checks of a recipe or quantization_config file (qlint) ----------------------------------

// One of the checks of checkDocument (CtChecks.def).
enum class Check : unsigned {
#define CT_CHECK(ENUM, ID) ENUM,
#include "vendors/compressed_tensors/CtChecks.def"
#undef CT_CHECK
};
const char *checkName(Check c); // "pattern-over-match", ...

struct Issue {
  Check check;
  bool error = true; // false: a warning
  Loc at;
  std::string message;
};

// The schemes vLLM (or qspec's reading) does not read: a width or type other than int4, int8 and
// fp8, a strategy other than tensor, channel, group, token; group without group_size; an
// activation format whose integer-weight group has no input_activations. In file order.
std::vector<Issue> schemeIssues(const Doc &doc);

// Every check of a recipe or quantization_config `text`: parse, `re:` syntax, the fused-layer rule
// (on the inventory's fused layers, else on the usual attention and MLP shard names and the shards
// the file names), unsupported schemes, and with `modules` (an inventory; null without) entries
// that match nothing or over-match; without it, `re:` entries whose number is left open.
std::vector<Issue> checkDocument(std::string_view text, const std::vector<ir::Module> *modules);

} // namespace qspec::vendors::ct
