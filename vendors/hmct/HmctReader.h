// HMCT's reading of a quant_config (reference: ../shared/reference/horizon.md §1): each ONNX node's
// effective qtype as HMCT applies it, finest level first (node_config > op_config >
// model_config.all_node_type > the built-in int8), and the model-wide activation recipe
// (calibration_type, per_channel, asymmetric) in IR words. The file goes through HMCT's own load
// checks first (checkQuantConfig); a file HMCT would refuse is reported, not read.
#pragma once

#include "vendors/Reading.h"
#include "vendors/ViewIndex.h"
#include "vendors/hmct/HmctRules.h"

#include <optional>
#include <string_view>

namespace qspec::vendors {

// One node's qtype as HMCT decides it, and where in the file (line 0: the built-in default).
struct HmctNodeQtype {
  std::optional<ir::Tier> tier; // nullopt: a qtype with no IR tier (int16-ec, mixed operands)
  std::string qtype;            // as written ("int8", "dual-int16", "input0=int16,input1=int8")
  uint32_t line = 0, column = 0;
};

// The HMCT rule for one node: node_config[name] beats op_config[opType] beats all_node_type.
// HmctNodes indexes the sections once (it points into `doc`, which must outlive it), so reading
// a whole model is linear; hmctNodeQtype reads one node.
class HmctNodes {
public:
  explicit HmctNodes(const hmct::QuantConfigDoc &doc);
  explicit HmctNodes(hmct::QuantConfigDoc &&) = delete;
  HmctNodeQtype qtype(std::string_view name, std::string_view opType) const;

private:
  ViewIndex<const hmct::JsonValue *> nodes_, ops_;
  const hmct::JsonValue *model_ = nullptr;
};
HmctNodeQtype hmctNodeQtype(const hmct::QuantConfigDoc &doc, std::string_view name,
                            std::string_view opType);
// The model-wide activation recipe HMCT applies: calibration_type max -> minmax, kl -> histogram
// (other values, lists and a search leave the method unset), per_channel -> per_channel or
// per_tensor (HMCT's default false), asymmetric -> symmetric (default false: symmetric).
RoleReading hmctActivation(const hmct::QuantConfigDoc &doc);
// The qtype one node_config entry gives, as HmctNodes reads it ("qtype", else
// input0/input1 or the legacy InputType0/InputType1/InputType); nullopt: the entry names none and
// the next level decides.
std::optional<HmctNodeQtype> hmctEntryQtype(const hmct::JsonValue &entry);
// qtype word -> tier: int8 int16 dual-int16 float16 float32/float; nullopt otherwise.
std::optional<ir::Tier> tierForQtype(std::string_view qtype);

// model_config.modelwise_search {metric, similarity} and layerwise_search {metric, topk, qtype}
// as HMCT reads them (reference §1.2): whether the block is there, and its fields with HMCT's
// default metric (cosine-similarity) filled in; numbers as numbers ("0.995" == "0.99500").
// Absent fields stay unset; `line`/`column` locate the block (0: absent).
struct HmctSearch {
  bool present = false;
  std::string metric, qtype;
  std::optional<double> similarity, topk;
  uint32_t line = 0, column = 0;
};
struct HmctSearches {
  HmctSearch modelwise, layerwise;
};
HmctSearches hmctSearches(const hmct::QuantConfigDoc &doc);
// The first field in which `b` differs from `a` as "field: 'a' vs 'b'" ("block: present vs
// absent" when only one has it), "" when HMCT reads them the same.
std::string hmctSearchDifference(const HmctSearch &a, const HmctSearch &b);

// vendors::ReadBack for target kind "hmct": parses `bytes`, runs HMCT's checks (an error is
// err_hmct_refused), then reads every inventory module as an ONNX node.
bool readHmct(const ir::Spec &spec, const ir::Target &target, std::string_view bytes,
              VendorReading &out, DiagnosticEngine &diags);

} // namespace qspec::vendors
