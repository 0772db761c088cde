// The three search strategies and the in-process simulator. See Strategy.h for the contract and
// docs/driver.md for the algorithms in prose.
#include "driver/qtune/Strategy.h"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <deque>
#include <map>
#include <set>

namespace qspec::tune {

namespace {
// ir::Tier values (kept numeric here so the strategies do not depend on the IR).
constexpr int kInt16 = 2, kDualInt16 = 3, kFP16 = 4, kFloat = 5;

std::string fmtMetric(double v) {
  char buf[64];
  snprintf(buf, sizeof buf, "%.6g", v);
  return buf;
}
} // namespace

std::string Probe::id() const {
  return "L" + std::to_string(level) + "/c" + std::to_string(chain) + "/u" +
         std::to_string(uniform) + "/d" + std::to_string(dualMatmul ? 1 : 0) + "/t" +
         std::to_string(levelTier);
}

const char *verdictName(Verdict::Kind k) {
  switch (k) {
  case Verdict::Running:
    return "running";
  case Verdict::Found:
    return "found";
  case Verdict::Unreachable:
    return "unreachable";
  case Verdict::Exhausted:
    return "exhausted";
  case Verdict::Unknown:
    return "unknown";
  }
  return "?";
}

void Strategy::trackUnknown(const Probe &p, const Outcome &o) {
  if (!o.evaluated)
    unknown_.insert(p.level);
  else
    unknown_.erase(p.level);
}

void Strategy::consider(const Probe &p, const Outcome &o) {
  trackUnknown(p, o);
  if (!o.evaluated || !o.pass)
    return;
  if (!bestPass_ || p.level < bestPass_->first.level)
    bestPass_ = std::make_pair(p, o.metric);
}

std::string Strategy::unknownLevels() const {
  std::string out;
  for (int lv : unknown_)
    out +=
        (out.empty() ? (unknown_.size() == 1 ? "level " : "levels ") : ", ") + std::to_string(lv);
  return out;
}

void Strategy::finish(Verdict::Kind k, std::string message) {
  verdict_.kind = k;
  verdict_.message = std::move(message);
  if (!unknown_.empty())
    verdict_.message += "; unknown (evaluation failed): " + unknownLevels();
  if (k == Verdict::Unreachable) {
    verdict_.best.reset();
    return;
  }
  if (bestPass_) {
    verdict_.best = bestPass_->first;
    verdict_.metric = bestPass_->second;
  }
}

void Strategy::stop(const std::string &why) {
  if (verdict_.kind != Verdict::Running)
    return;
  finish(Verdict::Exhausted, why);
}

// ---- group-bisect ---------------------------------------------------------------------------
//
// 1. Feasibility: level 0 (all low) and level L (all high) in the first round, with any further
//    slots spent on evenly spaced interior levels. All-low passes: done. All-high fails and
//    nothing passed: unreachable, stop.
// 2. Search: hi = smallest passing level seen, lo = largest failing level below it. With k slots
//    probe k levels that split (lo, hi) into k+1 near-equal parts ((k+1)-ary search). With one
//    slot the split point is msModelSlim's midpoint, so the bisection costs what its does.
// 3. Monotonicity: every evaluated pair a < b where b's metric is worse than a's by more than
//    the tolerance (or a passes and b fails) is a violation; it is recorded as a note. Once the
//    bracket has closed (hi = lo + 1), a search that saw a violation does not trust it: it scans
//    the unevaluated levels below lo in ascending order (k per round) and re-brackets on the
//    first pass.
// 4. Result: the smallest passing level seen (the anchor).
class GroupBisect : public Strategy {
public:
  using Strategy::Strategy;
  const char *name() const override { return "group-bisect"; }

  std::vector<Probe> next(unsigned slots) override {
    if (verdict_.kind != Verdict::Running)
      return {};
    slots = std::max(1u, slots);
    int cap = space_.maxRounds > 0 ? space_.maxRounds : 100000;
    std::vector<std::pair<int, std::string>> plan = planRound(slots);
    if (plan.empty())
      return {};
    if (rounds_ >= cap) {
      stop("stopped after " + std::to_string(cap) + " rounds (max_rounds)");
      return {};
    }
    ++rounds_;
    std::vector<Probe> out;
    for (auto &[lv, why] : plan) {
      Probe p;
      p.level = lv;
      p.chain = space_.chains > 0 ? 0 : -1;
      p.why = why;
      out.push_back(p);
    }
    return out;
  }

