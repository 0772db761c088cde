// What the practice writers of this folder share (MsModelSlimEmitter.cpp writes modelslim_v1 and
// the VLM form; V0Emitter.cpp writes modelslim_v0). yaml-cpp stays inside this folder.
#pragma once

#include "emitters/Emitter.h"
#include "emitters/msmodelslim/MsModelSlimOptions.h"

#include <yaml-cpp/yaml.h>

#include <string>

namespace qspec::emit {

// A number as PyYAML's SafeLoader reads it back (no octal look-alikes, floats with a '.').
std::string practiceNumber(const ir::Value &v);
// A setting's value: a number, a boolean, else a double-quoted string.
void writePracticeValue(YAML::Emitter &y, const ir::Value &v);
// The `metadata` mapping; label w_bit and a_bit not set by the target come from `weightDtype`
// and `actDtype` ("" for float activations; both "" when nothing is quantized).
void writePracticeMetadata(YAML::Emitter &y, const PracticeOptions &o,
                           const std::string &weightDtype, const std::string &actDtype);

// The one autoround_quant's head: its type and settings as written, then the open `strategies`
// list; the caller writes each strategy ({qconfig, include, exclude}) and ends both.
void writeAutoroundHead(YAML::Emitter &y, const PracticeOptions &o);
// The float_sparse processor (when the target has one), its settings as written.
void writeFloatSparse(YAML::Emitter &y, const PracticeOptions &o);

// `multimodal_sd_config` (a checked PracticeOptions::sdConfig; null: nothing) as a mapping in the
// order written: one value a scalar (writePracticeValue), several a list, a block a mapping.
void writeSdConfig(YAML::Emitter &y, const ir::Option *sdConfig);

// Translation validation of a written SD practice's multimodal_sd_config: `bytes` read back as
// msModelSlim's SD service reads them (vendors/msmodelslim/MsModelSlimSd.h) against the target's
// setting; false after reporting each difference.
bool validateSdPractice(const ir::Target &target, const std::string &bytes,
                        DiagnosticEngine &diags);

// Moves the finished document into `out`; a yaml-cpp error is err_internal at the target.
bool finishPracticeYaml(YAML::Emitter &y, const ir::Target &target, OutputContext &out,
                        DiagnosticEngine &diags);

// Writes a `modelslim_v0` practice (calib_cfg, anti_cfg, calib_dataset); see V0Emitter.cpp.
bool emitPracticeV0(const ir::Spec &spec, const ir::Target &target, OutputContext &out,
                    DiagnosticEngine &diags);

} // namespace qspec::emit
