// qtune run: the search loop.
//
// 1. Load the spec, resolve it once with an empty tuning state, and build the tune space (units,
//    levels). Take the work-directory lock, kill evaluators an interrupted run left behind, open
//    the history (the cache).
// 2. With a relative goal (`metric accuracy >= 99% of float`), evaluate the float baseline once.
// 3. Each round the strategy proposes probes; each is prepared (Prepare.cpp: tuning state, passes,
//    emitters, key). Keys the history holds with a real result are cache hits; the rest run at
//    once, one per slot (Evaluate.cpp, Process.cpp). A failed evaluation runs again up to
//    --retries times, then is recorded as a failure: its level is unknown to the strategy, and it
//    is not a cache hit for a later run. Every finished evaluation is appended (fsynced).
// 4. The strategy observes the round; state.json (rounds, verdict, best) is rewritten
//    atomically, the best passing configuration so far is linked into DIR/best/.
// Resume needs nothing special: the strategy is deterministic, so a rerun replays the finished
// rounds from the cache and continues with the first unfinished evaluation.
#include "driver/qtune/Run.h"
#include "driver/qtune/State.h"
#include "support/Heap.h"

#include "emitters/Emitter.h"
#include "ir/Parallel.h"
#include "ir/Select.h"
#include "vendors/msmodelslim/MsModelSlimRules.h"
#include "frontend/Frontend.h"
#include "passes/Pass.h"

#include <nlohmann/json.hpp>

#include <chrono>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <optional>
#include <set>
#include <sstream>
#include <csignal>
#include <thread>
#include <unistd.h>

namespace qspec::tune {

namespace fs = std::filesystem;
using json = nlohmann::json;

namespace {

// Prints the diagnostics reported since the last call.
struct DiagPrinter {
  DiagnosticEngine &diags;
  size_t printed = 0;
  void flush() {
    const auto &all = diags.diagnostics();
    for (; printed < all.size(); ++printed)
      renderDiagnosticText(std::cerr, diags.sourceManager(), all[printed]);
  }
};

// The best state's scalar members; its "excludes" and "raises" are null placeholders, for
// which writeState splices the text of stateListsJSON (tens of thousands of names at scale).
json stateScalarsJSON(const TuningState &st) {
  json out = json::object();
  out["excludes"] = nullptr;
  out["raises"] = nullptr;
  out["anti_outlier"] = st.antiOutlier;
  out["units"] = st.units;
  out["modules"] = st.modules;
  return out;
}

// Replaces DIR/best with the evaluation folder (files hard-linked, not copied) plus the tuning
// statements.
void publishBest(const std::string &workdir, const Prepared &p, const EvalRecord &rec) {
  fs::path tmp = fs::path(workdir) / "best.tmp";
  fs::path best = fs::path(workdir) / "best";
  std::error_code ec;
  fs::remove_all(tmp, ec);
  fs::create_directories(tmp, ec);
  fs::copy(p.dir, tmp, fs::copy_options::recursive | fs::copy_options::create_hard_links, ec);
  if (ec)
    fs::copy(p.dir, tmp, fs::copy_options::recursive | fs::copy_options::overwrite_existing, ec);
  for (const char *junk : {"stdout.txt", "tune.qspec", "started"})
    fs::remove(tmp / junk, ec);
  std::string err;
  writeWorkFile(workdir, "best.tmp/tune.qspec",
                "// qtune: best configuration (metric " + formatNumber(rec.metric) +
                    "), for the spec's tune block\n" + p.tuneText,
                err);
  fs::remove_all(best, ec);
  fs::rename(tmp, best, ec);
}

// The units a tuning state moves, with their tiers before and after, as the JSON array text of
// state.json's best "changes" at nesting depth 2 (written once per best, spliced like the lists).
std::string changesJSON(const TuneSpace &space, const TuningState &st) {
  json arr = json::array();
  for (const TierChange &c : tierChanges(space, st))
    arr.push_back({{"unit", c.unit},
                   {"modules", c.modules},
                   {"from", ir::tierName(c.from)},
                   {"to", ir::tierName(c.to)}});
  std::string text = arr.dump(2, ' ', false, json::error_handler_t::replace), out;
  out.reserve(text.size() * 5 / 4);
  for (char c : text) {
    out += c;
    if (c == '\n')
      out += "    ";
  }
  return out;
}

// Where the answer sits, for the summary line: "level 5 of 8 (top 5; 5 units, 15 modules
// moved)", or for an HMCT whole-model phase "all int16 (the whole model; ...)".
std::string answerText(const Prepared &pr, const TuneSpace &space) {
  const Probe &p = pr.probe;
  std::string moved = std::to_string(pr.state.units) + " units, " +
                      std::to_string(pr.state.modules) + " modules moved";
  std::string whole = wholeModelText(p);
  if (p.level > 0 && static_cast<size_t>(p.level) <= space.levels()) {
    std::string what = space.levelText[static_cast<size_t>(p.level - 1)];
    if (p.levelTier >= 0)
      what += std::string(" at ") + ir::tierName(static_cast<ir::Tier>(p.levelTier));
    if (!whole.empty())
      what += ", over " + whole;
    return "level " + std::to_string(p.level) + " of " + std::to_string(space.levels()) + " (" +
           what + "; " + moved + ")";
  }
  if (!whole.empty())
    return whole + " (the whole model; " + moved + ")";
  return "level 0 of " + std::to_string(space.levels()) + " (none; " + moved + ")";
}

std::string goalText(const std::vector<Goal> &goals) {
  std::string out;
  for (const Goal &g : goals)
    out += (out.empty() ? "" : " and ") + g.name + " " + g.op + " " + formatNumber(g.threshold);
  return out;
}

constexpr int kUniformFloat = 5; // ir::Tier::Float

constexpr size_t kStderrLines = 5; // of a failed evaluator's stderr, under its warning

// The module ids the resolved spec's selector keeps for patterns selected again, per module of the
// inventory (4 bytes each): the spec's own patterns, selected again by every probe, and the
// probes' own. A whole DeepSeek-V3 search (16 rounds) selects 186 patterns, 228k ids in all: 5
// a module.
constexpr size_t kRememberedIdsPerModule = 8;

class TuneRun {
public:
  explicit TuneRun(const RunOptions &o) : o_(o), diags_(sm_), dp_{diags_} {}
  int run();

private:
  const RunOptions &o_;
  SourceManager sm_;
  DiagnosticEngine diags_;
  DiagPrinter dp_;
  ir::Spec base_, resolved_;
  TuneSpace space_;
  std::string strategyName_;
  std::unique_ptr<Strategy> strategy_;
  std::vector<Goal> goals_;
  std::unique_ptr<msmodelslim::SelectionCompressor> compressor_; // over resolved_'s inventory
  std::optional<ProbeContext> ctx_;
  History history_;
  ExecOptions exec_;
  std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now();