  void observe(const std::vector<std::pair<Probe, Outcome>> &results) override {
    for (const auto &[p, o] : results) {
      known_[p.level] = o;
      consider(p, o);
    }
    checkMonotone();
  }

private:
  std::map<int, Outcome> known_;
  std::set<std::pair<int, int>> flagged_;
  bool nonMonotone_ = false;
  int rounds_ = 0;

  bool isKnown(int lv) const { return known_.count(lv) != 0; }
  bool passes(int lv) const {
    auto it = known_.find(lv);
    return it != known_.end() && it->second.evaluated && it->second.pass;
  }

  // A pair a < b (b a superset of a's fallback) is a violation when b's metric is worse than a's
  // by more than the tolerance, or when a passes and b fails.
  void checkMonotone() {
    auto better = [&](double m) { return space_.higherIsBetter ? m : -m; };
    for (const auto &[a, oa] : known_) {
      if (!oa.evaluated)
        continue;
      for (auto it = known_.upper_bound(a); it != known_.end(); ++it) {
        const Outcome &ob = it->second;
        if (!ob.evaluated || flagged_.count({a, it->first}))
          continue;
        bool flip = oa.pass && !ob.pass;
        bool drop = better(oa.metric) > better(ob.metric) + space_.tolerance;
        if (!flip && !drop)
          continue;
        flagged_.insert({a, it->first});
        nonMonotone_ = true;
        notes_.push_back("level " + std::to_string(a) + (oa.pass ? " passes" : " fails") +
                         " with metric " + fmtMetric(oa.metric) + " but the larger level " +
                         std::to_string(it->first) + (ob.pass ? " passes" : " fails") +
                         " with metric " + fmtMetric(ob.metric));
      }
    }
  }

  // Levels to probe this round with their reasons; empty after setting the verdict.
  std::vector<std::pair<int, std::string>> planRound(unsigned slots) {
    const int L = space_.levels;
    std::vector<std::pair<int, std::string>> plan;
    if (passes(0)) {
      finish(Verdict::Found, "all-low passes: no fallback needed");
      return {};
    }
    // 1. Feasibility.
    if (!isKnown(0) || !isKnown(L)) {
      if (!isKnown(0))
        plan.push_back({0, "feasibility: all low"});
      if (!isKnown(L) && (plan.size() < slots))
        plan.push_back({L, "feasibility: all high"});
      if (plan.size() < slots && plan.size() == 2)
        addSplits(0, L, slots - 2, "speculative split", plan);
      return plan;
    }
    int hi = -1;
    for (const auto &[lv, o] : known_)
      if (o.evaluated && o.pass) {
        hi = lv;
        break;
      }
    if (hi < 0 && realFail(L)) {
      finish(Verdict::Unreachable, "all high (level " + std::to_string(L) + ") fails with metric " +
                                       fmtMetric(known_.at(L).metric));
      return {};
    }
    // The open bracket (lo, upper): lo is the largest level below it that really failed (level 0
    // when none did); levels whose evaluation failed are unknown and stay inside it.
    int upper = hi >= 0 ? hi : L;
    int lo = 0;
    for (const auto &[lv, o] : known_)
      if (lv < upper && o.evaluated)
        lo = lv; // every evaluated level below hi failed (hi is the smallest pass)
    // 2. Search inside the bracket.
    addSplits(lo, upper, slots, "split (" + std::to_string(lo) + ", " + std::to_string(upper) + ")",
              plan);
    if (!plan.empty())
      return plan;
    if (hi < 0) {
      finish(Verdict::Unknown, "no evaluated level passes, and all high (level " +
                                   std::to_string(L) + ") could not be evaluated");
      return {};
    }
    // 3. Non-monotone: scan what the bisection skipped.
    if (nonMonotone_) {
      for (int lv = 1; lv < lo && plan.size() < slots; ++lv)
        if (!isKnown(lv))
          plan.push_back({lv, "non-monotone: scan below " + std::to_string(lo)});
      if (!plan.empty())
        return plan;
    }
    finish(Verdict::Found, "smallest passing level " + std::to_string(hi) + " (level " +
                               std::to_string(lo) + (realFail(lo) ? " fails)" : " is unknown)"));
    return {};
  }

