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

#include "vendors/msmodelslim/MsModelSlimRules.h"
#include "ir/Pattern.h"
#include "ir/TargetInfo.h"

#include <algorithm>
#include <cctype>
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

// `levels first 2, first 4 + last 4, "*.mlp.*"`: each level is the union of its terms, widened
// to whole units, and of every earlier level (levels are cumulative), so each is a prefix of one
// ordered list: the units a level adds go to the end of `order`, ascending.
bool buildExplicitLevels(const ir::Spec &base, TuneSpace &out, DiagnosticEngine &diags) {
  const auto &mods = base.inventory.modules;
  std::vector<int32_t> unitOf(mods.size(), -1);
  for (size_t u = 0; u < out.units.size(); ++u)
    for (uint32_t m : out.units[u].modules)
      unitOf[m] = static_cast<int32_t>(u);
  std::set<int32_t> blockSet;
  for (const ir::Module &m : mods)
    if (m.block >= 0)
      blockSet.insert(m.block);
  std::vector<int32_t> blocks(blockSet.begin(), blockSet.end());
  auto countOf = [](const ir::LevelTerm &t, size_t total) {
    return t.percent ? (static_cast<size_t>(t.count) * total + 99) / 100
                     : static_cast<size_t>(t.count);
  };
  std::vector<bool> inOrder(out.units.size(), false);
  for (const ir::Level &level : base.tune.levels) {
    std::set<uint32_t> chosen;
    for (const ir::LevelTerm &t : level.terms) {
      if (t.kind == ir::LevelTerm::Top) {
        for (uint32_t u = 0; u < out.units.size() && u < countOf(t, out.units.size()); ++u)
          chosen.insert(u);
        continue;
      }
      std::set<int32_t> wantBlocks;
      std::optional<Pattern> pat;
      size_t n = countOf(t, blocks.size());
      if (t.kind == ir::LevelTerm::First)
        for (size_t i = 0; i < blocks.size() && i < n; ++i)
          wantBlocks.insert(blocks[i]);
      else if (t.kind == ir::LevelTerm::Last)
        for (size_t i = 0; i < blocks.size() && i < n; ++i)
          wantBlocks.insert(blocks[blocks.size() - 1 - i]);
      else {
        std::string err;
        pat = Pattern::compile(t.pattern, err);
        if (!pat)
          continue; // the frontend reported it
      }
      for (uint32_t m = 0; m < mods.size(); ++m)
        if (unitOf[m] >= 0 &&
            (pat ? pat->matches(mods[m].name) : wantBlocks.count(mods[m].block) != 0))
          chosen.insert(static_cast<uint32_t>(unitOf[m]));
    }
    if (chosen.empty()) {
      diags.report(DiagID::warn_tune_level_empty, level.range, {level.text});
      continue;
    }
    for (uint32_t u : chosen)
      if (!inOrder[u]) {
        inOrder[u] = true;
        out.order.push_back(u);
      }
    out.levelEnd.push_back(out.order.size());
    out.levelText.push_back(level.text);
  }
  if (out.levelEnd.empty()) {
    diags.report(DiagID::err_tune_nothing_to_tune, base.tune.range);
    return false;
  }
  return true;
}

std::vector<int> progressiveLevels(const TuneSpace &space, const ir::Spec &spec) {
  std::vector<int> out;
  if (!spec.tune.levels.empty()) {
    for (size_t i = 1; i <= space.levels(); ++i)
      out.push_back(static_cast<int>(i));
    return out;
  }
  if (spec.scores.higherIsMoreSensitive || spec.scores.entries.empty())
    return out;
  for (double threshold : {0.99, 0.999, 0.9999, 0.99999}) {
    size_t n = 0; // units are sorted most sensitive (lowest cosine) first
    while (n < space.units.size() && space.units[n].scored &&
           -space.units[n].sensitivity < threshold)
      ++n;
    if (n > 0 && (out.empty() || static_cast<size_t>(out.back()) < n))
      out.push_back(static_cast<int>(n));
  }
  return out;
}

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
    out.fixed[m] =
        res.modules[m].isProtected || res.modules[m].tier.from.source == ir::Decision::NameOverride;
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
    out.order.resize(out.units.size());
    std::iota(out.order.begin(), out.order.end(), 0u);
    for (size_t i = 1; i <= out.units.size(); ++i) {
      out.levelEnd.push_back(i);
      out.levelText.push_back("top " + std::to_string(i));
    }
    return true;
  }
  return buildExplicitLevels(base, out, diags);
}