  int round_ = 0, evaluations_ = 0, cacheHits_ = 0;
  std::map<std::string, std::string> inputs_; // keyInputs: every record of this run holds them
  // The inputs of the latest real answer per configuration digest in the history, to say why a
  // configuration answered before is evaluated again; the keys counted, by changed inputs.
  std::map<std::string, std::map<std::string, std::string>> answeredInputs_;
  std::set<std::string> invalidatedKeys_;
  std::map<std::string, int> invalidated_;
  json inFlight_ = json::array(); // the evaluations running now (qtune status)
  // Evaluations watched for reads of their QSPEC_CONFIG_DIR, and those that read a file there.
  size_t watchedEvals_ = 0, configReads_ = 0;
  bool readsNoted_ = false;
  json rounds_ = json::array(), notes_ = json::array();
  size_t notesShown_ = 0;
  std::optional<std::pair<const Prepared *, EvalRecord>> bestSoFar_; // points into preparedByKey_
  std::map<std::string, Prepared> preparedByKey_;
  std::map<std::string, std::string> keyByProbe_;
  std::optional<double> baseline_;
  std::string bestStateKey_; // whose lists bestLists_ holds
  StateListsText bestLists_; // state.json's best "excludes" and "raises", as text
  std::string bestChanges_;  // state.json's best "changes", as text