  bool realFail(int lv) const {
    auto it = known_.find(lv);
    return it != known_.end() && it->second.evaluated && !it->second.pass;
  }

  // Up to k unknown levels strictly inside (lo, hi), splitting it into k+1 near-equal parts; a
  // split point already evaluated (a failed evaluation) moves to the nearest level not yet tried.
  void addSplits(int lo, int hi, unsigned k, const std::string &why,
                 std::vector<std::pair<int, std::string>> &plan) {
    std::set<int> seen;
    for (auto &p : plan)
      seen.insert(p.first);
    long span = hi - lo;
    auto open = [&](int lv) { return lv > lo && lv < hi && !isKnown(lv) && !seen.count(lv); };
    for (unsigned j = 1; j <= k; ++j) {
      long off = (static_cast<long>(j) * span + k) / (k + 1); // ceil(j*span/(k+1))
      int want = lo + static_cast<int>(off), lv = -1;
      for (int d = 0; d < span && lv < 0; ++d)
        lv = open(want + d) ? want + d : open(want - d) ? want - d : -1;
      if (lv < 0)
        continue;
      seen.insert(lv);
      plan.push_back({lv, why});
    }
  }
};

// ---- standing-high (msModelSlim) ------------------------------------------------------------
//
// 1. Level 0 with anti-outlier candidate 0; a pass ends the search.
// 2. Binary search of the smallest passing level in [1, L] with candidate 0 (level L is assumed
//    to pass and is not evaluated in this phase).
// 3. Standing high: step r = 1; try level cur - r with each candidate in rotation, starting from
//    the last that worked. A pass moves cur there and doubles r (capped at cur); all candidates
//    failing with r > 1 resets r to 1; with r = 1 the descent stops.
// 4. The best level is proposed once more (a cache hit unless it was never evaluated: then a
//    failure means the target is unreachable).
// The cap is max_rounds, default 30 (msModelSlim's MAX_ITERATION), counted in steps of this
// sequence. With k > 1 slots a round evaluates the sequence ahead: the next probe, then the next
// probes after a pass and after a failure of it, and so on breadth-first until k distinct probes
// (speculation over copies of the state). observe() replays the sequence over the round's
// outcomes as far as they reach, so the probes it settles on are exactly those of one slot.
class StandingHigh : public Strategy {
public:
  using Strategy::Strategy;
  const char *name() const override { return "standing-high"; }

  std::vector<Probe> next(unsigned slots) override {
    slots = std::max(1u, slots);
    std::vector<Probe> out;
    std::set<std::string> seen;
    std::deque<StandingHigh> frontier{*this};
    // Branches that only repeat known probes (the final check) end the look-ahead too.
    for (size_t popped = 0; !frontier.empty() && out.size() < slots && popped < 64u * slots;
         ++popped) {
      StandingHigh s = std::move(frontier.front());
      frontier.pop_front();
      std::optional<Probe> p = s.step();
      if (!p)
        continue;
      if (seen.insert(p->id()).second)
        out.push_back(*p);
      for (bool pass : {true, false}) {
        StandingHigh t = s;
        t.learn(*p, Outcome{true, pass, 0});
        frontier.push_back(std::move(t));
      }
    }
    if (out.empty())
      step(); // sets the verdict (cap reached or search over)
    return out;
  }

