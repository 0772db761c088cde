// Building the tune space and turning probes into tuning states.
//
// 1. Units: every resolved group is one unit; every ungrouped module is its own unit. Protected
//    modules and modules whose tier a name override fixed are never part of a unit; a group
//    holding such a module cannot move as a whole and is left out.
// 2. Sensitivity: a module's score is the score of its own name or of any dotted prefix of its
//    name (a block such as "model.layers.3" covers "model.layers.3.*"),
//    the largest one when several apply; cosine-like metrics (lower = more sensitive) are negated.
//    A unit's sensitivity is its most sensitive member's. Scored units come first, most
//    sensitive first; ties and unscored units keep inventory order.
// 3. Levels: without `levels`, level i is the i most sensitive units (L = number of units). With
//    `levels`, each level is the union of its terms (`first N` / `last N` blocks by inventory
//    block index, `top N` units, a pattern), widened to whole units.
// 4. A probe moves units up: the uniform tier (HMCT), dual-int16 on matrix operators, and the
//    level's tier on the level's units; a unit's tier is the highest any member asks for, so
//    groups stay whole. Tiers missing from the ladder round up to the next tier in it.
#include "driver/qtune/Space.h"

#include "ir/Pattern.h"

#include <algorithm>
#include <map>
#include <numeric>
#include <set>
#include <unordered_map>

