// msModelSlim practice-YAML facts and rule checks, shared by the msmodelslim-yaml emitter (on
// what it is about to write) and qlint (on a practice file it parsed). Source of every fact:
// ../shared/reference/msmodelslim.md (section numbers below). No yaml-cpp type appears here.
//
// API summary
//   vocabularies      isKnownApiVersion / isEmittableApiVersion / isKnownProcessor /
//                     isAntiOutlierProcessor / isKnownSaver / isKnownRunner / kDtypes / kScopes
//   whitelist (1.1)   firstNonWhitelisted(text) -> index of the first refused byte, or npos
//   config_id         checkConfigId(id, why)
//   qconfig (3)       checkQConfig(role, qc, why) -> vendor 301 wording in `why` when illegal
//   patterns          SelectionCompressor: compress / verify (include/exclude lists)
//   YAML scalars      needsYamlQuotes(text): would PyYAML's SafeLoader retype it if written plain
//   reader            parsePractice(text, file, doc, diags): a qspec-typed tree with lines
//   document checks   checkPractice(doc) -> issues (qlint maps them to its rule IDs)
#pragma once

#include "ir/Diagnostics.h"
#include "ir/IR.h"
#include "ir/Select.h"

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace qspec::msmodelslim {

// ---- Vocabularies ------------------------------------------------------------------------

// Every plugin msModelSlim registers for `apiversion` (1.3).
bool isKnownApiVersion(std::string_view v);
// The ones qspec emits: modelslim_v1, multimodal_vlm_modelslim_v1, multimodal_sd_modelslim_v1
// and modelslim_v0.
bool isEmittableApiVersion(std::string_view v);
// Processor `type` tags of spec.process (4), savers included.
bool isKnownProcessor(std::string_view type);
const std::vector<std::string> &processorTypes();
// The keys a processor or saver `type` accepts (pydantic `extra=forbid`, reference 4 and 2), or
// nullptr for a type whose fields the reference does not list.
const std::vector<std::string> *processorKeys(std::string_view type);
// " (did you mean 'X'?)" for the option of `options` closest to `word` by edit distance (at
// most 1, 2 or 3 edits by length), or "" when none is that close.
std::string didYouMean(std::string_view word, const std::vector<std::string> &options);
// The anti-outlier (suppression) processors qspec writes ahead of linear_quant (7).
bool isAntiOutlierProcessor(std::string_view type);
// "iter_smooth, flex_smooth_quant, flex_awq_ssz, smooth_quant, quarot, adapt_rotation"
std::string antiOutlierList();
// Saver types for spec.save under `apiversion` (2); `*_distributed` only for VLM/SD.
bool isKnownSaver(std::string_view type, std::string_view apiversion);
bool isKnownRunner(std::string_view runner);
extern const std::vector<std::string> kDtypes; // float int8 int4 mxfp8 mxfp4 fp8_e4m3 placeholder
extern const std::vector<std::string> kScopes;
extern const std::vector<std::string>
    kMetadataKeys; // config_id score label verified_model_types verified_tags
// Spec keys allowed under `apiversion` (2); empty for unknown versions.
std::vector<std::string> specKeys(std::string_view apiversion);

// ---- Character whitelist (1.1) and names ---------------------------------------------------

// Index of the first byte msModelSlim's whitelist refuses (non-ASCII, tab, newline, # @ $ % ^
// & ; backtick...), or std::string_view::npos when the whole text passes.
size_t firstNonWhitelisted(std::string_view text);
// Describes byte `c` for a message: "'#'", "newline", "non-ASCII byte 0xc3".
std::string describeByte(unsigned char c);
// An include/exclude entry has at most this many characters (pydantic, reference 4).
constexpr size_t kMaxPatternChars = 200;
// config_id: non-empty, <= 200 characters, only [_A-Za-z0-9.-] (it is also the file stem).
bool checkConfigId(std::string_view id, std::string &why);

// ---- qconfig legality (3) -------------------------------------------------------------------

enum class Role { Act, Weight };
struct QConfig {
  std::string dtype, scope, method;
  bool symmetric = true;
};
// True if (scope, dtype, symmetric, method) is a registered quantizer for `role` under
// linear_quant. Otherwise `why` gets msModelSlim's own wording ("Code: 301, Message: No
// implementation found ...") or an enum error for unknown dtype/scope.
bool checkQConfig(Role role, const QConfig &qc, std::string &why);

// The attention processors (`dynamic_cache`: the KV cache; `fa3_quant`: FA3's Q, K and V inputs,
// each with one qconfig per quantized tensor, reference 3, 4; `online_quarot`: the Hadamard
// rotation of Q and K that the model adapter places ahead of attention, no qconfig).
bool isAttentionProcessor(std::string_view type);
// True if `qc` is a qconfig msModelSlim accepts for attention processor `type`. dynamic_cache:
// per_channel only (its processor's own check), and a registered activation quantizer (its
// DynamicCacheQuantizer is an AutoActQuantizer: checkQConfig(Role::Act)). fa3_quant: the dtype and
// scope vocabularies (its per-head quantizer is not dispatched through the registry). Otherwise
// `why` gets msModelSlim's wording.
bool checkAttentionQConfig(std::string_view type, const QConfig &qc, std::string &why);

// autoround_quant's check of one strategy role (its config validator; it does not consult the
// quantizer registry): the dtype and scope vocabularies; ext `group_size` given exactly when the
// scope is per_group, a positive integer there (`groupSize`: the value as written, null when
// absent; `groupSizeInt`: whether it is an integer); for the weight, ext `scale_dtype` (default
// bfloat16) float16, float32 or bfloat16 (`scaleDtype`, null when absent). Otherwise `why` gets
// msModelSlim's wording.
bool checkAutoroundRole(Role role, const QConfig &qc, const std::string *groupSize,
                        bool groupSizeInt, const std::string *scaleDtype, std::string &why);
// How autoround_quant reads a strategy role's dtype (its _parse_dtype): int8, int4 and float as
// written; any other dtype as int8 for the weight and float for the activation.
std::string autoroundDtype(Role role, const std::string &dtype);

// ---- YAML text --------------------------------------------------------------------------------

// True if a plain (unquoted) scalar `text` would not load back as the same string under PyYAML's
// SafeLoader or yaml-cpp: YAML 1.1 booleans and nulls (yes, No, on, OFF, ~, null), numbers
// (12, 0x1f, 1.5, .inf), anything with indicators, leading/trailing space, or empty.
bool needsYamlQuotes(std::string_view text);

// ---- include/exclude patterns (5) -----------------------------------------------------------

// What a pattern list must do with each inventory module: select it, never select it, or either.
enum class Want : uint8_t { DontCare, Must, Forbid };

// Compresses the Must modules into few patterns (`prefix.*` for whole subtrees, numeric brace
// ranges such as `model.layers.{0..3}.*`, `*` for a brace group of 100 or more alternatives where
// that selects the same modules) that select no Forbid module under msModelSlim's
// matching (exact equality, then glob; ir::Pattern). Sorted naturally, independent of the
// inventory's order. Falls back to escaped exact names; `verified` is false only if even those
// fail verification (a bug). Must empty -> {}; Forbid empty -> {"*"}.
//
// The name trie is built once per inventory and reused for every list (one per qconfig entry
// plus the exclude list); verification asks a ModuleSelector (the passes' shared one when given,
// else its own), so a list costs about its output, not patterns x modules.
class SelectionCompressor {
public:
  explicit SelectionCompressor(const ir::Inventory &inv,
                               const ir::ModuleSelector *selector = nullptr);
  ~SelectionCompressor();
  std::vector<std::string> compress(const std::vector<Want> &want, bool &verified) const;
  // True if `patterns` select every Must module and no Forbid module.
  bool verify(const std::vector<std::string> &patterns, const std::vector<Want> &want) const;
  // Cheaper matching for msModelSlim: each brace group of 100 alternatives or more becomes `*`
  // where the list still verifies (`experts.{0..127}` -> `experts.*` when every expert agrees). A
  // list that does not verify to begin with is only sorted.
  std::vector<std::string> simplify(std::vector<std::string> patterns,
                                    const std::vector<Want> &want) const;
  // Whether the name trie was built in one pass over the inventory's order (names subtree by
  // subtree), not through the fall-back table of every edge. The lists are the same either way.
  bool builtInOnePass() const;

private:
  struct Trie;
  // The modules `text` selects as msModelSlim tests it; false if it does not compile.
  bool selectText(const std::string &text, std::vector<uint32_t> &out) const;
  // verify(), counting into `hits` how many entries select each module.
  bool countHits(const std::vector<std::string> &patterns, const std::vector<Want> &want,
                 std::vector<uint32_t> &hits) const;
  void widenGroups(std::vector<std::string> &patterns, const std::vector<Want> &want,
                   std::vector<uint32_t> &hits) const;
  const ir::Inventory &inv_;
  std::unique_ptr<ir::ModuleSelector> own_;
  const ir::ModuleSelector *selector_;
  std::unique_ptr<Trie> trie_;
};

// ---- Reader -----------------------------------------------------------------------------------

// A loaded YAML value with its 1-based line/column. Merge keys (`<<`) are flattened the way
// msModelSlim's loader does; a key repeated in one mapping (after merging) is reported.
struct YamlValue {
  enum Kind { Null, Scalar, Sequence, Mapping } kind = Null;
  std::string text;                                   // Scalar: the text
  bool quoted = false;                                // Scalar: written quoted (always a string)
  std::vector<YamlValue> items;                       // Sequence
  std::vector<std::pair<std::string, YamlValue>> map; // Mapping, in file order
  uint32_t line = 0, col = 0;
  uint32_t keyLine = 0, keyCol = 0; // for mapping values: where the key is

  const YamlValue *get(std::string_view key) const;
  // Resolved like PyYAML's SafeLoader: "str", "bool", "int", "float", "null" (scalars only).
  std::string scalarType() const;
  bool isString() const { return kind == Scalar && scalarType() == "str"; }
  // Plain `1e-5`, `-2E+3` (an exponent, no '.'): a string to YAML 1.1, a number to msModelSlim's
  // pydantic models.
  bool isExponentNumber() const;
};

struct PracticeDoc {
  FileID file = 0;
  YamlValue root;
  std::string apiversion;
  std::vector<std::pair<std::string, uint32_t>>
      duplicateKeys; // key, line of the mapping's first key
};

// Parses a practice. On a YAML syntax error reports err_msmodelslim_yaml_syntax at the line and
// returns false. `file` is the SourceManager id of `text` (for locations).
bool parsePractice(const std::string &text, FileID file, PracticeDoc &doc, DiagnosticEngine &diags);

// One of the checks of checkPractice (PracticeChecks.def).
enum class Check : unsigned {
#define PRACTICE_CHECK(ENUM, ID) ENUM,
#include "vendors/msmodelslim/PracticeChecks.def"
#undef PRACTICE_CHECK
};
// The check's stable ID ("whitelist", "extra-key", ...).
const char *checkName(Check c);

// One finding of checkPractice. qlint maps its check to a rule ID.
struct Issue {
  Check check; // extra-key: an unknown key at any schema level, at the key
  bool error = true;
  uint32_t line = 0, col = 0;
  std::string message;
};
// The vendor's load-time rules (1-4, 2, 3) plus qspec's stricter emitter guarantees where marked
// (whitelist inside list items, 10.3). Pure: no diagnostics, no I/O.
std::vector<Issue> checkPractice(const PracticeDoc &doc);

// Verdict for the conformance table: "accepted", "not-a-target" (modelslim_convert), or
// "refused: <first error's check>".
std::string classifyPractice(const PracticeDoc &doc, const std::vector<Issue> &issues);

} // namespace qspec::msmodelslim