  // Each result of the round answers one step: a step that proposes a probe again (the
  // descent's re-probe of a level the bisection just failed) waits for the next round, where
  // it is a proposal of its own (a cache hit), so the report shows every step of the sequence.
  void observe(const std::vector<std::pair<Probe, Outcome>> &results) override {
    std::vector<bool> used(results.size(), false);
    while (verdict_.kind == Verdict::Running) {
      StandingHigh t = *this;
      std::optional<Probe> p = t.step();
      if (!p)
        return;
      size_t i = 0;
      while (i < results.size() && (used[i] || !results[i].first.sameAs(*p)))
        ++i;
      if (i == results.size())
        return;
      used[i] = true;
      *this = std::move(t);
      learn(*p, results[i].second);
    }
  }

private:
  // The next probe of the sequence (one step), or none when the search is over.
  std::optional<Probe> step() {
    if (verdict_.kind != Verdict::Running)
      return {};
    int cap = space_.maxRounds > 0 ? space_.maxRounds : 30;
    if (rounds_ >= cap) {
      stop("stopped after " + std::to_string(cap) + " rounds (the iteration cap)");
      return {};
    }
    ++rounds_;
    Probe p;
    switch (phase_) {
    case Zero:
      p.level = 0;
      p.chain = chainAt(0);
      p.why = "zero fallback";
      break;
    case Bisect:
      p.level = (l_ + h_) / 2;
      p.chain = chainAt(0);
      p.why = "bisect [" + std::to_string(l_) + ", " + std::to_string(h_) + "]";
      break;
    case Descent:
      p.level = cur_ - r_;
      p.chain = chainAt((last_ + tried_) % numChains());
      p.why = "standing high: step " + std::to_string(r_);
      break;
    case Final:
      p.level = cur_;
      p.chain = chainAt(last_);
      p.why = "final";
      break;
    }
    return p;
  }

  // One step's outcome.
  void learn(const Probe &p, const Outcome &o) {
    trackUnknown(p, o);
    bool pass = o.evaluated && o.pass;
    switch (phase_) {
    case Zero:
      if (pass) {
        bestPass_ = std::make_pair(p, o.metric);
        finish(Verdict::Found, "zero fallback passes");
        return;
      }
      l_ = 1;
      h_ = space_.levels;
      phase_ = Bisect;
      break;
    case Bisect:
      if (pass) {
        h_ = p.level;
        bestPass_ = std::make_pair(p, o.metric);
      } else {
        l_ = p.level + 1;
      }
      break;
    case Descent:
      if (pass) {
        cur_ = p.level;
        last_ = (last_ + tried_) % numChains();
        bestPass_ = std::make_pair(p, o.metric);
        tried_ = 0;
        r_ = std::min(2 * r_, cur_);
        if (cur_ == 0)
          phase_ = Final;
      } else if (++tried_ == numChains()) {
        tried_ = 0;
        if (r_ > 1)
          r_ = 1;
        else
          phase_ = Final;
      }
      return;
    case Final:
      if (pass) {
        bestPass_ = std::make_pair(p, o.metric);
        finish(Verdict::Found, "standing high settled on level " + std::to_string(p.level));
      } else if (!o.evaluated) {
        bestPass_.reset();
        finish(Verdict::Unknown, "the evaluation of the largest fallback (level " +
                                     std::to_string(p.level) + ") failed");
      } else {
        bestPass_.reset();
        finish(Verdict::Unreachable,
               "the largest fallback (level " + std::to_string(p.level) + ") fails");
      }
      return;
    }
    if (phase_ == Bisect && l_ >= h_) {
      cur_ = h_;
      last_ = 0;
      r_ = 1;
      tried_ = 0;
      phase_ = cur_ > 0 ? Descent : Final;
    }
  }

private:
  enum Phase { Zero, Bisect, Descent, Final } phase_ = Zero;
  int l_ = 1, h_ = 1, cur_ = 0, r_ = 1, last_ = 0, tried_ = 0, rounds_ = 0;
  int numChains() const { return std::max(1, space_.chains); }
  int chainAt(int i) const { return space_.chains > 0 ? i : -1; }
};

// ---- hmct-ladder (Horizon HMCT) -------------------------------------------------------------
//
// Phases (cumulative; each needs its tiers in the spec's ladder, else it counts as failed):
//   1 all low                         pass: done           fail: 2
//   2 all int16                       pass: 3              fail: 4
//   3 low + int16 on levels t1<t2<..  first pass: done     none: phase-2 result
//   4 int16 + dual-int16 on matmuls   pass: 5              fail: 6
//   5 phase 4 + dual-int16 on levels  first pass: done     none: phase-4 result
//   6 all fp16                        pass: 7              fail: unreachable
//   7 phase 4 + fp16 on levels        first pass: done     none: phase-6 result
// The progressive levels play HMCT's thresholds (0.99 .. 0.99999); with k slots, k of them are
// evaluated per round and the first passing one (in ladder order) wins. Modules whose tier the
// user fixed (name overrides, protect) are never raised: the space leaves them alone.
class HmctLadder : public Strategy {
public:
  explicit HmctLadder(SearchSpace s) : Strategy(std::move(s)) {
    if (space_.progressive.empty()) {
      int L = space_.levels;
      for (int d : {8, 4, 2, 1}) {
        int lv = std::max(1, (L + d - 1) / d);
        if (space_.progressive.empty() || space_.progressive.back() < lv)
          space_.progressive.push_back(lv);
      }
    }
    phase_ = 1;
  }
  const char *name() const override { return "hmct-ladder"; }

