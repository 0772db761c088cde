// AMCT vendor knowledge shared by the AMCT emitter, the AMCT reader and qlint: capacity tables per
// version, legal QAT activation/weight pairs, hardware limits, value ranges, and AMCT's exact error
// wording (reference: ../shared/reference/amct.md §2.5, §4). Plain qspec types only; no
// protobuf type appears here (the reader in AmctConfig.h gives a qspec-typed document).
//
// Contract: every `check*` function returns true when the value is legal; otherwise it returns
// false and fills `amctMessage` with the text AMCT itself prints for that input (so a qspec
// diagnostic can quote it), or a description where AMCT has no message.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace qspec::amct {

// Which root message a config is.
enum class ConfigKind { PTQ, QAT, KVCache };
const char *configKindName(ConfigKind k);  // "ptq", "qat", "kv-cache"
const char *rootMessageName(ConfigKind k); // "AMCTConfig", "AMCTRetrainConfig", ...

// An AMCT release: 9.0.0, 9.1.0, 9.2.0 (9.2.0-beta.2 and master behave as 9.2).
struct Version {
  int major = 9, minor = 2;
  bool atLeast(int ma, int mi) const { return major > ma || (major == ma && minor >= mi); }
};
// Parses "9.0.0", "9.1", "9.2.0-beta.2", "master"; nullopt if not a known release.
std::optional<Version> parseVersion(std::string_view text);
std::string knownVersionList(); // "9.0.0, 9.1.0, 9.2.0, master"

// The framework an AMCT config is for (AMCT ships one package per framework, reference §1, §3).
// Unknown: not said; checks that depend on type names or per-framework fields are then skipped.
enum class Framework { Unknown, PyTorch, TensorFlow, Onnx, Caffe };
// "pytorch", "tensorflow", "onnx", "caffe" in any letter case; nullopt for anything else.
std::optional<Framework> parseFramework(std::string_view text);
const char *frameworkName(Framework f); // "pytorch", ...
std::string knownFrameworkList();       // "pytorch, tensorflow, onnx, caffe"
// Layer types are PyTorch class names or ONNX op types (the capacity tables of §4.1 apply).
bool usesPyTorchTypes(Framework f);

// Activation/weight data types (DataType in QAT, CalibrationDataType / quant_bits in PTQ).
enum class DataType { Int4, Int8, Int16 };
const char *dataTypeName(DataType t); // "INT4", "INT8", "INT16"

// ---- Capacity (§4.1, §2.5): PyTorch class names --------------------------------------------
// The PyTorch layer type an ONNX op type stands for (Conv -> Conv2d, Gemm/MatMul -> Linear, ...).
std::string_view pytorchEquivalent(std::string_view type);
bool isPtqType(std::string_view type, Version v); // quantizable by PTQ
bool isQatType(std::string_view type, Version v); // quantizable by QAT
bool isQuantizableType(std::string_view type, ConfigKind k, Version v);
bool isChannelWiseType(std::string_view type);      // may carry channel_wise: true
bool isInt16Type(std::string_view type, Version v); // INT16 activations
bool isAdaType(std::string_view type);              // ada_quantize
bool isSixSevenBitType(std::string_view type);      // quant_bits 6, 7
bool isSymmetricOnlyType(std::string_view type);    // Conv3d
bool isDmqType(std::string_view type);              // dmq_balancer
bool isFuseType(std::string_view type);             // skip_fusion_layers
bool isFilterPruneType(std::string_view type);
bool isSelectivePruneType(std::string_view type);
// Keys of AMCT's generated per-layer JSON top level; a layer may not be named like one (PTQ).
bool isGlobalParameterName(std::string_view name);

// ---- Checks, with AMCT's wording ----------------------------------------------------------
// QAT activation/weight pair (§4.5 table; an unset dst_type counts as INT8).
bool checkQatPair(DataType act, DataType weight, Version v, std::string &amctMessage);
// PTQ INT16 activations need 9.1.0 or later (9.0.0 fails to parse the enum value).
bool checkPtqInt16(Version v, std::string &amctMessage);
// INT16 activations on a layer type (name empty: type-level message).
bool checkInt16Type(std::string_view type, std::string_view name, Version v,
                    std::string &amctMessage);
// INT16 activations on a Linear need a bias (AMCT's PTQ config code: 'int16_quantizable not
// support for <name> layer'); `hasBias` as the inventory says.
bool checkInt16Bias(std::string_view type, bool hasBias, std::string_view name,
                    std::string &amctMessage);
// channel_wise: true on a layer/type that rejects it (name empty: type-level message).
bool checkChannelWise(ConfigKind k, std::string_view type, std::string_view name,
                      std::string &amctMessage);
// QAT clip bounds: both or neither, max > 0, min < 0.
bool checkClip(std::optional<double> clipMax, std::optional<double> clipMin, std::string_view layer,
               std::string &amctMessage);
