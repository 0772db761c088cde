// state.json's best-state lists are written as text (stateListsJSON): byte for byte what
// nlohmann's dump writes for the same arrays inside the run's state object, for plain names,
// names JSON escapes, non-ASCII and invalid UTF-8 (replaced), empty lists and raises with tiers.
#include "driver/qtune/State.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

using namespace qspec;
using json = nlohmann::json;

namespace {

json unitJSON(const std::string &unit, const std::vector<std::string> &names) {
  json e = json::object();
  e["unit"] = unit;
  e["names"] = names;
  return e;
}

std::string dumpedByNlohmann(const tune::TuningState &st) {
  json ex = json::array(), rs = json::array();
  for (size_t i = 0; i < st.excludes.size(); ++i)
    ex.push_back(unitJSON(st.excludeUnits[i], st.excludes[i]));
  for (const auto &r : st.raises) {
    json e = unitJSON(r.unit, r.names);
    e["tier"] = ir::tierName(r.tier);
    rs.push_back(e);
  }
  json root = {{"best", {{"excludes", ex}, {"raises", rs}, {"units", 1}}}, {"z", 0}};
  return root.dump(2, ' ', false, json::error_handler_t::replace);
}

std::string spliced(const tune::TuningState &st) {
  json root = {{"best", {{"excludes", nullptr}, {"raises", nullptr}, {"units", 1}}}, {"z", 0}};
  std::string text = root.dump(2, ' ', false, json::error_handler_t::replace);
  tune::StateListsText lists = tune::stateListsJSON(st, 2);
  for (const auto &[key, list] : {std::pair<std::string, std::string>{"excludes", lists.excludes},
                                  {"raises", lists.raises}}) {
    std::string placeholder = "\"" + key + "\": null";
    size_t at = text.find(placeholder);
    EXPECT_NE(at, std::string::npos);
    text.replace(at + placeholder.size() - 4, 4, list);
  }
  return text;
}

} // namespace

TEST(StateJSON, ListsTextIsWhatNlohmannWrites) {
  tune::TuningState st;
  EXPECT_EQ(spliced(st), dumpedByNlohmann(st)); // both lists empty
  st.excludes = {{"model.layers.0.q_proj", "model.layers.0.k_proj"},
                 {},
                 {"a\"quote", "back\\slash", "tab\tand\nnewline", "\x01", "caf\xc3\xa9",
                  "bad\xff"
                  "utf8",
                  "del\x7f"}};
  st.excludeUnits = {"group@17:1[0]", "empty", "hostile \"unit\""};
  st.raises = {{ir::Tier::Int16, "lm_head", {"lm_head"}},
               {ir::Tier::DualInt16, "u2", {"x.y", "x.z"}}};
  EXPECT_EQ(spliced(st), dumpedByNlohmann(st));
  st.excludes.clear();
  st.excludeUnits.clear();
  EXPECT_EQ(spliced(st), dumpedByNlohmann(st)); // raises only
}
