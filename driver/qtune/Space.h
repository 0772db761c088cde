// The tune space of a spec: its fallback units (whole groups and ungrouped modules, never a
// protected module), ordered by sensitivity, and the discretised levels over them; and the map
// from an abstract Probe to the tuning state (`exclude` / `raise ... to T`) a round writes into
// a fresh copy of the spec.
#pragma once

#include "driver/qtune/Strategy.h"
#include "ir/Diagnostics.h"
#include "ir/IR.h"

#include <string>
#include <vector>

namespace qspec::tune {

struct Unit {
  std::string name;              // group name, or the module's name
  std::vector<uint32_t> modules; // inventory indices, ascending
  double sensitivity = 0;        // larger = more sensitive
  bool scored = false;
};

struct TuneSpace {
  std::vector<Unit> units;                 // most sensitive first
  std::vector<std::vector<uint32_t>> levels; // levels[i] = units of level i+1, ascending
  std::vector<std::string> levelText;      // "first 4", or "top 3 groups"
  std::vector<ir::Tier> baseTier;          // per module, with an empty tuning state
  std::vector<bool> fixed;                 // per module: protected or tier set by a name override
  ir::Tier raiseTo = ir::Tier::Float;
  std::vector<std::string> chains;         // anti-outlier candidates
};

// Builds the space from `base`, a spec already resolved with its tuning state emptied. Reports
// errors (nothing tunable) and warnings (a level selecting nothing) against the spec.
bool buildSpace(const ir::Spec &base, TuneSpace &out, DiagnosticEngine &diags);

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
  std::string antiOutlier; // "" = the spec's own
  size_t units = 0, modules = 0; // how many units/modules moved
};

TuningState stateFor(const TuneSpace &space, const ir::Spec &base, const Probe &p);

// Replaces `spec`'s tuning state (excludes, raises, anti-outlier choice) by `state`. `spec` must
// not have been resolved yet.
void applyState(ir::Spec &spec, const TuningState &state);

// The statements of a tuning state as .qspec text, one per line, each indented by `indent`.
std::string stateText(const TuningState &state, const std::string &indent);

// A .qspec string literal for `text` (quotes and backslashes escaped).
std::string quoteQSpec(const std::string &text);

} // namespace qspec::tune
