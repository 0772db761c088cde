// `qcc import` of an msModelSlim practice with `apiversion: modelslim_v0` and its `--roundtrip`
// comparison (ImportMsModelSlimV0.cpp, CompareMsModelSlimV0.cpp), the multimodal_sd_config of an
// SD practice (ImportMsModelSlimSd.cpp), and what they share with the modelslim_v1 importer
// (ImportMsModelSlim.cpp) and comparison (CompareMsModelSlim.cpp).
#pragma once

#include "driver/qcc/import/Importer.h"
#include "vendors/msmodelslim/MsModelSlimRules.h"

#include <string>

namespace qspec::import {

// A parsed v0 practice as a spec (importMsModelSlim hands it over).
bool importMsModelSlimV0(const Source &src, const Context &ctx, const msmodelslim::PracticeDoc &doc,
                         ImportedSpec &out);
// The `metadata` mapping as target settings (config_id, score, label, verified_model_types).
void importPracticeMetadata(const Source &src, const Context &ctx,
                            const msmodelslim::PracticeDoc &doc, TargetBlock &t);
// A scalar as a .qspec value: numbers and booleans bare, anything else a string.
std::string practiceScalar(const msmodelslim::YamlValue &v);

// An SD practice's spec.multimodal_sd_config as the target setting of that name (dump_config and
// the inference block, inference_config or model_config); "" when there is nothing to write. A
// value qspec cannot write (null, a list of fewer than two items, a list of mappings, a key that
// is no setting name) and the keys the SD service never reads are reported not carried.
std::string importSdConfig(const Source &src, const Context &ctx, const msmodelslim::YamlValue &v);
// The multimodal_sd_config of two SD practices as the SD service reads them (dump_config with its
// defaults, the inference dict key by key); each difference reported at the original's setting.
void compareSdConfig(const Source &src, const Context &ctx,
                     const msmodelslim::PracticeDoc &original,
                     const msmodelslim::PracticeDoc &emitted);

// The comparison of two v0 practices (compareMsModelSlim hands them over).
void compareMsModelSlimV0(const Source &src, const Context &ctx,
                          const msmodelslim::PracticeDoc &original,
                          const msmodelslim::PracticeDoc &emitted);
// A value as msModelSlim's loader types it, canonical text (numbers by value, mappings by key).
std::string canonicalPracticeValue(const msmodelslim::YamlValue &v);
// A setting of the original practice at `at` that the re-emitted one reads as `emitted` (empty:
// leaves it out), reported not carried unless its line is already recorded.
void reportPracticeDifference(const Source &src, const Context &ctx,
                              const msmodelslim::YamlValue &at, const std::string &what,
                              const std::string &emitted);
// The whole-document comparison of the v1 path for the top level and `metadata`.
void comparePracticeMetadata(const Source &src, const Context &ctx,
                             const msmodelslim::PracticeDoc &original,
                             const msmodelslim::PracticeDoc &emitted);

} // namespace qspec::import