// PTQ weight bits ∈ {4, 6, 7, 8}; 6/7 only on Conv2d.
bool checkQuantBits(uint32_t bits, std::string_view type, std::string_view name,
                    std::string &amctMessage);
bool checkBatchNum(ConfigKind k, int64_t n, std::string &amctMessage);
bool checkNumOfBins(int64_t bins, std::string_view layer, std::string &amctMessage);
bool checkDmqStrength(double s, std::string_view layer, std::string &amctMessage);
bool checkPruneRatio(double r, std::string_view layer, std::string &amctMessage);
// IFMR: 0 < search_range_start < search_range_end, 0 < search_step <= end - start (PTQ, §4.4);
// KV-cache: start < end, step > 0 (§4.7).
bool checkIfmrSearch(ConfigKind k, double start, double end, double step, std::string_view layer,
                     std::string &amctMessage);
// IFMR max_percentile in (0.5, 1].
bool checkMaxPercentile(double p, std::string_view layer, std::string &amctMessage);
// ada_quantize: beta_range_start > beta_range_end, warm_start and reg_param in (0, 1).
bool checkAda(double betaStart, double betaEnd, double warmStart, double regParam,
              std::string_view layer, std::string &amctMessage);
// An --amct-hardware / amct-hardware name: "" when it has the shape of AMCT's chip names
// ("Ascend", a three-digit family, letters and digits: AMCT's --soc_version "AscendxxxA and
// AscendxxxB", ATC's Ascend310, Ascend310P3, Ascend910B; case, spaces, '-' and '_' ignored), else
// why not, with a did-you-mean among the families the project knows (Ascend95OPR ->
// Ascend950PR). A misspelt name would silently turn off the checks that depend on the chip.
std::string checkHardwareName(std::string_view name);
// 4:2 structured sparsity (n_out_of_m_pruner) on a hardware name such as "Ascend950PR".
bool checkNOutOfMHardware(std::string_view hardware, std::string &amctMessage);
// A layer name AMCT can carry: valid UTF-8, no NUL, not a global key (PTQ).
bool checkLayerName(ConfigKind k, std::string_view name, std::string &amctMessage);

// AMCT's duplicate message for `field` (§4.3): PTQ and QAT wording differ.
std::string repeatedItemsMessage(ConfigKind k, std::string_view field,
                                 const std::vector<std::string> &items);
// Python list repr of strings, e.g. ['conv1', "it's"].
std::string pythonListRepr(const std::vector<std::string> &items);
// The entries that occur more than once, in first-repeat order.
std::vector<std::string> findDuplicates(const std::vector<std::string> &items);

// ---- Whole-document checks (used by qlint on a parsed file, and by the emitter) ------------
struct AmctDocument; // AmctConfig.h

// One of the checks of checkDocument (AmctChecks.def).
enum class Check : unsigned {
#define AMCT_CHECK(ENUM, ID) ENUM,
#include "vendors/amct/AmctChecks.def"
#undef AMCT_CHECK
};
// The check's stable ID ("amct-duplicate", "amct-qat-pair", ...).
const char *checkName(Check c);

struct Finding {
  enum Level { Error, Warning } level = Error;
  Check check;                // qlint maps each to a rule, qcc quotes its checkName
  uint32_t line = 0, col = 0; // 1-based position in the file, 0 = unknown
  std::string message;        // AMCT's wording where it has one
};
// Checks a parsed document against §4 (duplicates, pairs, clips, channel-wise on known layer
// types when `layerTypes` maps names to types, else on the PyTorch types a skip list names, QAT
// override re-enabling a skipped layer, prune algorithm presence, prune types, prune-only
// overrides, 4:2 on 950PR/DT, a KV-cache config without quant layers). `hardware` may be empty.
struct CheckOptions {
  Version version;
  std::string hardware;
  // name -> type, when an inventory is known ("" types ignored; a repeated name: the last).
  // Views: the caller keeps the names alive for the call (an inventory can hold 10^6 modules).
  std::vector<std::pair<std::string_view, std::string_view>> layerTypes;
  // The caller guarantees no name repeats in `layerTypes` (an inventory does): the checks then
  // walk the list instead of hashing every name.
  bool uniqueLayerNames = false;
  // The type names are PyTorch's (or ONNX op types): skip_layer_types and override_layer_types
  // entries must then be types AMCT quantizes in this mode ('Layer type <type> does not support
  // quantize.'). Off for files of other frameworks (TensorFlow, Caffe type names).
  bool pytorchTypes = false;
  // Per-framework fields (reference §3): AMCT for Caffe's QAT config has no skip_layer_types.
  Framework framework = Framework::Unknown;
};
std::vector<Finding> checkDocument(const AmctDocument &doc, const CheckOptions &opts);

} // namespace qspec::amct
