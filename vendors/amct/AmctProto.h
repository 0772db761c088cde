// Private to vendors/amct/: the bridge between the generated protobuf messages and the
// qspec-typed AmctDocument. Only .cpp files of this folder include it.
#pragma once

#include "vendors/amct/AmctConfig.h"

#include "amct_calibration.pb.h"
#include "amct_kv_cache.pb.h"

namespace qspec::amct {

// `tree` is a google::protobuf::TextFormat::ParseInfoTree* (or nullptr: no line numbers). The
// repeated string fields are moved out of `m` into the document.
void documentFromPtq(AMCTPytorchProto::AMCTConfig &m, AmctDocument &doc, const void *tree);
void documentFromQat(AMCTPytorchProto::AMCTRetrainConfig &m, AmctDocument &doc, const void *tree);

} // namespace qspec::amct
