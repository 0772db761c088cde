// msModelSlim's reading of a practice (vendors/Reading.h): which Linear each `linear_quant`
// quantizes, and with which qconfig, exactly as `msmodelslim quant` applies it (reference 5):
// - an entry selects a module named exactly like it, else by wcmatch fnmatch with BRACE
//   (MsModelSlimBraces.h: `{i}` is literal text there, a 1,000-expansion limit);
// - a module is quantized by a processor iff an include entry selects it and no exclude entry
//   does (exclude wins; a missing or null include is ["*"], an explicit [] selects nothing);
// - only nn.Linear modules are tested (inventory type Linear, or unknown); every other module is
//   not decided by msModelSlim (ModuleReading::known false);
// - processors run in order (`group` containers entered) and the first that quantizes a Linear
//   takes it: later ones no longer see an nn.Linear;
// - an `autoround_quant` reads like one linear_quant per strategy, in order: the first strategy
//   that selects a Linear configures it ("configuration already exists, skipping"), a Linear no
//   strategy selects keeps 16 bits (float); its dtypes as that processor parses them (an unknown
//   weight dtype is int8, an unknown activation dtype float).
// The practice is first checked with checkPractice; a file msModelSlim would refuse is reported
// (err_msmodelslim_refused) and read no further. A multimodal_sd_modelslim_v1 file runs the same
// processors on each expert model of the pipeline (its DiT, whose module names the inventory
// holds); its multimodal_sd_config is read by MsModelSlimSd.h.
#pragma once

#include "vendors/Reading.h"

namespace qspec::vendors {

bool readMsModelSlim(const ir::Spec &spec, const ir::Target &target, std::string_view bytes,
                     VendorReading &out, DiagnosticEngine &diags);

// The include and exclude entries of each linear_quant of a practice, in run order (a missing
// include is ["*"]); empty when the text does not parse. For the matching benchmark.
struct LinearQuantPatterns {
  std::vector<std::string> include, exclude;
};
std::vector<LinearQuantPatterns> linearQuantPatterns(std::string_view practice);

} // namespace qspec::vendors
