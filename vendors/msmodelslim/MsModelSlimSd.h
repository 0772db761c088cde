// msModelSlim's `multimodal_sd_modelslim_v1` service (reference 2, "SD"; the diffusion models:
// Wan, FLUX, HunyuanVideo, Qwen-Image): the v1 processors and savers, applied by a layer-wise
// runner to each expert model of the pipeline (its DiT) in the order written, then the saver;
// `spec.runner` is converted to layer_wise; `spec.prior` is accepted but never run; the dataset
// feeds the pipeline's calibration inference. `spec.multimodal_sd_config` says how that inference
// runs: `dump_config` (enable_dump, default true: calibration data is captured to dump_data_dir,
// default the save path; capture_mode 'args') and the inference settings, `inference_config` or
// the older `model_config` (a dict each; the model adapter types its keys at run time).
//
// readSdConfig is that reading of a parsed practice; validateSdSettings compares it with what the
// target's `multimodal_sd_config` says (translation validation of the written file, run by the
// msmodelslim emitter after it writes an SD practice; `qcc import --roundtrip` compares two
// files' readings instead).
#pragma once

#include "ir/Diagnostics.h"
#include "ir/IR.h"
#include "vendors/msmodelslim/MsModelSlimRules.h"

#include <string>
#include <utility>
#include <vector>

namespace qspec::msmodelslim {

// spec.multimodal_sd_config as the SD service reads it, the defaults of DumpConfig filled in.
struct SdConfig {
  bool enableDump = true;
  std::string captureMode = "args";
  std::string dumpDataDir; // "": the save path
  // The dict resolve_inference_raw returns: inference_config when given (not null), else the
  // legacy model_config; key by key, each value as sdValueText writes it. `inferenceKey` names
  // the block it came from ("" when neither is given: {}).
  std::string inferenceKey;
  std::vector<std::pair<std::string, std::string>> inference;
  const YamlValue *inferenceAt = nullptr;
};
SdConfig readSdConfig(const YamlValue &root);

// A value of the inference dict as the service keeps it (Dict[str, Any]: the types PyYAML
// loaded): numbers by value, booleans, null, strings quoted, lists in order, mappings by key.
std::string sdValueText(const YamlValue &v);

} // namespace qspec::msmodelslim

namespace qspec::vendors {

// The target's `multimodal_sd_config` (its dump_config with DumpConfig's defaults, and the
// inference block it writes) against the reading of the written file: each difference is
// err_msmodelslim_sd_divergence at the setting; false when there is one.
bool validateSdSettings(const ir::Target &target, const msmodelslim::PracticeDoc &doc,
                        DiagnosticEngine &diags);

} // namespace qspec::vendors