  std::vector<Probe> next(unsigned slots) override {
    if (verdict_.kind != Verdict::Running)
      return {};
    int cap = space_.maxRounds > 0 ? space_.maxRounds : 100000;
    // Skip phases whose tiers the ladder lacks.
    while (true) {
      if ((phase_ == 2 || phase_ == 3) && !space_.hasInt16)
        phase_ = 4;
      else if ((phase_ == 4 || phase_ == 5) && !(space_.hasInt16 && space_.hasDualInt16))
        phase_ = 6;
      else
        break;
    }
    if (rounds_ >= cap) {
      stop("stopped after " + std::to_string(cap) + " rounds (max_rounds)");
      return {};
    }
    ++rounds_;
    std::vector<Probe> out;
    if (phase_ == 3 || phase_ == 5 || phase_ == 7) {
      for (unsigned i = 0; i < std::max(1u, slots) && pos_ + i < space_.progressive.size(); ++i)
        out.push_back(progressive(space_.progressive[pos_ + i]));
      return out;
    }
    Probe p;
    p.chain = space_.chains > 0 ? 0 : -1;
    if (phase_ == 1) {
      p.why = "phase 1: all low";
    } else if (phase_ == 2) {
      p.uniform = kInt16;
      p.why = "phase 2: all int16";
    } else if (phase_ == 4) {
      p.uniform = kInt16;
      p.dualMatmul = true;
      p.why = "phase 4: int16 + dual-int16 on matrix operators";
    } else {
      p.uniform = space_.hasFP16 ? kFP16 : kFloat;
      p.why = "phase 6: all fp16";
    }
    out.push_back(p);
    return out;
  }

  void observe(const std::vector<std::pair<Probe, Outcome>> &results) override {
    for (const auto &[p, o] : results)
      trackUnknown(p, o);
    if (phase_ == 3 || phase_ == 5 || phase_ == 7) {
      for (const auto &[p, o] : results)
        if (o.evaluated && o.pass) {
          bestPass_ = std::make_pair(p, o.metric);
          finish(Verdict::Found,
                 "phase " + std::to_string(phase_) + " passes at level " + std::to_string(p.level));
          return;
        }
      pos_ += results.size();
      if (pos_ < space_.progressive.size())
        return;
      bestPass_ = base_;
      finish(Verdict::Found, "phase " + std::to_string(phase_) +
                                 ": no level passes; keeping the phase " +
                                 std::to_string(phase_ - 1) + " result");
      return;
    }
    const Probe &p = results.at(0).first;
    const Outcome &o = results.at(0).second;
    bool pass = o.evaluated && o.pass;
    if (phase_ == 1) {
      if (pass) {
        bestPass_ = std::make_pair(p, o.metric);
        finish(Verdict::Found, "phase 1: all low passes");
        return;
      }
      phase_ = 2;
    } else if (phase_ == 2) {
      phase_ = pass ? 3 : 4;
    } else if (phase_ == 4) {
      phase_ = pass ? 5 : 6;
      if (pass)
        phase4_ = p;
    } else if (phase_ == 6) {
      if (!pass) {
        if (o.evaluated)
          finish(Verdict::Unreachable,
                 "all fp16 (phase 6) fails with metric " + fmtMetric(o.metric));
        else
          finish(Verdict::Unknown, "the evaluation of all fp16 (phase 6) failed");
        return;
      }
      phase_ = 7;
    }
    if (pass)
      base_ = std::make_pair(p, o.metric);
    pos_ = 0;
  }

private:
  int phase_ = 1, rounds_ = 0;
  size_t pos_ = 0;
  std::optional<std::pair<Probe, double>> base_;
  std::optional<Probe> phase4_;