namespace qspec::tune {

namespace {

ir::Tier liftToLadder(const ir::Spec &spec, ir::Tier t) {
  if (spec.ladder.empty())
    return t;
  for (int v = static_cast<int>(t); v < ir::kNumTiers; ++v)
    if (spec.inLadder(static_cast<ir::Tier>(v)))
      return static_cast<ir::Tier>(v);
  return ir::Tier::Float;
}

bool isMatrixOp(const std::string &type) {
  return type.rfind("Conv", 0) == 0 || type == "Gemm" || type == "MatMul" || type == "Linear" ||
         type == "BatchMatMul";
}

} // namespace

bool buildSpace(const ir::Spec &base, TuneSpace &out, DiagnosticEngine &diags) {
  const auto &mods = base.inventory.modules;
  const ir::Resolution &res = base.resolution;
  out = TuneSpace{};
  out.raiseTo = base.tune.raiseTo ? *base.tune.raiseTo : ir::Tier::Float;
  out.chains = base.tune.antiOutlier;
  out.baseTier.resize(mods.size(), base.defaultTier());
  out.fixed.resize(mods.size(), false);
  for (size_t m = 0; m < mods.size() && m < res.modules.size(); ++m) {
    out.baseTier[m] = res.modules[m].tier.value;
    out.fixed[m] = res.modules[m].isProtected || res.modules[m].tier.from.source == ir::Decision::NameOverride;
  }

  // 2. Module sensitivities.
  std::unordered_map<std::string, double> score;
  for (const ir::ScoreEntry &e : base.scores.entries) {
    double s = base.scores.higherIsMoreSensitive ? e.score : -e.score;
    auto it = score.find(e.name);
    if (it == score.end() || s > it->second)
      score[e.name] = s;
  }
  auto moduleScore = [&](const std::string &name, double &s) {
    bool found = false;
    auto take = [&](const std::string &key) {
      auto it = score.find(key);
      if (it != score.end() && (!found || it->second > s)) {
        s = it->second;
        found = true;
      }
    };
    take(name);
    for (size_t i = 0; i < name.size(); ++i)
      if (name[i] == '.')
        take(name.substr(0, i));
    return found;
  };

  // 1. Units.
  std::vector<Unit> units;
  for (const ir::Group &g : res.groups) {
    bool movable = true;
    for (uint32_t m : g.members)
      movable = movable && !out.fixed[m];
    if (!movable)
      continue;
    units.push_back({g.name, g.members, 0, false});
  }
  for (uint32_t m = 0; m < mods.size(); ++m)
    if (!out.fixed[m] && (m >= res.modules.size() || res.modules[m].group < 0))
      units.push_back({mods[m].name, {m}, 0, false});
  for (Unit &u : units)
    for (uint32_t m : u.modules) {
      double s = 0;
      if (moduleScore(mods[m].name, s) && (!u.scored || s > u.sensitivity)) {
        u.sensitivity = s;
        u.scored = true;
      }
    }
  std::stable_sort(units.begin(), units.end(), [](const Unit &a, const Unit &b) {
    if (a.scored != b.scored)
      return a.scored;
    if (a.scored && a.sensitivity != b.sensitivity)
      return a.sensitivity > b.sensitivity;
    return a.modules.front() < b.modules.front();
  });
  out.units = std::move(units);
  if (out.units.empty()) {
    diags.report(DiagID::err_tune_nothing_to_tune, base.tune.range);
    return false;
  }

  // 3. Levels.
  if (base.tune.levels.empty()) {
    for (size_t i = 1; i <= out.units.size(); ++i) {
      std::vector<uint32_t> lv(i);
      std::iota(lv.begin(), lv.end(), 0u);
      out.levels.push_back(std::move(lv));
      out.levelText.push_back("top " + std::to_string(i));
    }
    return true;
  }
  std::vector<int32_t> unitOf(mods.size(), -1);
  for (size_t u = 0; u < out.units.size(); ++u)
    for (uint32_t m : out.units[u].modules)
      unitOf[m] = static_cast<int32_t>(u);
  std::set<int32_t> blockSet;
  for (const ir::Module &m : mods)
    if (m.block >= 0)
      blockSet.insert(m.block);
  std::vector<int32_t> blocks(blockSet.begin(), blockSet.end());
  for (const ir::Level &level : base.tune.levels) {
    std::set<uint32_t> chosen;
    for (const ir::LevelTerm &t : level.terms) {
      if (t.kind == ir::LevelTerm::Top) {
        for (uint32_t u = 0; u < out.units.size() && u < t.count; ++u)
          chosen.insert(u);
        continue;
      }
      std::set<int32_t> wantBlocks;
      std::optional<Pattern> pat;
      if (t.kind == ir::LevelTerm::First)
        for (size_t i = 0; i < blocks.size() && i < t.count; ++i)
          wantBlocks.insert(blocks[i]);
      else if (t.kind == ir::LevelTerm::Last)
        for (size_t i = 0; i < blocks.size() && i < t.count; ++i)
          wantBlocks.insert(blocks[blocks.size() - 1 - i]);
      else {
        std::string err;
        pat = Pattern::compile(t.pattern, err);
        if (!pat)
          continue; // the frontend reported it
      }
      for (uint32_t m = 0; m < mods.size(); ++m) {
        if (unitOf[m] < 0)
          continue;
        bool in = pat ? pat->matches(mods[m].name) : wantBlocks.count(mods[m].block) != 0;
        if (in)
          chosen.insert(static_cast<uint32_t>(unitOf[m]));
      }
    }
    if (chosen.empty()) {
      diags.report(DiagID::warn_tune_level_empty, level.range, {level.text});
      continue;
    }
    out.levels.emplace_back(chosen.begin(), chosen.end());
    out.levelText.push_back(level.text);
  }
  if (out.levels.empty()) {
    diags.report(DiagID::err_tune_nothing_to_tune, base.tune.range);
    return false;
  }
  return true;
}

TuningState stateFor(const TuneSpace &space, const ir::Spec &base, const Probe &p) {
  const auto &mods = base.inventory.modules;
  TuningState st;
  std::vector<bool> inLevel(space.units.size(), false);
  if (p.level > 0 && static_cast<size_t>(p.level) <= space.levels.size())
    for (uint32_t u : space.levels[static_cast<size_t>(p.level - 1)])
      inLevel[u] = true;
  ir::Tier levelTier = p.levelTier >= 0 ? static_cast<ir::Tier>(p.levelTier) : space.raiseTo;
  // Raises grouped by tier so the statements stay short: tier -> (unit, names).
  for (size_t u = 0; u < space.units.size(); ++u) {
    const Unit &unit = space.units[u];
    ir::Tier target = ir::Tier::Int4;
    for (uint32_t m : unit.modules) {
      ir::Tier t = space.baseTier[m];
      if (p.uniform >= 0)
        t = std::max(t, liftToLadder(base, static_cast<ir::Tier>(p.uniform)));
      if (p.dualMatmul && isMatrixOp(mods[m].type))
        t = std::max(t, liftToLadder(base, ir::Tier::DualInt16));
      if (inLevel[u])
        t = std::max(t, liftToLadder(base, levelTier));
      target = std::max(target, t);
    }
    std::vector<std::string> names;
    for (uint32_t m : unit.modules)
      if (space.baseTier[m] < target)
        names.push_back(mods[m].name);
    if (names.empty())
      continue;
    ++st.units;
    st.modules += names.size();
    if (target == ir::Tier::Float) {
      st.excludes.push_back(std::move(names));
      st.excludeUnits.push_back(unit.name);
    } else {
      st.raises.push_back({target, unit.name, std::move(names)});
    }
  }
  if (p.chain >= 0 && static_cast<size_t>(p.chain) < space.chains.size())
    st.antiOutlier = space.chains[static_cast<size_t>(p.chain)];
  return st;
}

void applyState(ir::Spec &spec, const TuningState &state) {
  auto sel = [](const std::string &name) {
    ir::Selector s;
    s.kind = ir::Selector::Name;
    s.text = escapeGlob(name);
    std::string err;
    s.pattern = Pattern::compile(s.text, err);
    return s;
  };
  spec.tune.excludes.clear();
  spec.tune.raises.clear();
  for (const auto &list : state.excludes)
    for (const std::string &n : list)
      spec.tune.excludes.push_back(sel(n));
  for (const auto &r : state.raises) {
    ir::TuningRaise tr;
    tr.tier = r.tier;
    for (const std::string &n : r.names)
      tr.selectors.push_back(sel(n));
    spec.tune.raises.push_back(std::move(tr));
  }
  if (!state.antiOutlier.empty())
    spec.tune.antiOutlier = {state.antiOutlier};
}

std::string quoteQSpec(const std::string &text) {
  std::string out = "\"";
  for (char c : text) {
    if (c == '"' || c == '\\')
      out += '\\';
    out += c;
  }
  return out + "\"";
}

namespace {
std::string commentSafe(const std::string &s) {
  std::string out;
  for (unsigned char c : s)
    out += (c < 0x20 || c == 0x7f) ? '?' : static_cast<char>(c);
  return out;
}
} // namespace

std::string stateText(const TuningState &state, const std::string &indent) {
  std::string out;
  for (size_t i = 0; i < state.excludes.size(); ++i) {
    out += indent + "exclude ";
    for (size_t k = 0; k < state.excludes[i].size(); ++k)
      out += (k ? ", " : "") + quoteQSpec(escapeGlob(state.excludes[i][k]));
    out += "  // qtune: " + commentSafe(state.excludeUnits[i]) + "\n";
  }
  for (const auto &r : state.raises) {
    out += indent + "raise ";
    for (size_t k = 0; k < r.names.size(); ++k)
      out += (k ? ", " : "") + quoteQSpec(escapeGlob(r.names[k]));
    out += std::string(" to ") + ir::tierName(r.tier) + "  // qtune: " + commentSafe(r.unit) + "\n";
  }
  if (!state.antiOutlier.empty())
    out += indent + "// qtune: anti-outlier choice " + commentSafe(state.antiOutlier) + "\n";
  return out;
}

} // namespace qspec::tune
