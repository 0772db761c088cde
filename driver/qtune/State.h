// What `qtune status`, `report` and `apply` read back from a work directory's state.json: the
// spec and input overrides of the run and its best tuning state.
#pragma once

#include "driver/qtune/Space.h"

#include <optional>
#include <string>

namespace qspec::tune {

struct SavedRun {
  std::string spec;              // absolute path of the spec the run tuned
  std::string inventory, scores; // --inventory / --scores of the run ("" = the spec's)
  std::optional<TuningState> best;
};

// False when DIR/state.json is missing or unreadable.
bool readSavedRun(const std::string &dir, SavedRun &out);

} // namespace qspec::tune
