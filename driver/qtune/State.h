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

// The "excludes" and "raises" arrays of a tuning state in state.json ({"names": [...], "unit": U}
// per unit, plus "tier" for raises), as JSON text: byte for byte what nlohmann's
// dump(2, ' ', false, replace) writes for arrays at nesting `depth` (the text after
// `"excludes": `; in state.json's "best" object, depth 2). Written directly: at scale a JSON tree
// of every name was most of writing state.json.
struct StateListsText {
  std::string excludes, raises;
};
StateListsText stateListsJSON(const TuningState &st, int depth);

} // namespace qspec::tune
