// AMCT's reading of a .cfg: what AMCT applies to each module of an inventory, by AMCT's own
// precedence (../shared/reference/amct.md §4.2): name override > type override > global, the
// chosen entry replaces (its gaps take AMCT's built-in defaults, not the global values), PTQ: a
// skip wins over an override, QAT: any matching name or type override re-enables a skipped
// layer, QAT skip lists are unions (skip_layers ∪ quant_skip_layers, types alike); `asymmetric`
// is the one inherited value (explicit ▸ common_config's with the same algorithm ▸
// activation_offset); Conv3d is forced symmetric; the global recipe's INT16 activations, 6/7-bit
// weights and ADA fall back silently on layers that cannot take them (INT16: also a Linear
// without a bias).
#pragma once

#include "vendors/Reading.h"
#include "vendors/amct/AmctConfig.h"
#include "vendors/amct/AmctRules.h"

#include <optional>
#include <string>
#include <vector>

namespace qspec::amct {

// One module as AMCT applies it, in AMCT's terms.
struct Applied {
  bool considered = false; // AMCT quantizes this layer type in this mode (or the type is unknown)
  bool enabled = false;    // quant_enable / retrain_enable
  DataType act = DataType::Int8;
  uint32_t weightBits = 8;           // 4, 6, 7, 8; 0 = the weights are not quantized (ADA dropped)
  std::optional<bool> channelWise;   // unset: the type is unknown
  std::optional<bool> asymmetric;    // PTQ activations
  std::string_view actAlgo, wtsAlgo; // ifmr | hfmg | ulq; arq | ada | ulq (views into the document)
  uint32_t line = 0, col = 0;        // the deciding entry (0: AMCT's built-in default)
};

// Applies `doc` to every module of `modules` (a PTQ or QAT document), which must outlive the
// result (its algorithm names are views into it). Layers the document
// refuses (an override giving INT16 to a layer that cannot take it) are reported in `refusals`
// with AMCT's message.
std::vector<Applied> applyDocument(const AmctDocument &doc, const std::vector<ir::Module> &modules,
                                   Version v, std::vector<Finding> &refusals);
std::vector<Applied> applyDocument(AmctDocument &&, const std::vector<ir::Module> &, Version,
                                   std::vector<Finding> &) = delete;

// What AMCT prunes on one layer, with AMCT's defaults filled in (ascend_optimized true,
// update_freq 0) and the ratio as the protobuf float AMCT reads.
struct PruneApplied {
  enum Kind { None, Skipped, Filter, NOutOfM } kind = None;
  float ratio = 0;             // Filter
  bool ascendOptimized = true; // Filter
  uint32_t updateFreq = 0;     // NOutOfM
  uint32_t line = 0, col = 0;  // the prune_config that decides (0: none)
  bool operator==(const PruneApplied &o) const {
    return kind == o.kind && ratio == o.ratio && ascendOptimized == o.ascendOptimized &&
           updateFreq == o.updateFreq;
  }
  bool operator!=(const PruneApplied &o) const { return !(*this == o); }
};
// The prune recipe `r` writes (kind None when it has no prune_config).
PruneApplied pruneOf(const Recipe &r);
// "none", "skipped", "filter ratio 0.5 ascend_optimized true", "n_out_of_m update_freq 1".
std::string pruneText(const PruneApplied &p);
// AMCT's prune reading of `doc` on each module (parallel to `modules`): the chosen entry's
// prune_config (name entry ▸ type entry, the first of repeated ones) replaces the global one, an
// entry without one keeps the global one; a layer a prune skip list names (skip_layers,
// skip_layer_types, regular_prune_skip_layers / _types) is Skipped when it would be pruned (the
// skip wins, even over an override). PTQ documents prune nothing.
std::vector<PruneApplied> pruneReading(const AmctDocument &doc,
                                       const std::vector<ir::Module> &modules);

// The layers AMCT's rules see with an inventory (CheckOptions::layerTypes, views into `inv` and
// `head`): every module, and a tied output head (ir::tiedHeadName), a Linear of the model the
// index does not list and the emitter skips. The emitter's check, the read-back and qlint use
// this one list; uniqueLayerNames is set from the inventory's index.
void addInventoryLayers(const ir::Inventory &inv, const ir::ModelConfig &config, CheckOptions &co,
                        std::string &head);

// AMCT's KV-cache reading of `doc` (a KV-cache document) on each module, in the IR's words
// (AmctKvReader.cpp): a Linear of quant_layers or of an override entry is int8 with its recipe's
// method, scope and symmetry.
std::vector<vendors::ModuleReading> readKvDocument(const AmctDocument &doc,
                                                   const std::vector<ir::Module> &modules);

} // namespace qspec::amct

namespace qspec::vendors {

// readAmct of a `target amct kv` (AmctKvReader.cpp): `doc` refused where AMCT refuses it, then
// read with readKvDocument.
bool readAmctKv(const ir::Spec &spec, const ir::Target &target, const amct::AmctDocument &doc,
                VendorReading &out, DiagnosticEngine &diags);

// The ReadBack of target kind "amct" (registered by emitters/amct/Target.cpp): parses `bytes`
// strictly as the target's root message, refuses what AMCT refuses (err_amct_parse,
// err_amct_check), and with an inventory fills one ModuleReading per module in the IR's words.
bool readAmct(const ir::Spec &spec, const ir::Target &target, std::string_view bytes,
              VendorReading &out, DiagnosticEngine &diags);

} // namespace qspec::vendors