  Probe progressive(int level) const {
    Probe p;
    p.chain = space_.chains > 0 ? 0 : -1;
    p.level = level;
    if (phase_ == 3) {
      p.levelTier = kInt16;
      p.why = "phase 3: int16 on level " + std::to_string(level);
    } else if (phase_ == 5) {
      p.uniform = kInt16;
      p.dualMatmul = true;
      p.levelTier = kDualInt16;
      p.why = "phase 5: phase 4 + dual-int16 on level " + std::to_string(level);
    } else {
      if (space_.hasInt16 && space_.hasDualInt16) {
        p.uniform = kInt16;
        p.dualMatmul = true;
      } else if (space_.hasInt16) {
        p.uniform = kInt16;
      }
      p.levelTier = space_.hasFP16 ? kFP16 : kFloat;
      p.why = "phase 7: fp16 on level " + std::to_string(level);
    }
    return p;
  }
};

std::unique_ptr<Strategy> createStrategy(const std::string &name, const SearchSpace &space) {
  if (name == "group-bisect")
    return std::make_unique<GroupBisect>(space);
  if (name == "standing-high")
    return std::make_unique<StandingHigh>(space);
  if (name == "hmct-ladder")
    return std::make_unique<HmctLadder>(space);
  return nullptr;
}

// ---- Simulation -----------------------------------------------------------------------------

Outcome SimLandscape::evaluate(const Probe &p) const {
  Outcome o;
  o.evaluated = true;
  double step = 0.1 / std::max(1, levels);
  bool uniformOnly = p.uniform >= 0 && p.level == 0;
  if (uniformOnly) {
    bool ok = p.uniform >= kFP16 ? fp16Passes : p.dualMatmul ? dualPasses : int16Passes;
    o.metric = threshold + (ok ? step : -step);
  } else {
    o.metric = threshold + (p.level - passLevel + 0.5) * step;
    if (std::find(traps.begin(), traps.end(), p.level) != traps.end())
      o.metric = threshold + (-passLevel - 0.5) * step; // below level 0's metric: detectable
  }
  if (p.chain >= 0 && static_cast<size_t>(p.chain) < chainBonus.size())
    o.metric += chainBonus[static_cast<size_t>(p.chain)];
  o.pass = o.metric >= threshold;
  if (std::find(crashes.begin(), crashes.end(), p.level) != crashes.end() && p.uniform < 0)
    o = Outcome{};
  return o;
}

SimResult simulate(Strategy &s, const SimLandscape &land, unsigned slots, int roundCap) {
  SimResult r;
  std::map<std::string, Outcome> cache;
  while (true) {
    if (r.rounds >= roundCap) {
      s.stop("simulation round cap");
      break;
    }
    std::vector<Probe> probes = s.next(slots);
    if (probes.empty())
      break;
    ++r.rounds;
    std::vector<std::pair<Probe, Outcome>> results;
    for (const Probe &p : probes) {
      ++r.probes;
      auto it = cache.find(p.id());
      if (it == cache.end()) {
        ++r.evaluations;
        it = cache.emplace(p.id(), land.evaluate(p)).first;
      }
      results.push_back({p, it->second});
    }
    s.observe(results);
  }
  r.verdict = s.verdict();
  return r;
}

} // namespace qspec::tune