namespace {
// Can every target of the spec express `tier` on `type`? (TargetCapabilityPass's rule), cached
// per (tier, type).
class Expressibility {
public:
  explicit Expressibility(const ir::Spec &spec) : spec_(spec) {}
  bool operator()(ir::Tier tier, const std::string &type) {
    auto [it, fresh] = cache_.emplace(std::make_pair(tier, type), true);
    if (fresh)
      for (const ir::Target &t : spec_.targets) {
        const ir::TargetInfo *info = ir::findTarget(t.kind);
        std::string why;
        if (info && info->canExpress && !info->canExpress(t, tier, type, why))
          it->second = false;
      }
    return it->second;
  }

private:
  const ir::Spec &spec_;
  std::map<std::pair<ir::Tier, std::string>, bool> cache_;
};

// The tier a probe asks for one unit: the highest any member asks for (its base tier, raised by
// the probe's uniform tier, dual-int16 on matrix operators and, inside the level, the level's
// tier), so groups stay whole.
ir::Tier wantedTier(const TuneSpace &space, const ir::Spec &base, const Probe &p, const Unit &unit,
                    bool inLevel, ir::Tier levelTier) {
  ir::Tier target = ir::Tier::Int4;
  for (uint32_t m : unit.modules) {
    ir::Tier t = space.baseTier[m];
    if (p.uniform >= 0)
      t = std::max(t, liftToLadder(base, static_cast<ir::Tier>(p.uniform)));
    if (p.dualMatmul && isMatrixOp(base.inventory.modules[m].type))
      t = std::max(t, liftToLadder(base, ir::Tier::DualInt16));
    if (inLevel)
      t = std::max(t, liftToLadder(base, levelTier));
    target = std::max(target, t);
  }
  return target;
}

// The highest tier of the ladder, up to `wanted`, that every target of the spec can express on
// each module the unit raises (dual-int16 refused on Conv: int16 instead); `names` receives the
// modules it raises. Returns `wanted` with no names when no tier above int4 is expressible.
ir::Tier expressibleTier(const TuneSpace &space, const ir::Spec &base, const Unit &unit,
                         ir::Tier wanted, Expressibility &canExpress,
                         std::vector<std::string> &names) {
  const auto &mods = base.inventory.modules;
  for (int v = static_cast<int>(wanted); v > static_cast<int>(ir::Tier::Int4); --v) {
    ir::Tier t = static_cast<ir::Tier>(v);
    if (liftToLadder(base, t) != t)
      continue;
    names.clear();
    bool expressible = true;
    for (uint32_t m : unit.modules)
      if (space.baseTier[m] < t) {
        names.push_back(mods[m].name);
        expressible = expressible && canExpress(t, mods[m].type);
      }
    if (expressible || names.empty())
      return t;
  }
  names.clear();
  return wanted;
}

// Modules that could not go to the tier they asked for: count and operator types, per tier.
using SkippedByTier = std::map<ir::Tier, std::pair<size_t, std::set<std::string>>>;

void noteSkipped(const TuneSpace &space, const ir::Spec &base, const Unit &unit, ir::Tier wanted,
                 Expressibility &canExpress, SkippedByTier &skipped) {
  size_t count = 0;
  std::set<std::string> types;
  for (uint32_t m : unit.modules) {
    const ir::Module &mod = base.inventory.modules[m];
    if (space.baseTier[m] < wanted && !canExpress(wanted, mod.type)) {
      ++count;
      types.insert(mod.type.empty() ? "unknown type" : mod.type);
    }
  }
  if (count > 0) {
    skipped[wanted].first += count;
    skipped[wanted].second.insert(types.begin(), types.end());
  }
}

std::vector<std::string> skippedMessages(const SkippedByTier &skipped) {
  std::vector<std::string> out;
  for (const auto &[tier, what] : skipped) {
    std::string types;
    for (const std::string &t : what.second)
      types += (types.empty() ? "" : ", ") + t;
    out.push_back(std::to_string(what.first) + " module(s) not raised to " + ir::tierName(tier) +
                  " (no target of the spec can express it on " + types +
                  "): their units take the highest lower tier every target can express, or stay");
  }
  return out;
}
} // namespace

