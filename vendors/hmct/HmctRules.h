// HMCT `quant_config` facts and rule checks, shared by the hmct-json emitter (on what it is about
// to write) and qlint (on a quant_config file it parsed). Source: ../shared/reference/horizon.md
// sections 1 and 5. No nlohmann_json type appears here.
//
// API summary
//   vocabularies    isQtype / qtypeForTier / isDualInt16OpType / isKnownMarch /
//                   qtypeAllowedOnMarch / isCalibrationType / isBiasMetric / kModelConfigKeys...
//   names           hasCommentMarker(name): `//` or `/*` (HMCT's comment stripper corrupts them)
//   reader          stripHmctComments(text) (HMCT's regex, string boundaries ignored);
//                   parseQuantConfig(text, file, doc, diags): sections and entries with lines
//   document checks checkQuantConfig(doc) -> issues (qlint maps them to its rule IDs)
#pragma once

#include "ir/Diagnostics.h"
#include "ir/IR.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace qspec::hmct {

// ---- Vocabularies ------------------------------------------------------------------------

// qtype values HMCT 2.8.3 accepts in all_node_type / op / node entries (1.5), the unconfirmed
// mx* and int4 ones excluded.
bool isQtype(std::string_view q);
// qspec tier -> HMCT qtype: int8 int16 dual-int16 float16 float32; "" for int4 (none).
std::string qtypeForTier(ir::Tier t);
// Conv, MatMul, Gemm, ConvTranspose: the only op types with dual-int16 / int16-ec.
bool isDualInt16OpType(std::string_view opType);
bool isKnownMarch(std::string_view march);
// Per-march qtype check (horizon_nn): nash* all; bayes* no float16; bernoulli* int8 only.
bool qtypeAllowedOnMarch(std::string_view march, std::string_view qtype);
// int8, int16, float32.
bool isModelOutputType(std::string_view q);
// max kl fixed load default mix (plus the unconfirmed min-max, percentile).
bool isCalibrationType(std::string_view c);
// cosine-similarity mse mae mre sqnr chebyshev.
bool isBiasMetric(std::string_view m);
extern const std::vector<std::string>
    kTopLevelKeys; // model_config op_config subgraph_config node_config
extern const std::vector<std::string> kModelConfigKeys;
extern const std::vector<std::string> kActivationKeys;
extern const std::vector<std::string> kEntryKeys; // qtype input0 input1
extern const std::vector<std::string>
    kLegacyEntryKeys; // InputType OutputType InputType0 InputType1 ON

// ---- Names ----------------------------------------------------------------------------------

// True if `name` contains `//` or `/*`.
bool hasCommentMarker(std::string_view name);
// True if `name` is valid UTF-8 without NUL (JSON can carry it).
bool isValidUtf8(std::string_view name);

// ---- Reader -----------------------------------------------------------------------------------

// Removes `// ...` to end of line and `/* ... */` like HMCT's loader (regex over the whole text,
// string boundaries ignored). Newlines are kept so line numbers stay valid.
std::string stripHmctComments(std::string_view text);

// A JSON value with the line and column its key starts on, where the parser read that key (an
// array's item: its array's place; the root: 1:1). 1-based, in the text as written: HMCT's comment
// stripping keeps every line and, before a comment, every column. A value nested deeper than 200
// levels is kept as a null, with nothing below it.
struct JsonValue {
  enum Kind { Null, Bool, Integer, Float, String, Array, Object } kind = Null;
  std::string text; // String: the value; Integer/Float: the number as written; Bool: true/false
  std::vector<JsonValue> items;
  std::vector<std::pair<std::string, JsonValue>> members; // Object, in file order
  uint32_t line = 0, column = 0;
  const JsonValue *get(std::string_view key) const;
};

struct QuantConfigDoc {
  FileID file = 0;
  JsonValue root;
  bool hadComments = false;
};

// Strips comments as HMCT does, parses strict JSON; on a syntax error reports
// err_hmct_json_syntax at the line and returns false.
bool parseQuantConfig(const std::string &text, FileID file, QuantConfigDoc &doc,
                      DiagnosticEngine &diags);
// The same without a source file (a buffer qcc just wrote): on a syntax error returns false with
// nlohmann_json's message and the 1-based line and column.
bool parseQuantConfigText(std::string_view text, QuantConfigDoc &doc, std::string &error,
                          uint32_t &line, uint32_t &column);

struct Issue {
  // The check's stable ID (kCheckIDs); qlint maps each to a rule, the reader to a diagnostic.
  std::string check; // top-level-key, config-key, qtype, dual-int16-op, model-output-type,
                     // calibration-type, value-type, legacy-key, clamped-value, comment-in-name,
                     // lowercase-op-type, missing-calibration-type, search-config,
                     // op-type-unknown, node-is-op-type
  bool error = true;
  uint32_t line = 0, column = 0;
  std::string message;
};
// Every check ID checkQuantConfig can give, in one list (HMCT's own load-time refusals first).
extern const std::vector<std::string> kCheckIDs;
// HMCT's load rules (strict keys, vocabularies, value types) plus qspec's warnings (legacy keys,
// clamped values, `//` in names, missing calibration_type). `march` = "" skips the march check.
std::vector<Issue> checkQuantConfig(const QuantConfigDoc &doc, std::string_view march = "");

// "accepted", "accepted with warnings: <checks>", or "refused: <first error's check>".
std::string classifyQuantConfig(const std::vector<Issue> &issues);

} // namespace qspec::hmct