  // Seconds since the start. QSPEC_TUNE_CLOCK_FILE (a test hook) names a file holding the time
  // instead, so a scripted evaluator can make a time budget run out at a known evaluation.
  double elapsed() const {
    if (const char *clock = std::getenv("QSPEC_TUNE_CLOCK_FILE")) {
      bool ok = false;
      std::string text = readWholeFile(clock, ok);
      return ok ? std::strtod(text.c_str(), nullptr) : 0;
    }
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
  }
  std::string budgetSpent(double maxTime) const;
  int load();
  bool checkChoices();
  int openWorkdir();
  int makeStrategy();
  int resolveGoals();
  int prepareRound(const std::vector<Probe> &probes, std::vector<std::string> &keys);
  int evaluate(const std::vector<std::string> &keys, std::vector<bool> &cached);
  bool recoverResult(const Prepared &pr);
  void noteInvalidated(const Prepared &pr);
  void explainFailure(Diagnostic &d, const EvalRecord &rec);
  void markInFlight(const std::vector<std::string> &keys, std::map<std::string, size_t> &slotOf);
  void observeRound(const std::vector<Probe> &probes, const std::vector<std::string> &keys,
                    const std::vector<bool> &cached);
  int finish();
  void progress(int inFlight);
  std::string cacheSummary() const;
  void writeState(const std::string &verdict, const std::string &message);
  const EvalRecord *realResult(const std::string &key) const {
    const EvalRecord *r = history_.find(key);
    return r && r->status == "ok" ? r : nullptr;
  }
};

int TuneRun::load() {
  frontend::FrontendOptions fo;
  fo.inventoryOverride = o_.inventory;
  fo.scoresOverride = o_.scores;
  if (!frontend::loadSpec(o_.spec, base_, diags_, fo))
    return 1;
  support::prepareThreadHeaps(base_.inventory.modules.size(), base_.targets.size(),
                              ir::kParallelMinModules);
  if (!base_.tune.present) {
    diags_.report(DiagID::err_tune_no_tune_block, SourceRange::point(sm_.find(o_.spec), 1, 1),
                  {o_.spec});
    return 1;
  }
  if (base_.tune.metrics.empty()) {
    diags_.report(DiagID::err_tune_no_metric, base_.tune.range);
    return 1;
  }
  strategyName_ = base_.tune.strategy.empty() ? "group-bisect" : base_.tune.strategy;
  if (!o_.strategy.empty()) {
    strategyName_ = frontend::canonicalStrategy(o_.strategy);
    if (strategyName_.empty()) {
      std::cerr << "qtune: error: unknown strategy '" << sanitizeForTerminal(o_.strategy)
                << "'; use " << frontend::knownStrategyList() << "\n";
      return 2;
    }
  }
  // The baseline: the spec resolved with an empty tuning state.
  resolved_ = base_;
  resolved_.tune.excludes.clear();
  resolved_.tune.raises.clear();
  // Every probe resolves this spec again (passes::runPipeline uses the selector it holds): the
  // spec's own patterns select the same modules every time.
  auto selector = std::make_shared<ir::ModuleSelector>(resolved_.inventory);
  selector->rememberSelections(kRememberedIdsPerModule * resolved_.inventory.modules.size());
  resolved_.resolution.selector = std::move(selector);
  if (!passes::runPipeline(resolved_, diags_))
    return 1;
  if (!buildSpace(resolved_, space_, diags_))
    return 1;
  return checkChoices() ? 0 : 1;
}

// Choices that cost the user: float fallback on a target that runs float operators on the CPU
// (HMCT, Horizon) where the ladder offers int16; levels ordered by sensitivity without scores.
bool TuneRun::checkChoices() {
  bool usesRaiseTo = strategyName_ != "hmct-ladder"; // the ladder names its tiers itself
  if (usesRaiseTo && space_.raiseTo == ir::Tier::Float &&
      (base_.ladder.empty() || base_.inLadder(ir::Tier::Int16))) {
    SourceRange at = base_.tune.range;
    for (const ir::Option &opt : base_.tune.options)
      if (opt.key == "raise_to")
        at = opt.range;
    for (const ir::Target &t : base_.targets)
      if (t.kind == "hmct" || t.kind == "horizon") {
        diags_.report(DiagID::warn_tune_raise_to_float, at, {t.kind});
        break;
      }
  }
  bool bySensitivity = base_.tune.levels.empty();
  for (const ir::Level &l : base_.tune.levels)
    for (const ir::LevelTerm &t : l.terms)
      bySensitivity = bySensitivity || t.kind == ir::LevelTerm::Top;
  bool anyScored = false;
  for (const Unit &u : space_.units)
    anyScored = anyScored || u.scored;
  if (!bySensitivity || anyScored)
    return true;
  std::string why = base_.scores.present()
                        ? "no tunable module has a score in '" + base_.scores.path + "'"
                        : std::string("the spec names no sensitivity scores");
  diags_.report(DiagID::err_tune_needs_scores,
                base_.tune.strategyRange.valid() ? base_.tune.strategyRange : base_.tune.range,
                {strategyName_, why});
  return false;
}

int TuneRun::openWorkdir() {
  std::string holder, err;
  int evals = -1;
  if (!checkWorkDir(o_.workdir, err) ||
      (evals = openWorkSubdir(o_.workdir, "evals", true, err)) < 0) {
    diags_.report(DiagID::err_tune_workdir, SourceRange{}, {o_.workdir, err});
    return 2;
  }
  ::close(evals);
  std::string lock = (fs::path(o_.workdir) / "lock").string();
  bool locked = takeLock(lock, holder, err);
  // A lock whose writer is gone is held by that run's watchdog while it kills the evaluators
  // the run left behind (after a kill -9): wait for it, at most about 30 s.
  for (int i = 0; !locked && err == "locked" && !holder.empty() && i < 3000; ++i) {
    pid_t pid = static_cast<pid_t>(std::strtol(holder.c_str(), nullptr, 10));
    if (pid <= 0 || ::kill(pid, 0) == 0 || errno != ESRCH)
      break;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
    holder.clear();
    err.clear();
    locked = takeLock(lock, holder, err);
  }
  if (!locked) {
    if (err == "locked")
      diags_.report(DiagID::err_tune_workdir_locked, SourceRange{},
                    {o_.workdir, holder.empty() ? "" : " (pid " + holder + ")"});
    else
      diags_.report(DiagID::err_tune_workdir, SourceRange{}, {o_.workdir, "DIR/lock: " + err});
    return 2;
  }
  // Evaluators of a run that was killed with SIGKILL may still write into the work directory.
  if (int n = sweepWorkdir(o_.workdir))
    std::cerr << "qtune: killed " << n << " evaluator process" << (n == 1 ? "" : "es")
              << " left behind by an interrupted run\n";
  if (!history_.open((fs::path(o_.workdir) / "history.jsonl").string(), err)) {
    diags_.report(DiagID::err_tune_workdir, SourceRange{}, {o_.workdir, err});
    return 2;
  }
  for (const EvalRecord &r : history_.records())
    if (r.status == "ok" && !r.config.empty())
      answeredInputs_[r.config] = r.inputs;
  return 0;
}

int TuneRun::makeStrategy() {
  SearchSpace ss;
  ss.levels = static_cast<int>(space_.levels());
  ss.chains = static_cast<int>(space_.chains.size());
  ss.maxRounds = o_.maxRounds > 0 ? o_.maxRounds : base_.tune.maxRounds;
  auto has = [&](ir::Tier t) { return base_.ladder.empty() || base_.inLadder(t); };
  ss.hasInt16 = has(ir::Tier::Int16);
  ss.hasDualInt16 = has(ir::Tier::DualInt16);
  ss.hasFP16 = has(ir::Tier::FP16);
  ss.higherIsBetter = base_.tune.metricOp == ">=" || base_.tune.metricOp == ">";
  for (const ir::Option &opt : base_.tune.options)
    if (opt.key == "tolerance" && !opt.values.empty() && opt.values[0].kind == ir::Value::Number)
      ss.tolerance = std::fabs(opt.values[0].number);
  ss.progressive = progressiveLevels(space_, base_);
  strategy_ = createStrategy(strategyName_, ss);
  if (!strategy_) {
    std::cerr << "qtune: error: strategy '" << strategyName_ << "' is not implemented\n";
    return 2;
  }
  exec_.executor = o_.executor;
  exec_.slurmArgs = o_.slurmArgs;
  exec_.srun = o_.srun;
  exec_.logLimit = o_.logLimit;
  // The probes' states are compressed with one compressor over the selector every probe resolves
  // with, which the msModelSlim emitter is handed too (emit::EmitIndexes): one trie of the names
  // for both, and the patterns it checks are answered from the selections that selector remembers.
  const ir::ModuleSelector &selector = *resolved_.resolution.selector;
  compressor_ = std::make_unique<msmodelslim::SelectionCompressor>(resolved_.inventory, &selector);
  std::vector<std::pair<std::string, std::string>> inputs = keyInputs(o_, base_);
  inputs_ = {inputs.begin(), inputs.end()};
  ctx_.emplace(ProbeContext{o_, base_, resolved_, space_, inputsKeyText(inputs), *compressor_});
  return 0;
}

// Absolute goals as written; relative ones (`>= 99% of float`) from the float baseline, which is
// evaluated once (a cache hit afterwards) before the search.
int TuneRun::resolveGoals() {
  bool anyRelative = false;
  for (const ir::MetricGoal &g : base_.tune.metrics)
    anyRelative = anyRelative || g.relative;
  if (anyRelative) {
    Probe p;
    p.uniform = kUniformFloat;
    p.why = "float baseline";
    std::vector<std::string> keys;
    std::vector<bool> cached;
    if (int rc = prepareRound({p}, keys))
      return rc;
    if (int rc = evaluate(keys, cached))
      return rc;
    const EvalRecord *rec = realResult(keys[0]);
    if (!rec) {
      const EvalRecord *failed = history_.find(keys[0]);
      diags_.report(DiagID::err_tune_no_verdict, base_.tune.metricRange,
                    {base_.tune.metric, "the float baseline could not be evaluated" +
                                            (failed ? ": " + failed->detail : std::string())});
      return 3;
    }
    baseline_ = rec->metric;
    std::cerr << "qtune: float baseline: " << base_.tune.metric << " " << formatNumber(rec->metric)
              << "\n";
    for (const ir::MetricGoal &g : base_.tune.metrics)
      if (g.relative && !rec->metrics.count(g.name))
        baseline_.reset();
    for (const ir::MetricGoal &g : base_.tune.metrics)
      goals_.push_back(
          {g.name, g.op, g.relative ? g.threshold / 100 * rec->metrics.at(g.name) : g.threshold});
    return 0;
  }
  for (const ir::MetricGoal &g : base_.tune.metrics)
    goals_.push_back({g.name, g.op, g.threshold});
  return 0;
}

int TuneRun::prepareRound(const std::vector<Probe> &probes, std::vector<std::string> &keys) {
  for (const Probe &p : probes) {
    Prepared pr;
    DiagnosticEngine rd(sm_);
    if (!prepareProbe(*ctx_, p, pr, rd)) {
      DiagPrinter{rd}.flush();
      diags_.report(DiagID::err_tune_round_rejected, base_.tune.range,
                    {std::to_string(round_), p.why});
      writeState("error", "round " + std::to_string(round_) + " was rejected by the passes");
      return 2;
    }
    for (const std::string &w : pr.state.skipped)
      diags_.report(DiagID::warn_tune_inexpressible, base_.tune.range, {p.why, w});
    keys.push_back(pr.key);
    keyByProbe_[p.id()] = pr.key;
    auto it = preparedByKey_.find(pr.key);
    if (it == preparedByKey_.end())
      preparedByKey_.emplace(pr.key, std::move(pr));
  }
  return 0;
}

// A run killed between an evaluator's exit and the history append leaves a complete result
// behind: record it instead of evaluating again.
bool TuneRun::recoverResult(const Prepared &pr) {
  if (!fs::exists(fs::path(pr.dir) / "result.json"))
    return false;
  JobResult done;
  done.exitCode = 0;
  EvalRecord got = judge(done, pr.dir, base_.tune.metrics, o_.timeout);
  if (got.status != "ok")
    return false;
  got.key = pr.key;
  got.round = round_;
  got.probe = pr.probe.id();
  got.why = pr.probe.why;
  got.units = pr.state.units;
  got.modules = pr.state.modules;
  got.detail = "recovered: finished before an interrupted run could record it";
  got.config = pr.config;
  got.inputs = inputs_;
  std::string e;
  return history_.append(got, e);
}

// Evaluates every key without a real result (once per key), retrying failures: an ordinary
// failure up to --retries times in its slot, a transient one (the evaluator says so) up to
// --transient-retries times on the next free slot, so another device set gets it. A fatal one
// stops the run (exit 3) with the evaluator's message.
int TuneRun::evaluate(const std::vector<std::string> &keys, std::vector<bool> &cached) {
  cached.assign(keys.size(), false);
  std::vector<std::string> todo;
  std::set<std::string> scheduled;
  for (size_t i = 0; i < keys.size(); ++i) {
    if (realResult(keys[i])) {
      cached[i] = true;
      ++cacheHits_;
      continue;
    }
    if (!scheduled.insert(keys[i]).second)
      continue;
    Prepared &pr = preparedByKey_.at(keys[i]);
    noteInvalidated(pr);
    if (recoverResult(pr))
      continue;
    writeEvalDir(pr);
    todo.push_back(keys[i]);
  }
  const size_t slots = std::max<size_t>({1, o_.jobs, todo.size(), o_.devices.size()});
  std::map<std::string, size_t> slotOf;
  std::map<std::string, int> plainFails, transientFails;
  for (size_t i = 0; i < todo.size(); ++i)
    slotOf[todo[i]] = i;
  bool appendFailed = false;
  std::optional<EvalRecord> fatal;
  for (int attempt = 1; !todo.empty() && !fatal; ++attempt) {
    std::vector<Job> jobs;
    for (const std::string &key : todo) {
      const Prepared &pr = preparedByKey_.at(key);
      std::error_code ec;
      fs::remove(fs::path(pr.dir) / "result.json", ec);
      fs::remove(fs::path(pr.dir) / "started", ec);
      jobs.push_back(makeJob(o_, pr, round_, slotOf[key]));
    }
    std::vector<std::string> again;
    std::set<size_t> taken; // the slots of the retries
    ConfigReads reads;
    bool watching = reads.available() && o_.executor == "local";
    if (watching)
      for (const std::string &key : todo)
        reads.watch((fs::path(preparedByKey_.at(key).dir) / "config").string());
    markInFlight(todo, slotOf);
    progress(static_cast<int>(jobs.size()));
    runJobs(
        jobs, exec_,
        [&](size_t i, const JobResult &jr) {
          const std::string &key = todo[i];
          const Prepared &pr = preparedByKey_.at(key);
          EvalRecord rec = judge(jr, pr.dir, base_.tune.metrics, o_.timeout);
          ++evaluations_;
          bool transient = rec.status == "transient";
          int &fails = transient ? transientFails[key] : plainFails[key];
          if (rec.status != "ok" && rec.status != "fatal" &&
              ++fails <= (transient ? o_.transientRetries : o_.retries)) {
            std::string where;
            if (transient && slots > 1) {
              size_t s = (slotOf[key] + 1) % slots;
              while (taken.count(s) && taken.size() < slots)
                s = (s + 1) % slots;
              taken.insert(s);
              slotOf[key] = s;
              if (o_.executor != "slurm") // with Slurm, Slurm picks the devices
                where = " on device " + slotDevice(o_, s);
            }
            std::cerr << "qtune: evaluation " << pr.key.substr(0, 16) << " failed (" << rec.detail
                      << "); retrying" << where << " (" << fails << " of "
                      << (transient ? o_.transientRetries : o_.retries) << ")\n";
            again.push_back(key);
            return;
          }
          rec.key = pr.key;
          rec.round = round_;
          rec.probe = pr.probe.id();
          rec.why = pr.probe.why;
          rec.units = pr.state.units;
          rec.modules = pr.state.modules;
          rec.attempts = attempt;
          rec.device = o_.executor == "slurm" ? stepDevices(pr.dir)
                       : o_.devices.empty()   ? ""
                                              : slotDevice(o_, slotOf[key]);
          rec.config = pr.config;
          rec.inputs = inputs_;
          std::string e;
          if (!history_.append(rec, e)) {
            std::cerr << "qtune: error: cannot append to the history: " << e << "\n";
            appendFailed = true;
          }
          if (rec.status == "fatal" && !fatal)
            fatal = rec;
        },
        [&] {
          if (o_.progress && ::isatty(2))
            progress(static_cast<int>(jobs.size()));
        });
    if (appendFailed)
      return 2;
    if (watching) {
      watchedEvals_ += jobs.size();
      configReads_ += reads.read();
    }
    todo = std::move(again);
  }
  if (fatal) {
    Diagnostic &d =
        diags_.report(DiagID::err_tune_eval_fatal, SourceRange{},
                      {fatal->key.substr(0, 16), std::to_string(round_), fatal->detail});
    explainFailure(d, *fatal);
    dp_.flush();
    writeState("fatal", fatal->detail);
    return 3;
  }
  return 0;
}

// A hint when a failed evaluator's stderr names QSPEC_IR (set only with --write-ir), then its
// last lines, under its diagnostic (printed now).
void TuneRun::explainFailure(Diagnostic &d, const EvalRecord &rec) {
  std::string tail = rec.stderrTail;
  while (!tail.empty() && (tail.back() == '\n' || tail.back() == ' '))
    tail.pop_back();
  if (tail.empty())
    return;
  std::vector<std::string> lines;
  size_t end = tail.size();
  while (lines.size() < kStderrLines && end > 0) {
    size_t nl = tail.rfind('\n', end - 1);
    size_t begin = nl == std::string::npos ? 0 : nl + 1;
    lines.insert(lines.begin(), tail.substr(begin, end - begin));
    if (nl == std::string::npos)
      break;
    end = nl;
  }
  if (!o_.writeIR && tail.find("QSPEC_IR") != std::string::npos)
    diags_.note(d, DiagID::note_tune_ir_unset, SourceRange{});
  // The last note ends with a colon; the lines follow it, indented (a message is one line).
  diags_.note(d, DiagID::note_tune_stderr, SourceRange{}, {""});
  dp_.flush();
  for (const std::string &l : lines)
    std::cerr << "    " << sanitizeForTerminal(l) << "\n";
}

// Counts a key that is evaluated although its configuration was answered before under other
// inputs (a changed evaluator, model or declared input), by the inputs that changed.
void TuneRun::noteInvalidated(const Prepared &pr) {
  auto it = answeredInputs_.find(pr.config);
  if (it == answeredInputs_.end() || !invalidatedKeys_.insert(pr.key).second)
    return;
  std::string why;
  for (const auto &[name, digest] : inputs_) {
    auto old = it->second.find(name);
    if (old == it->second.end() || old->second != digest)
      why += (why.empty() ? "" : ", ") + name;
  }
  for (const auto &[name, digest] : it->second)
    if (!inputs_.count(name))
      why += (why.empty() ? "" : ", ") + name;
  ++invalidated_[why.empty() ? "cache format" : why];
}

void TuneRun::observeRound(const std::vector<Probe> &probes, const std::vector<std::string> &keys,
                           const std::vector<bool> &cached) {
  std::vector<std::pair<Probe, Outcome>> results;
  json rj = json::array();
  for (size_t i = 0; i < probes.size(); ++i) {
    const EvalRecord *rec = history_.find(keys[i]);
    const Prepared &pr = preparedByKey_.at(keys[i]);
    Outcome oc;
    oc.evaluated = rec && rec->status == "ok";
    oc.metric = oc.evaluated ? rec->metric : 0;
    oc.pass = oc.evaluated && goalsPass(goals_, *rec);
    results.push_back({probes[i], oc});
    if (rec && !oc.evaluated && rec->round == round_) {
      Diagnostic &d = diags_.report(DiagID::warn_tune_eval_failed, SourceRange{},
                                    {keys[i].substr(0, 16), std::to_string(round_), rec->detail});
      explainFailure(d, *rec);
    }
    if (oc.pass && (!bestSoFar_ || pr.state.modules < bestSoFar_->first->state.modules)) {
      bestSoFar_ = std::make_pair(&pr, *rec);
      publishBest(o_.workdir, pr, *rec);
    }
    json pj;
    pj["key"] = keys[i];
    pj["probe"] = probes[i].id();
    pj["why"] = probes[i].why;
    pj["level"] = probes[i].level;
    pj["level_text"] =
        probes[i].level > 0 ? space_.levelText[static_cast<size_t>(probes[i].level - 1)] : "none";
    pj["set"] = probeSetText(probes[i], space_);
    pj["uniform"] = probes[i].uniform >= 0
                        ? json(ir::tierName(static_cast<ir::Tier>(probes[i].uniform)))
                        : json(nullptr);
    pj["dual_matmul"] = probes[i].dualMatmul;
    pj["level_tier"] = probes[i].levelTier >= 0
                           ? json(ir::tierName(static_cast<ir::Tier>(probes[i].levelTier)))
                           : json(nullptr);
    pj["seconds"] = rec ? json(std::round(rec->seconds * 1000) / 1000) : json(nullptr);
    pj["device"] = rec && !cached[i] ? rec->device : "";
    pj["anti_outlier"] = pr.state.antiOutlier;
    pj["units"] = pr.state.units;
    pj["modules"] = pr.state.modules;
    pj["status"] = rec ? rec->status : "missing";
    pj["detail"] = rec && !oc.evaluated ? rec->detail : "";
    pj["metric"] = oc.evaluated ? json(oc.metric) : json(nullptr);
    pj["pass"] = oc.pass;
    pj["cached"] = static_cast<bool>(cached[i]);
    rj.push_back(pj);
  }
  inFlight_ = json::array();
  if (!readsNoted_ && watchedEvals_ > 0 && configReads_ == 0) {
    readsNoted_ = true;
    diags_.report(
        DiagID::note_tune_reads_no_config, SourceRange{},
        {std::to_string(watchedEvals_) + " evaluation" + (watchedEvals_ == 1 ? "" : "s")});
  }
  strategy_->observe(results);
  for (; notesShown_ < strategy_->notes().size(); ++notesShown_) {
    notes_.push_back(strategy_->notes()[notesShown_]);
    diags_.report(DiagID::warn_tune_non_monotone, base_.tune.metricRange,
                  {strategy_->notes()[notesShown_]});
  }
  dp_.flush();
  rounds_.push_back({{"round", round_}, {"probes", rj}});
}

// Records the evaluations about to start in state.json, for `qtune status` while they run.
void TuneRun::markInFlight(const std::vector<std::string> &keys,
                           std::map<std::string, size_t> &slotOf) {
  inFlight_ = json::array();
  for (const std::string &key : keys) {
    const Prepared &pr = preparedByKey_.at(key);
    inFlight_.push_back({{"key", key},
                         {"set", probeSetText(pr.probe, space_)},
                         {"why", pr.probe.why},
                         // With Slurm the step's devices are known once it has run.
                         {"device", o_.executor == "slurm" ? "" : slotDevice(o_, slotOf[key])},
                         {"started", std::round(elapsed() * 10) / 10}});
  }
  writeState("running", "");
}

void TuneRun::progress(int inFlight) {
  if (!o_.progress)
    return;
  std::ostringstream line;
  line << "qtune: round " << round_ << " | in flight " << inFlight << " | best so far: ";
  if (bestSoFar_)
    line << probeSetText(bestSoFar_->first->probe, space_) << " ("
         << bestSoFar_->first->state.modules << " modules moved), " << base_.tune.metric << " "
         << formatNumber(bestSoFar_->second.metric);
  else
    line << "none";
  char buf[32];
  snprintf(buf, sizeof buf, "%.1fs", elapsed());
  line << " | " << buf;
  std::cerr << line.str() << "\n";
}

// "qtune: cache: 3 answers reused, 5 invalidated (evaluator changed: 5)".
std::string TuneRun::cacheSummary() const {
  int n = 0;
  std::string why;
  for (const auto &[inputs, count] : invalidated_) {
    n += count;
    why += (why.empty() ? " (" : "; ") + inputs + " changed: " + std::to_string(count);
  }
  return "qtune: cache: " + std::to_string(cacheHits_) + " answer" + (cacheHits_ == 1 ? "" : "s") +
         " reused, " + std::to_string(n) + " invalidated" + (why.empty() ? "" : why + ")");
}

void TuneRun::writeState(const std::string &verdict, const std::string &message) {
  json st;
  st["version"] = 2;
  st["spec"] = fs::absolute(o_.spec).lexically_normal().string();
  st["inventory_override"] =
      o_.inventory.empty() ? "" : fs::absolute(o_.inventory).lexically_normal().string();
  st["scores_override"] =
      o_.scores.empty() ? "" : fs::absolute(o_.scores).lexically_normal().string();
  st["strategy"] = strategyName_;
  st["metric"] = base_.tune.metric;
  st["op"] = base_.tune.metricOp;
  st["threshold"] = goals_.empty() ? base_.tune.threshold : goals_.front().threshold;
  json goals = json::array();
  for (const Goal &g : goals_)
    goals.push_back({{"metric", g.name}, {"op", g.op}, {"threshold", g.threshold}});
  st["goals"] = goals;
  st["baseline"] = baseline_ ? json(*baseline_) : json(nullptr);
  st["levels"] = space_.levels();
  st["units"] = space_.units.size();
  st["jobs"] = o_.jobs;
  json devices = json::array();
  for (const std::string &d : o_.devices)
    devices.push_back(d);
  st["devices"] = devices;
  st["max_evals"] = o_.maxEvals;
  st["max_time"] = o_.maxTime > 0 ? o_.maxTime : base_.tune.maxSeconds;
  st["plateau"] = o_.plateau;
  st["executor"] = o_.executor;
  st["verdict"] = verdict;
  st["message"] = message;
  st["rounds"] = rounds_;
  st["notes"] = notes_;
  st["evaluations"] = evaluations_;
  st["cache_hits"] = cacheHits_;
  json inv = json::object();
  for (const auto &[why, n] : invalidated_)
    inv[why] = n;
  st["cache_invalidated"] = inv;
  st["in_flight"] = verdict == "running" ? inFlight_ : json::array();
  st["elapsed"] = std::round(elapsed() * 10) / 10;
  const Verdict &v = strategy_ ? strategy_->verdict() : Verdict{};
  const Prepared *bp = nullptr;
  double bm = 0;
  if (v.kind != Verdict::Running && v.best) {
    auto it = keyByProbe_.find(v.best->id());
    if (it != keyByProbe_.end()) {
      bp = &preparedByKey_.at(it->second);
      bm = v.metric;
    }
  } else if (v.kind == Verdict::Running && bestSoFar_) {
    bp = bestSoFar_->first;
    bm = bestSoFar_->second.metric;
  }
  if (bp) {
    // The best state's name lists (tens of thousands at scale) are written as text once per
    // best and spliced in for the placeholders below (no JSON tree of them).
    if (bestStateKey_ != bp->key) {
      bestLists_ = stateListsJSON(bp->state, 2);
      bestChanges_ = changesJSON(space_, bp->state);
      bestStateKey_ = bp->key;
    }
    json &b = st["best"] = stateScalarsJSON(bp->state);
    b["key"] = bp->key;
    b["probe"] = bp->probe.id();
    b["why"] = bp->probe.why;
    b["level"] = bp->probe.level;
    b["set"] = probeSetText(bp->probe, space_);
    b["uniform"] = bp->probe.uniform >= 0
                       ? json(ir::tierName(static_cast<ir::Tier>(bp->probe.uniform)))
                       : json(nullptr);
    b["changes"] = nullptr;
    b["metric"] = bm;
  } else {
    st["best"] = nullptr;
  }
  std::string text = st.dump(2, ' ', false, json::error_handler_t::replace) + "\n";
  if (bp) {
    size_t best = text.find("\n  \"best\": {"); // depth 1: only the root's member has 2 spaces
    for (const auto &[key, list] :
         {std::pair<const char *, const std::string *>{"changes", &bestChanges_},
          {"excludes", &bestLists_.excludes},
          {"raises", &bestLists_.raises}}) {
      std::string placeholder = std::string("\n    \"") + key + "\": null";
      size_t at = text.find(placeholder, best);
      text.replace(at + placeholder.size() - 4, 4, *list);
    }
  }
  std::string e;
  if (!writeWorkFile(o_.workdir, "state.json", text, e))
    std::cerr << "qtune: warning: cannot write state.json: " << e << "\n";
}

int TuneRun::finish() {
  if (strategy_->verdict().kind == Verdict::Running)
    strategy_->stop("the strategy stopped without a verdict");
  const Verdict &fv = strategy_->verdict();
  std::optional<std::string> bestKey;
  if (fv.best && keyByProbe_.count(fv.best->id()))
    bestKey = keyByProbe_[fv.best->id()];
  std::error_code ec;
  if (bestKey) {
    if (const EvalRecord *rec = history_.find(*bestKey))
      publishBest(o_.workdir, preparedByKey_.at(*bestKey), *rec);
  } else {
    fs::remove_all(fs::path(o_.workdir) / "best", ec);
  }
  writeState(verdictName(fv.kind), fv.message);
  std::cerr << "qtune: " << evaluations_ << " evaluations, " << cacheHits_ << " cache hits, "
            << round_ << " rounds, " << strategyName_ << "\n";
  std::cerr << cacheSummary() << "\n";
  if (o_.writeReport) {
    std::string err;
    if (!writeReportFiles(o_.workdir, err))
      std::cerr << "qtune: warning: cannot write the report: " << err << "\n";
  }
  const std::string target = goalText(goals_);
  if (bestKey) {
    const Prepared &pr = preparedByKey_.at(*bestKey);
    std::cout << "qtune: target met: " << target << " with " << base_.tune.metric << " "
              << formatNumber(fv.metric) << " at " << answerText(pr, space_)
              << (fv.message.find("unknown") != std::string::npos || fv.kind == Verdict::Exhausted
                      ? " [" + fv.message + "]"
                      : "")
              << "\n";
    std::cerr << "qtune: best configuration in " << (fs::path(o_.workdir) / "best").string()
              << "; 'qtune apply " << o_.workdir << "' writes it into the spec\n";
    return 0;
  }
  const char *word = "not reached";
  int rc = 1;
  if (fv.kind == Verdict::Unreachable) {
    diags_.report(DiagID::err_tune_unreachable, base_.tune.metricRange, {target, fv.message});
    word = "unreachable";
  } else if (fv.kind == Verdict::Unknown) {
    diags_.report(DiagID::err_tune_no_verdict, base_.tune.metricRange, {target, fv.message});
    word = "no verdict";
    rc = 3;
  } else {
    diags_.report(DiagID::err_tune_exhausted, base_.tune.metricRange, {target, fv.message});
  }
  dp_.flush();
  std::cout << "qtune: " << word << ": " << target << ": " << fv.message << "\n";
  return rc;
}

// Why the budget stops the run before the next round ("" while it lasts): the time limit
// (--max-hours, --max-time, the spec's max_time) or the number of evaluator runs (--max-evals).
std::string TuneRun::budgetSpent(double maxTime) const {
  if (o_.maxEvals > 0 && evaluations_ >= o_.maxEvals)
    return "stopped at the budget of " + std::to_string(o_.maxEvals) + " evaluations (--max-evals)";
  if (maxTime > 0 && elapsed() >= maxTime)
    return "stopped at the time budget of " + formatNumber(maxTime) + " s (" +
           formatNumber(maxTime / 3600) + " h)";
  return "";
}

int TuneRun::run() {
  emit::registerAllEmitters();
  int rc = load();
  if (rc == 0)
    rc = openWorkdir();
  if (rc == 0)
    rc = makeStrategy();
  dp_.flush();
  if (rc != 0)
    return rc;
  installExitHandlers();
  startWatchdog(o_.workdir);
  writeState("running", "");
  if ((rc = resolveGoals()) != 0) {
    dp_.flush();
    writeState("error", "the float baseline could not be evaluated");
    return rc;
  }
  double maxTime = o_.maxTime > 0 ? o_.maxTime : base_.tune.maxSeconds;
  int sinceBetter = 0;
  while (true) {
    std::string spent = budgetSpent(maxTime);
    if (spent.empty() && o_.plateau > 0 && bestSoFar_ && sinceBetter >= o_.plateau)
      spent = "stopped on a plateau: no better configuration in the last " +
              std::to_string(sinceBetter) + " rounds (--plateau " + std::to_string(o_.plateau) +
              ")";
    if (!spent.empty()) {
      strategy_->stop(spent);
      break;
    }
    std::vector<Probe> probes = strategy_->next(std::max(1u, o_.jobs));
    if (probes.empty())
      break;
    ++round_;
    std::vector<std::string> keys;
    std::vector<bool> cached;
    if ((rc = prepareRound(probes, keys)) != 0 || (rc = evaluate(keys, cached)) != 0) {
      dp_.flush();
      return rc;
    }
    const Prepared *before = bestSoFar_ ? bestSoFar_->first : nullptr;
    observeRound(probes, keys, cached);
    sinceBetter = bestSoFar_ && bestSoFar_->first != before ? 0 : sinceBetter + 1;
    writeState("running", "");
  }
  return finish();
}

} // namespace

int runCommand(const RunOptions &o) {
  int rc = TuneRun(o).run();
  stopWatchdog();
  return rc;
}

} // namespace qspec::tune
