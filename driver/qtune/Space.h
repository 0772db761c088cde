// The tune space of a spec: its fallback units (whole groups and ungrouped modules, never a
// protected module), ordered by sensitivity, and the discretised levels over them; and the map
// from an abstract Probe to the tuning state (`exclude` / `raise ... to T`) a round writes into
// the spec it resolves.
#pragma once

#include "driver/qtune/Strategy.h"
#include "ir/Diagnostics.h"
#include "ir/IR.h"

#include <string>
#include <vector>

namespace qspec::msmodelslim {
class SelectionCompressor;
}

namespace qspec::tune {

struct Unit {
  std::string name;              // group name, or the module's name
  std::vector<uint32_t> modules; // inventory indices, ascending
  double sensitivity = 0;        // larger = more sensitive
  bool scored = false;
};

struct TuneSpace {
  std::vector<Unit> units; // most sensitive first
  // Levels are prefixes of one ordered list: level i (1-based) moves order[0, levelEnd[i-1]).
  // Memory grows with the units, not with their square.
  std::vector<uint32_t> order;        // unit indices, in the order the levels add them
  std::vector<size_t> levelEnd;       // ascending, one per level
  std::vector<std::string> levelText; // "first 4", or "top 3"
  size_t levels() const { return levelEnd.size(); }
  std::vector<ir::Tier> baseTier; // per module, with an empty tuning state
  std::vector<bool> fixed;        // per module: protected or tier set by a name override
  ir::Tier raiseTo = ir::Tier::Float;
  std::vector<std::string> chains; // anti-outlier candidates
};

// Builds the space from `base`, a spec already resolved with its tuning state emptied. Reports
// errors (nothing tunable) and warnings (a level selecting nothing) against the spec.
bool buildSpace(const ir::Spec &base, TuneSpace &out, DiagnosticEngine &diags);

// Levels used as HMCT's progressive thresholds (ascending): every level when the spec writes
// `levels`; else, with cosine-like scores (lower = more sensitive), the number of units whose
// score is below 0.99, 0.999, 0.9999 and 0.99999 (HMCT's thresholds over node sensitivity);
// else empty (the strategy derives them from L).
std::vector<int> progressiveLevels(const TuneSpace &space, const ir::Spec &spec);

// The tuning state of one probe.
struct TuningState {
  std::vector<std::vector<std::string>> excludes; // module names, one list per unit
  std::vector<std::string> excludeUnits;          // unit name per list
  struct Raise {
    ir::Tier tier;
    std::string unit;
    std::vector<std::string> names;
  };
  std::vector<Raise> raises;
  std::string antiOutlier;       // "" = the spec's own
  size_t units = 0, modules = 0; // how many units/modules moved
  // Units the probe asked to move but left alone because a target of the spec cannot express
  // the tier on one of their modules (the rule qcc applies): one line per tier, for a warning.
  std::vector<std::string> skipped;
};

TuningState stateFor(const TuneSpace &space, const ir::Spec &base, const Probe &p);

// A tuning state's names compressed into few patterns over the inventory (as the emitters write
// them: `model.layers.{0..3}.*`), each list verified to select exactly its modules (else the
// escaped names themselves): one exclude list, and one raise list per tier, lowest tier first.
struct StatePatterns {
  std::vector<std::string> excludes;
  std::vector<std::pair<ir::Tier, std::vector<std::string>>> raises;
};
StatePatterns compressState(const TuningState &state, const ir::Inventory &inv,
                            const msmodelslim::SelectionCompressor &compressor);

// Replaces `spec`'s tuning state (excludes, raises, anti-outlier choice) by `state`, written as
// `patterns` (compressState of `state`): one exclude and one raise per tier, as `qtune apply`
// writes them, so a probe resolves exactly as its applied spec does. Clears the resolution (the
// module selector, which depends on the inventory alone, is kept), so a spec resolved before can
// be resolved again.
void applyState(ir::Spec &spec, const TuningState &state, const StatePatterns &patterns);

// The statements of a tuning state as .qspec text, each indented by `indent`: one `exclude`
// and one `raise ... to T` per tier with `patterns`' lists, each with a `// qtune:` comment; and
// the chosen anti-outlier candidate as an `anti_outlier` setting.
std::string stateText(const TuningState &state, const StatePatterns &patterns,
                      const std::string &indent);
// The same, compressing the names over `inv` first.
std::string stateText(const TuningState &state, const std::string &indent,
                      const ir::Inventory &inv);

// What a probe moves, for the log, the report and state.json. The whole-model part of an HMCT
// phase ("all int16", "all int16, dual-int16 on matrix operators"; "" when the probe has none),
// and the whole set: "level 4 (top 4)", "all fp16", "all int16, dual-int16 on matrix operators;
// level 2 (top 2) at dual-int16", or "none".
std::string wholeModelText(const Probe &p);
std::string probeSetText(const Probe &p, const TuneSpace &space);

// One unit whose tier a tuning state changes: its tier in the base spec (the highest of its
// modules') and the tier the state gives it.
struct TierChange {
  std::string unit;
  size_t modules = 0;
  ir::Tier from = ir::Tier::Int8, to = ir::Tier::Float;
};
// The units `state` moves, in the state's order (excludes, then raises).
std::vector<TierChange> tierChanges(const TuneSpace &space, const TuningState &state);

// True if `text` can be written as a bare .qspec identifier.
bool isPlainWord(const std::string &text);

// A .qspec string literal for `text` (quotes and backslashes escaped).
std::string quoteQSpec(const std::string &text);

} // namespace qspec::tune
