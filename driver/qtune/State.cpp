// Reading a work directory's state.json back (status, report, apply). The run loop writes it
// (driver/qtune/Driver.cpp, writeState, with stateListsJSON).
#include "driver/qtune/State.h"
#include "driver/qtune/Support.h"

#include "ir/IR.h"
#include "support/Json.h"

#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>
#include <sstream>

namespace qspec::tune {

namespace fs = std::filesystem;
using json = nlohmann::json;

namespace {

// {"names": [...], "tier": T, "unit": U}: keys sorted, as nlohmann::json keeps them.
void writeUnit(support::JsonWriter &w, const std::vector<std::string> &names, const char *tier,
               const std::string &unit) {
  w.beginObject();
  w.key("names");
  w.beginArray();
  for (const std::string &name : names)
    w.string(name);
  w.endArray();
  if (tier) {
    w.key("tier");
    w.string(tier);
  }
  w.key("unit");
  w.string(unit);
  w.endObject();
}

// An array of `n` units at nesting `depth`, as nlohmann's dump(2) prints it there.
template <typename F> std::string unitArray(size_t n, int depth, F unit) {
  std::string out;
  support::JsonWriter w(out, 2, depth);
  w.beginArray();
  for (size_t i = 0; i < n; ++i)
    unit(w, i);
  w.endArray();
  return out;
}

bool stateFromJSON(const json &j, TuningState &st) {
  if (!j.is_object() || !j.contains("excludes") || !j.contains("raises"))
    return false;
  for (const json &e : j["excludes"]) {
    st.excludeUnits.push_back(e.value("unit", ""));
    st.excludes.push_back(e.value("names", std::vector<std::string>{}));
  }
  for (const json &r : j["raises"]) {
    auto tier = ir::parseTier(r.value("tier", ""));
    if (!tier)
      return false;
    st.raises.push_back({*tier, r.value("unit", ""), r.value("names", std::vector<std::string>{})});
  }
  st.antiOutlier = j.value("anti_outlier", "");
  st.units = j.value("units", size_t(0));
  st.modules = j.value("modules", size_t(0));
  return true;
}

} // namespace

bool readSavedRun(const std::string &dir, SavedRun &out) {
  bool ok = false;
  std::string text = readWholeFile((fs::path(dir) / "state.json").string(), ok);
  if (!ok)
    return false;
  json st = json::parse(text, nullptr, false);
  if (st.is_discarded() || !st.is_object() || !st.contains("spec") || !st["spec"].is_string())
    return false;
  out.spec = st["spec"].get<std::string>();
  out.inventory = st.value("inventory_override", "");
  out.scores = st.value("scores_override", "");
  if (st.contains("best") && st["best"].is_object()) {
    TuningState best;
    if (!stateFromJSON(st["best"], best))
      return false;
    out.best = std::move(best);
  }
  return true;
}

StateListsText stateListsJSON(const TuningState &st, int depth) {
  StateListsText out;
  out.excludes = unitArray(st.excludes.size(), depth, [&](support::JsonWriter &w, size_t i) {
    writeUnit(w, st.excludes[i], nullptr, st.excludeUnits[i]);
  });
  out.raises = unitArray(st.raises.size(), depth, [&](support::JsonWriter &w, size_t i) {
    const TuningState::Raise &r = st.raises[i];
    writeUnit(w, r.names, ir::tierName(r.tier), r.unit);
  });
  return out;
}

} // namespace qspec::tune
