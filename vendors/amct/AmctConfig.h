// The AMCT simple-config document model: parses a `.cfg` (protobuf text format) strictly against
// the project's AMCT messages (vendors/amct/proto/) and returns a qspec-typed document with line
// numbers, and prints a document back to text. Used by the emitter (it lowers a plan to an
// AmctDocument and prints it), by the reader (AmctReader.h) and by qlint. Strict means
// libprotobuf's TextFormat::Parser without partial messages: unknown fields, a singular field given
// twice, two members of one oneof and missing `required` fields are all errors.
#pragma once

#include "vendors/amct/AmctRules.h"
#include "ir/Diagnostics.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace qspec::amct {

// A string entry of a repeated field, with where it was written.
struct Entry {
  std::string text;
  uint32_t line = 0, col = 0;
};

// One quantization recipe (global, or one override entry), as written.
struct Recipe {
  bool present = false; // the block exists (calibration_config / retrain_* ...)
  // Activations.
  std::string actAlgo;               // "ifmr" | "hfmg" | "ulq" | "" (absent)
  std::optional<DataType> actType;   // dst_type
  std::optional<bool> asymmetric;    // PTQ
  std::optional<uint32_t> numOfBins; // hfmg
  // ifmr (written values; checks apply AMCT's defaults 0.7, 1.3, 0.01, 0.999999).
  std::optional<double> searchStart, searchEnd, searchStep, maxPercentile;
  std::optional<double> clipMax, clipMin;
  std::optional<bool> fixedMin;
  std::optional<bool> perChannelAct; // KV-cache quant_granularity (per_channel = true)
  bool hasClip = false;              // clip_max_min block present
  // Weights.
  std::string wtsAlgo;                // "arq" | "ada" | "ulq" | "" (absent)
  std::optional<DataType> weightType; // QAT dst_type
  std::optional<uint32_t> quantBits;  // PTQ quant_bits
  std::optional<bool> channelWise;
  std::optional<double> dmqStrength; // dmq_balancer present (PTQ)
  // ada_quantize (written values; defaults beta 20 -> 2, warm_start 0.2, reg_param 0.01).
  std::optional<double> adaBetaStart, adaBetaEnd, adaWarmStart, adaRegParam;
  bool hasDmq = false;
  // Prune (QAT / compressed).
  bool hasPrune = false;
  std::string pruner; // "filter" | "n_out_of_m" | "" (prune_config empty)
  bool prunerAlgoPresent = false;
  std::optional<double> pruneRatio;
  std::optional<bool> ascendOptimized; // balanced_l2_norm_filter_prune.ascend_optimized
  std::optional<uint32_t> updateFreq;  // l1_selective_prune.update_freq
  uint32_t line = 0;
  uint32_t pruneLine = 0; // the global prune_config's line (QAT; 0: use `line`)
};

struct Override {
  std::string key; // layer_name or layer_type
  Recipe recipe;
  uint32_t line = 0, col = 0;
};

struct AmctDocument {
  ConfigKind kind = ConfigKind::PTQ;
  // The text also parses strictly as another root message (e.g. a file with only skip_layers
  // is both PTQ and QAT); `kind` is then the first in detection order (PTQ, QAT, KV-cache).
  bool ambiguous = false;
  std::optional<uint32_t> batchNum;
  uint32_t batchNumLine = 0, batchNumCol = 0; // where batch_num is written
  std::optional<bool> activationOffset;       // PTQ / KV
  std::optional<bool> doFusion;               // PTQ
  bool forceFp16 = false;                     // fakequant_precision_mode: FORCE_FP16_QUANT
  std::vector<Entry> skipLayers, skipLayerTypes, skipFusionLayers;
  std::vector<Entry> quantSkipLayers, quantSkipTypes, pruneSkipLayers, pruneSkipTypes; // QAT
  Recipe global;
  std::vector<Override> typeOverrides, nameOverrides;
  std::vector<Entry> kvQuantLayers; // KV-cache
};

// AMCT's prune-only configuration: a QAT file that prunes (a global or entry prune_config) and
// has no retrain_* block anywhere. Its layers are pruned and keep float weights and activations.
bool isPruneOnly(const AmctDocument &doc);

struct ParseError {
  uint32_t line = 0, col = 0; // 1-based; 0 = no position (e.g. missing required fields)
  std::string message;        // libprotobuf's message
};

// Parses `text` as `kind`. On failure returns false with every parser error in `errors`.
// `locations` false leaves the document's line/col at 0 (parse errors keep theirs): the
// emitter, which reports findings at the target, skips libprotobuf's per-field location tree.
bool parseAmctConfigAs(const std::string &text, ConfigKind kind, AmctDocument &doc,
                       std::vector<ParseError> &errors, bool locations = true);
// A document parsed (with locations) from `text` as `kind`, kept on this thread for a reader of
// exactly these bytes and kind: the emitter's round trip parses the file it writes and remembers
// the document; the read-back of that file (readAmct, run next on the same thread by
// emit::emitTargets) takes it instead of parsing the same bytes again. The slot is
// vendors/Parsed.h's (one per thread for every vendor's documents), tagged with the kind.
void rememberParsed(std::string_view text, ConfigKind kind, AmctDocument doc);
bool takeParsed(std::string_view text, ConfigKind kind, AmctDocument &doc);
// Which root message a file that parses as none of them was judged against: the one that lacks
// the fewest of the file's top-level fields, and the first top-level field (in file order) that
// only this message defines, which decides it. `field` empty: the top-level fields do not tell
// (the message whose parse got furthest was taken).
struct KindEvidence {
  ConfigKind kind = ConfigKind::PTQ;
  std::string field;
  uint32_t line = 0, col = 0;
};
// Detects the message type: tries PTQ, QAT/prune, then KV-cache, and returns the first that
// parses strictly. On failure `errors` holds the errors of the message the file's top-level
// fields point to (KindEvidence; a PTQ-only field in a QAT file is reported at that field, not
// where AMCTConfig meets the first QAT block), else of the one that got furthest (PTQ preferred on
// ties); `triedErrors` (if given) one line per message, "Message: l:c: text"; `evidence` (if
// given) why that message.
bool parseAmctConfig(const std::string &text, AmctDocument &doc, std::vector<ParseError> &errors,
                     std::vector<std::string> *triedErrors = nullptr,
                     KindEvidence *evidence = nullptr);
// A config of an AMCT API this document model does not read: a distillation config
// (`distill_group`, `group_size`, ...) or an auto-search config (`compress_ratio`, the target of
// AMCT's automatic channel-prune or bit-width search). Told by its first top-level field that only
// such a config has (no root message here defines it): `api` names the config, `field` the field,
// at its line and column. nullopt: no such field.
struct OtherConfig {
  std::string api, field;
  uint32_t line = 0, col = 0;
};
std::optional<OtherConfig> otherAmctConfig(const std::string &text);
// The same, reporting err_amct_parse at the position in `file` (a SourceManager file).
bool parseAmctConfig(FileID file, AmctDocument &doc, DiagnosticEngine &diags);

// Prints `doc` as its root message (doc.kind: PTQ, QAT or KV-cache) with libprotobuf's
// TextFormat::Printer: fields in field-number order, strings UTF-8 with C escapes. What is written
// is exactly what the document holds: a recipe's blocks are written when `present` (QAT: data and
// weight blocks when an algorithm is set), optional fields when set. Lists keep the document's
// order.
std::string printAmctConfig(const AmctDocument &doc);
// The same for a document printed once and dropped: its strings are moved, not copied.
std::string printAmctConfig(AmctDocument &&doc);

} // namespace qspec::amct