TuningState stateFor(const TuneSpace &space, const ir::Spec &base, const Probe &p) {
  TuningState st;
  std::vector<bool> inLevel(space.units.size(), false);
  if (p.level > 0 && static_cast<size_t>(p.level) <= space.levels())
    for (size_t i = 0; i < space.levelEnd[static_cast<size_t>(p.level - 1)]; ++i)
      inLevel[space.order[i]] = true;
  ir::Tier levelTier = p.levelTier >= 0 ? static_cast<ir::Tier>(p.levelTier) : space.raiseTo;
  Expressibility canExpress(base);
  SkippedByTier skipped;
  for (size_t u = 0; u < space.units.size(); ++u) {
    const Unit &unit = space.units[u];
    ir::Tier wanted = wantedTier(space, base, p, unit, inLevel[u], levelTier);
    std::vector<std::string> names;
    ir::Tier target = expressibleTier(space, base, unit, wanted, canExpress, names);
    if (target != wanted || names.empty())
      noteSkipped(space, base, unit, wanted, canExpress, skipped);
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
  st.skipped = skippedMessages(skipped);
  return st;
}

std::string wholeModelText(const Probe &p) {
  if (p.uniform < 0)
    return "";
  std::string out = std::string("all ") + ir::tierName(static_cast<ir::Tier>(p.uniform));
  if (p.dualMatmul)
    out += ", dual-int16 on matrix operators";
  return out;
}

std::string probeSetText(const Probe &p, const TuneSpace &space) {
  std::string whole = wholeModelText(p);
  if (p.level <= 0 || static_cast<size_t>(p.level) > space.levels())
    return whole.empty() ? "none" : whole;
  std::string level = "level " + std::to_string(p.level) + " (" +
                      space.levelText[static_cast<size_t>(p.level - 1)] + ")";
  if (p.levelTier >= 0)
    level += std::string(" at ") + ir::tierName(static_cast<ir::Tier>(p.levelTier));
  return whole.empty() ? level : whole + "; " + level;
}

std::vector<TierChange> tierChanges(const TuneSpace &space, const TuningState &state) {
  std::unordered_map<std::string, const Unit *> byName;
  for (const Unit &u : space.units)
    byName.emplace(u.name, &u);
  auto from = [&](const std::string &unit) {
    ir::Tier t = ir::Tier::Int4;
    auto it = byName.find(unit);
    if (it != byName.end())
      for (uint32_t m : it->second->modules)
        if (m < space.baseTier.size())
          t = std::max(t, space.baseTier[m]);
    return t;
  };
  std::vector<TierChange> out;
  for (size_t i = 0; i < state.excludes.size(); ++i)
    out.push_back({state.excludeUnits[i], state.excludes[i].size(), from(state.excludeUnits[i]),
                   ir::Tier::Float});
  for (const TuningState::Raise &r : state.raises)
    out.push_back({r.unit, r.names.size(), from(r.unit), r.tier});
  return out;
}

bool isPlainWord(const std::string &text) {
  if (text.empty() || !(std::isalpha(static_cast<unsigned char>(text[0])) || text[0] == '_'))
    return false;
  for (char c : text)
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_' && c != '.' && c != '-')
      return false;
  return true;
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

// Few patterns selecting exactly `names` among the inventory's modules (the emitters' own
// compressor); the escaped names themselves if compression cannot be verified.
std::vector<std::string> compressNames(const std::vector<const std::string *> &names,
                                       const ir::Inventory &inv,
                                       const msmodelslim::SelectionCompressor &compressor) {
  std::vector<msmodelslim::Want> want(inv.modules.size(), msmodelslim::Want::Forbid);
  bool allKnown = true;
  for (const std::string *n : names) {
    const ir::Module *m = inv.find(*n);
    if (m)
      want[static_cast<size_t>(m - inv.modules.data())] = msmodelslim::Want::Must;
    allKnown = allKnown && m;
  }
  bool verified = false;
  std::vector<std::string> out;
  if (allKnown)
    out = compressor.compress(want, verified);
  if (verified)
    return out;
  out.clear();
  for (const std::string *n : names)
    out.push_back(escapeGlob(*n));
  return out;
}

// `KEYWORD "p1", "p2" SUFFIX  // qtune: COMMENT`, wrapped after about 100 columns.
std::string statementText(const std::string &indent, const std::string &keyword,
                          const std::vector<std::string> &patterns, const std::string &suffix,
                          const std::string &comment) {
  std::string out = indent + keyword + " ";
  size_t lineStart = 0;
  for (size_t k = 0; k < patterns.size(); ++k) {
    std::string item = quoteQSpec(patterns[k]);
    if (k) {
      out += ",";
      if (out.size() - lineStart + item.size() > 100) {
        lineStart = out.size() + 1;
        out += "\n" + indent + "    ";
      } else {
        out += " ";
      }
    }
    out += item;
  }
  return out + suffix + "  // qtune: " + commentSafe(comment) + "\n";
}
} // namespace

StatePatterns compressState(const TuningState &state, const ir::Inventory &inv,
                            const msmodelslim::SelectionCompressor &compressor) {
  StatePatterns out;
  if (!state.excludes.empty()) {
    std::vector<const std::string *> names;
    for (const auto &list : state.excludes)
      for (const std::string &n : list)
        names.push_back(&n);
    out.excludes = compressNames(names, inv, compressor);
  }
  std::map<ir::Tier, std::vector<const std::string *>> byTier;
  for (const auto &r : state.raises)
    for (const std::string &n : r.names)
      byTier[r.tier].push_back(&n);
  for (const auto &[tier, names] : byTier)
    out.raises.emplace_back(tier, compressNames(names, inv, compressor));
  return out;
}

void applyState(ir::Spec &spec, const TuningState &state, const StatePatterns &patterns) {
  auto selectors = [](const std::vector<std::string> &texts) {
    std::vector<ir::Selector> out;
    for (const std::string &text : texts) {
      ir::Selector s;
      s.kind = ir::Selector::Name;
      s.text = text;
      std::string err;
      s.pattern = Pattern::compile(s.text, err);
      out.push_back(std::move(s));
    }
    return out;
  };
  spec.tune.excludes = selectors(patterns.excludes);
  spec.tune.raises.clear();
  for (const auto &[tier, list] : patterns.raises) {
    ir::TuningRaise tr;
    tr.tier = tier;
    tr.selectors = selectors(list);
    spec.tune.raises.push_back(std::move(tr));
  }
  // One candidate left: the pipeline's tune-choice pass makes it the processor, as qcc does
  // for the applied spec.
  if (!state.antiOutlier.empty())
    spec.tune.antiOutlier = {state.antiOutlier};
  // The resolution starts over, keeping the module selector and the modules' storage (a probe
  // resolves the same inventory again: no fresh pages for it every round).
  auto selector = std::move(spec.resolution.selector);
  auto modules = std::move(spec.resolution.modules);
  modules.clear();
  spec.resolution = ir::Resolution{};
  spec.resolution.selector = std::move(selector);
  spec.resolution.modules = std::move(modules);
}

std::string stateText(const TuningState &state, const std::string &indent,
                      const ir::Inventory &inv) {
  return stateText(state, compressState(state, inv, msmodelslim::SelectionCompressor(inv)), indent);
}

std::string stateText(const TuningState &state, const StatePatterns &patterns,
                      const std::string &indent) {
  auto summary = [](size_t units, size_t modules) {
    return std::to_string(units) + (units == 1 ? " unit, " : " units, ") + std::to_string(modules) +
           (modules == 1 ? " module" : " modules");
  };
  std::string out;
  if (!state.excludes.empty()) {
    size_t names = 0;
    for (const auto &list : state.excludes)
      names += list.size();
    out += statementText(indent, "exclude", patterns.excludes, "",
                         summary(state.excludes.size(), names));
  }
  // One raise statement per tier, lowest tier first.
  std::map<ir::Tier, std::pair<size_t, size_t>> byTier; // units, modules
  for (const auto &r : state.raises) {
    auto &slot = byTier[r.tier];
    ++slot.first;
    slot.second += r.names.size();
  }
  for (const auto &[tier, list] : patterns.raises)
    out += statementText(indent, "raise", list, std::string(" to ") + ir::tierName(tier),
                         summary(byTier[tier].first, byTier[tier].second));
  if (!state.antiOutlier.empty())
    out += indent + "anti_outlier " +
           (isPlainWord(state.antiOutlier) ? state.antiOutlier : quoteQSpec(state.antiOutlier)) +
           "  // qtune: the chosen anti-outlier candidate\n";
  return out;
}

} // namespace qspec::tune
