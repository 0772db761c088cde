// The msmodelslim target's settings, parsed and checked once (step 1 of the emitter): each against
// msModelSlim's rules (vendors/msmodelslim/MsModelSlimRules.h), with the setting's location.
#pragma once

#include "ir/Diagnostics.h"
#include "ir/IR.h"
#include "vendors/msmodelslim/MsModelSlimRules.h"

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace qspec::emit {

// One processor of `attention_quant`: dynamic_cache (the KV cache) or fa3_quant (FA3's Q, K and V
// inputs), its qconfigs checked with msmodelslim::checkAttentionQConfig, or online_quarot (the
// rotation of Q and K ahead of attention; no qconfig).
struct AttentionProcessor {
  std::string type;
  std::optional<msmodelslim::QConfig> qconfig;
  std::vector<std::pair<std::string, msmodelslim::QConfig>> details; // fa3_quant: fa_q, fa_k, fa_v
  const ir::Option *include = nullptr, *exclude = nullptr;
  const ir::Value *blockSize = nullptr; // online_quarot; null: its -1
  bool beforeLinearQuant = false;       // `before linear_quant`: written ahead of linear_quant
};

// A processor's own qconfig (flex_awq_ssz `qconfig { act { ... } weight { ... } }`), each role
// checked as linear_quant's.
struct ProcessorQConfig {
  msmodelslim::QConfig weight;
  std::optional<msmodelslim::QConfig> act;
  std::map<std::string, ir::Value> weightExt, actExt;
};

struct PracticeOptions {
  std::string apiversion = "modelslim_v1";
  bool vlm = false; // multimodal_vlm_modelslim_v1
  bool sd = false;  // multimodal_sd_modelslim_v1
  // multimodal_sd_config { dump_config { ... } inference_config { ... } } (SD only), checked.
  const ir::Option *sdConfig = nullptr;
  std::string configId;                           // default: the spec's stem; also the file name
  const ir::Value *score = nullptr;               // null: msModelSlim's 100
  std::map<std::string, const ir::Value *> label; // given label keys
  std::vector<std::string> verifiedModelTypes;
  // metadata.verified_tags: per model type (in the order first written), the lists of tags
  // verified together.
  std::vector<std::pair<std::string, std::vector<std::vector<std::string>>>> verifiedTags;
  std::string runner;                      // "" = not written
  const ir::Option *antiOutlier = nullptr; // processors ahead of linear_quant, as written
  // The anti_outlier processors (their blocks) that give their own qconfig.
  std::map<const ir::Option *, ProcessorQConfig> processorQConfig;
  std::string saver = "ascendv1_saver";
  const ir::Value *partFileSize = nullptr; // null: 4
  const ir::Value *dataset = nullptr, *defaultText = nullptr;
  const ir::Option *include = nullptr;       // narrows what is quantized
  std::vector<AttentionProcessor> attention; // attention_quant, in the order written
  // autoround_quant { iters N; enable_minmax_tuning B; enable_round_tuning B }: the Linears'
  // qconfigs are the strategies of one autoround_quant instead of linear_quant processors.
  const ir::Option *autoround = nullptr;
  // float_sparse { sparse_ratio R; include ...; exclude ... }: ahead of the Linears' processors,
  // in a spec that quantizes no Linear (it keeps the Linears it sparsifies in float).
  const ir::Option *floatSparse = nullptr;
  // prior { dataset "D"; PROCESSOR { ... } ... }: the one stage of spec.prior, its processors
  // anti-outlier ones, written like anti_outlier's.
  const ir::Option *prior = nullptr;
};

// Whether a qconfig role of a Linear is one the processor that quantizes Linears accepts:
// linear_quant's registered quantizers (checkQConfig), or autoround_quant's own validation
// (checkAutoroundRole, with the role's ext). `why` gets msModelSlim's wording.
bool checkLinearRole(const PracticeOptions &o, msmodelslim::Role role,
                     const msmodelslim::QConfig &q, const std::map<std::string, ir::Value> &ext,
                     std::string &why);

// Reports err_msmodelslim_not_whitelisted when `text` (a `what` the emitter writes) has a byte
// msModelSlim's character whitelist refuses; true when it has none.
bool checkWhitelisted(DiagnosticEngine &diags, const std::string &what, const std::string &text,
                      SourceRange where);

// The subgraph kinds of `enable_subgraph_type` (msModelSlim's smoothing processors).
extern const std::vector<std::string> kSubgraphTypes;
// Whether `key` is a list setting of anti-outlier processor `type` that the target writes as a
// YAML list (enable_subgraph_type, include, exclude; only keys the processor takes).
bool isListSetting(const std::string &type, const std::string &key);

// Reads the target's settings into `out`; false after reporting every bad one.
bool parsePracticeOptions(const ir::Spec &spec, const ir::Target &target, PracticeOptions &out,
                          DiagnosticEngine &diags);

} // namespace qspec::emit
