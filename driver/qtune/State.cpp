// Reading a work directory's state.json back (status, report, apply). The run loop writes it
// (driver/qtune/Driver.cpp, writeState, with stateListsJSON).
#include "driver/qtune/State.h"
#include "driver/qtune/Support.h"

#include "ir/IR.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace qspec::tune {

namespace fs = std::filesystem;
using json = nlohmann::json;

namespace {

// One JSON string as dump(..., replace) writes it: plain ASCII directly, anything else (escapes,
// UTF-8, invalid bytes) through nlohmann.
void appendJSONString(std::string &out, const std::string &s) {
  bool plain = std::all_of(s.begin(), s.end(),
                           [](char c) { return c >= 0x20 && c < 0x7f && c != '"' && c != '\\'; });
  if (!plain) {
    out += json(s).dump(-1, ' ', false, json::error_handler_t::replace);
    return;
  }
  out += '"';
  out += s;
  out += '"';
}

// {"names": [...], "tier": T, "unit": U} (keys sorted, as nlohmann::json keeps them) at `depth`.
// Appended piece by piece: no temporary strings per unit (tens of thousands at scale).
void appendUnit(std::string &out, const std::vector<std::string> &names, const char *tier,
                const std::string &unit, int depth) {
  const size_t in = 2 * static_cast<size_t>(depth + 1);
  auto line = [&](size_t extra) { out.append(1, '\n').append(in + extra, ' '); };
  out += '{';
  line(0);
  out += "\"names\": ";
  if (names.empty()) {
    out += "[]";
  } else {
    out += '[';
    for (size_t i = 0; i < names.size(); ++i) {
      if (i)
        out += ',';
      line(2);
      appendJSONString(out, names[i]);
    }
    line(0);
    out += ']';
  }
  if (tier) {
    out += ',';
    line(0);
    out += "\"tier\": ";
    appendJSONString(out, tier);
  }
  out += ',';
  line(0);
  out += "\"unit\": ";
  appendJSONString(out, unit);
  out.append(1, '\n').append(2 * static_cast<size_t>(depth), ' ');
  out += '}';
}

// About the size appendUnit writes for a unit (exact for plain ASCII names), to reserve once.
size_t unitTextSize(const std::vector<std::string> &names, const std::string &unit, int depth) {
  const size_t in = 2 * static_cast<size_t>(depth + 1);
  size_t n = 64 + 4 * in + unit.size();
  for (const std::string &name : names)
    n += name.size() + in + 6;
  return n;
}

template <typename F> std::string array(size_t n, int depth, size_t reserve, F unit) {
  if (n == 0)
    return "[]";
  const std::string in(2 * static_cast<size_t>(depth + 1), ' ');
  std::string out;
  out.reserve(reserve + n * (in.size() + 2) + 16);
  out += "[";
  for (size_t i = 0; i < n; ++i) {
    out += i ? ",\n" : "\n";
    out += in;
    unit(out, i);
  }
  out += "\n" + std::string(2 * static_cast<size_t>(depth), ' ') + "]";
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
  size_t excludesSize = 0, raisesSize = 0;
  for (size_t i = 0; i < st.excludes.size(); ++i)
    excludesSize += unitTextSize(st.excludes[i], st.excludeUnits[i], depth + 1);
  for (const TuningState::Raise &r : st.raises)
    raisesSize += unitTextSize(r.names, r.unit, depth + 1) + 32;
  out.excludes = array(st.excludes.size(), depth, excludesSize, [&](std::string &o, size_t i) {
    appendUnit(o, st.excludes[i], nullptr, st.excludeUnits[i], depth + 1);
  });
  out.raises = array(st.raises.size(), depth, raisesSize, [&](std::string &o, size_t i) {
    const TuningState::Raise &r = st.raises[i];
    appendUnit(o, r.names, ir::tierName(r.tier), r.unit, depth + 1);
  });
  return out;
}

} // namespace qspec::tune
