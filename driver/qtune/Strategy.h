// Search strategies of qtune. A strategy is a deterministic generator: each round it proposes up
// to `slots` probes (tuning states), the driver evaluates them (or finds them in the cache), and
// the strategy observes every outcome of the round before proposing the next. Because a strategy
// sees nothing but outcomes, replaying it against the cache after a crash reproduces the same
// rounds: that is how `qtune run` resumes.
//
// A probe is described abstractly: a fallback level (0 = none, 1..L = the L discretised levels of
// the tune space, most sensitive groups first), an anti-outlier candidate, and for the HMCT
// ladder a uniform tier for every tunable group, dual-int16 on matrix operators and the tier the
// level's groups go to. driver/qtune/Space.h turns a probe into `exclude`/`raise` statements.
#pragma once

#include <memory>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace qspec::tune {

// Tiers by their ir::Tier value; -1 = not set.
struct Probe {
  int level = 0;           // 0 = no fallback, 1..L
  int chain = -1;          // anti-outlier candidate index; -1 = none
  int uniform = -1;        // every tunable group raised at least to this tier
  bool dualMatmul = false; // Conv/Gemm/MatMul/Linear groups raised to dual-int16
  int levelTier = -1;      // tier of the level's groups; -1 = the spec's raise_to (default float)
  std::string why;         // the reason, for the log and the report

  // Identity (without `why`), used to deduplicate probes and as the in-process cache key.
  std::string id() const;
  bool sameAs(const Probe &o) const { return id() == o.id(); }
};

struct Outcome {
  bool evaluated = false; // false: the evaluation failed (exit code, timeout, bad result)
  bool pass = false;
  double metric = 0;
};

// Unknown: the evaluations that would decide failed (crash, OOM, timeout), so no verdict can be
// given from real metrics.
struct Verdict {
  enum Kind { Running, Found, Unreachable, Exhausted, Unknown } kind = Running;
  std::optional<Probe> best; // the anchor: the passing probe the strategy settles on
  double metric = 0;
  std::string message;
};
const char *verdictName(Verdict::Kind k);

struct SearchSpace {
  int levels = 0;             // L (>= 1)
  int chains = 0;             // anti-outlier candidates (0 = none)
  int maxRounds = 0;          // 0 = the strategy's default
  bool higherIsBetter = true; // metric direction (`>=`/`>` targets)
  double tolerance = 0;       // metric noise allowed before a drop counts as non-monotone
  // For the HMCT ladder: which tiers the spec's ladder offers (by ir::Tier value).
  bool hasInt16 = true, hasDualInt16 = true, hasFP16 = true;
  // Levels used as HMCT's progressive thresholds (ascending, 1..L); empty = derived from L.
  std::vector<int> progressive;
};

class Strategy {
public:
  explicit Strategy(SearchSpace space) : space_(std::move(space)) {}
  virtual ~Strategy() = default;
  virtual const char *name() const = 0;
  // Probes of the next round (1..slots of them), or none when the search is over.
  virtual std::vector<Probe> next(unsigned slots) = 0;
  // Outcomes of the round just proposed, in the same order.
  virtual void observe(const std::vector<std::pair<Probe, Outcome>> &results) = 0;
  // Called when the driver stops early (round cap or time): settle on the best passing probe.
  virtual void stop(const std::string &why);

  const Verdict &verdict() const { return verdict_; }
  // Warnings found while searching (non-monotone results), in order.
  const std::vector<std::string> &notes() const { return notes_; }
  const SearchSpace &space() const { return space_; }

protected:
  // Records a passing probe; keeps the one with the smallest level (then the earliest). A failed
  // evaluation is remembered as an unknown level.
  void consider(const Probe &p, const Outcome &o);
  void trackUnknown(const Probe &p, const Outcome &o);
  // Sets the verdict; the message gets the levels whose evaluation failed ("unknown").
  void finish(Verdict::Kind k, std::string message);
  // "levels 3, 12" of the probes whose evaluation failed, "" if none.
  std::string unknownLevels() const;

  SearchSpace space_;
  Verdict verdict_;
  std::optional<std::pair<Probe, double>> bestPass_;
  std::vector<std::string> notes_;
  std::set<int> unknown_; // levels with a failed evaluation and no real metric
};

// "group-bisect", "standing-high", "hmct-ladder"; nullptr if unknown.
std::unique_ptr<Strategy> createStrategy(const std::string &name, const SearchSpace &space);

// ---- In-process simulation (tests and bench/driver) ---------------------------------------

// A synthetic landscape over the level axis: metric(level) rises with the level; the target is
// met from `passLevel` on (passLevel > L: unreachable). Optional non-monotone traps (levels that
// fail although smaller ones pass) and a per-chain offset.
struct SimLandscape {
  int levels = 16;
  int passLevel = 5;
  std::vector<int> traps;         // levels whose metric drops below level 0's (non-monotone)
  std::vector<int> crashes;       // levels whose evaluation fails (a crash: no metric)
  std::vector<double> chainBonus; // added to the metric per anti-outlier candidate
  bool int16Passes = true, dualPasses = true, fp16Passes = true;
  double threshold = 0.9;
  Outcome evaluate(const Probe &p) const;
};

struct SimResult {
  Verdict verdict;
  int evaluations = 0; // distinct probes evaluated (cache hits are free)
  int rounds = 0;
  int probes = 0; // proposals including cache hits
};
SimResult simulate(Strategy &s, const SimLandscape &land, unsigned slots, int roundCap = 1000);

} // namespace qspec::tune
