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
#include "driver/Compile.h"
#include "driver/qtune/Run.h"
#include "driver/qtune/State.h"

#include "emitters/Emitter.h"
#include "ir/Select.h"
#include "vendors/msmodelslim/MsModelSlimRules.h"
#include "frontend/Frontend.h"
#include "passes/Pass.h"

#include <nlohmann/json.hpp>

#include <chrono>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <optional>
#include <set>
#include <sstream>
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

std::string goalText(const std::vector<Goal> &goals) {
  std::string out;
  for (const Goal &g : goals)
    out += (out.empty() ? "" : " and ") + g.name + " " + g.op + " " + formatNumber(g.threshold);
  return out;
}

constexpr int kUniformFloat = 5; // ir::Tier::Float

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
  std::optional<ProbeContext> ctx_;
  History history_;
  ExecOptions exec_;
  std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now();

  int round_ = 0, evaluations_ = 0, cacheHits_ = 0;
  json rounds_ = json::array(), notes_ = json::array();
  size_t notesShown_ = 0;
  std::optional<std::pair<const Prepared *, EvalRecord>> bestSoFar_; // points into preparedByKey_
  std::map<std::string, Prepared> preparedByKey_;
  std::map<std::string, std::string> keyByProbe_;
  std::optional<double> baseline_;
  std::string bestStateKey_; // whose lists bestLists_ holds
  StateListsText bestLists_; // state.json's best "excludes" and "raises", as text

  double elapsed() const {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
  }
  int load();
  int openWorkdir();
  int makeStrategy();
  int resolveGoals();
  int prepareRound(const std::vector<Probe> &probes, std::vector<std::string> &keys);
  int evaluate(const std::vector<std::string> &keys, std::vector<bool> &cached);
  bool recoverResult(const Prepared &pr);
  void observeRound(const std::vector<Probe> &probes, const std::vector<std::string> &keys,
                    const std::vector<bool> &cached);
  int finish();
  void progress(int inFlight);
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
  driver::prepareThreadHeaps(base_.inventory.modules.size(), base_.targets.size());
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
  return 0;
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
  if (!takeLock((fs::path(o_.workdir) / "lock").string(), holder, err)) {
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
  // The probes' states are compressed with the compressor the msModelSlim emitter keeps with the
  // selector every probe resolves with: one trie of the names for both, and the patterns it
  // checks are answered from the selections that selector remembers.
  const ir::ModuleSelector &selector = *resolved_.resolution.selector;
  const auto &compressor = selector.derived<msmodelslim::SelectionCompressor>([&] {
    return std::make_unique<msmodelslim::SelectionCompressor>(resolved_.inventory, &selector);
  });
  ctx_.emplace(
      ProbeContext{o_, base_, resolved_, space_, evaluatorKey(o_, base_.tune), compressor});
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
  std::string e;
  return history_.append(got, e);
}

// Evaluates every key without a real result (once per key), retrying failures.
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
    if (recoverResult(pr))
      continue;
    writeEvalDir(pr);
    todo.push_back(keys[i]);
  }
  bool appendFailed = false;
  for (int attempt = 1; !todo.empty(); ++attempt) {
    std::vector<Job> jobs;
    for (size_t slot = 0; slot < todo.size(); ++slot) {
      const Prepared &pr = preparedByKey_.at(todo[slot]);
      std::error_code ec;
      fs::remove(fs::path(pr.dir) / "result.json", ec);
      fs::remove(fs::path(pr.dir) / "started", ec);
      jobs.push_back(makeJob(o_, pr, round_, slot));
    }
    std::vector<std::string> again;
    progress(static_cast<int>(jobs.size()));
    runJobs(
        jobs, exec_,
        [&](size_t i, const JobResult &jr) {
          const Prepared &pr = preparedByKey_.at(todo[i]);
          EvalRecord rec = judge(jr, pr.dir, base_.tune.metrics, o_.timeout);
          ++evaluations_;
          if (rec.status != "ok" && attempt <= o_.retries) {
            std::cerr << "qtune: evaluation " << pr.key.substr(0, 16) << " failed (" << rec.detail
                      << "); retrying (" << attempt << " of " << o_.retries << ")\n";
            again.push_back(todo[i]);
            return;
          }
          rec.key = pr.key;
          rec.round = round_;
          rec.probe = pr.probe.id();
          rec.why = pr.probe.why;
          rec.units = pr.state.units;
          rec.modules = pr.state.modules;
          rec.attempts = attempt;
          std::string e;
          if (!history_.append(rec, e)) {
            std::cerr << "qtune: error: cannot append to the history: " << e << "\n";
            appendFailed = true;
          }
        },
        [&] {
          if (o_.progress && ::isatty(2))
            progress(static_cast<int>(jobs.size()));
        });
    if (appendFailed)
      return 2;
    todo = std::move(again);
  }
  return 0;
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
      std::string tail = rec->stderrTail;
      while (!tail.empty() && (tail.back() == '\n' || tail.back() == ' '))
        tail.pop_back();
      size_t cut = tail.rfind('\n');
      if (!tail.empty())
        diags_.note(d, DiagID::note_tune_stderr, SourceRange{},
                    {sanitizeForTerminal(cut == std::string::npos ? tail : tail.substr(cut + 1))});
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
  strategy_->observe(results);
  for (; notesShown_ < strategy_->notes().size(); ++notesShown_) {
    notes_.push_back(strategy_->notes()[notesShown_]);
    diags_.report(DiagID::warn_tune_non_monotone, base_.tune.metricRange,
                  {strategy_->notes()[notesShown_]});
  }
  dp_.flush();
  rounds_.push_back({{"round", round_}, {"probes", rj}});
}

void TuneRun::progress(int inFlight) {
  if (!o_.progress)
    return;
  std::ostringstream line;
  line << "qtune: round " << round_ << " | in flight " << inFlight << " | best so far: ";
  if (bestSoFar_)
    line << "level " << bestSoFar_->first->probe.level << " (" << bestSoFar_->first->state.modules
         << " modules moved), " << base_.tune.metric << " "
         << formatNumber(bestSoFar_->second.metric);
  else
    line << "none";
  char buf[32];
  snprintf(buf, sizeof buf, "%.1fs", elapsed());
  line << " | " << buf;
  std::cerr << line.str() << "\n";
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
  st["executor"] = o_.executor;
  st["verdict"] = verdict;
  st["message"] = message;
  st["rounds"] = rounds_;
  st["notes"] = notes_;
  st["evaluations"] = evaluations_;
  st["cache_hits"] = cacheHits_;
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
      bestStateKey_ = bp->key;
    }
    json &b = st["best"] = stateScalarsJSON(bp->state);
    b["key"] = bp->key;
    b["probe"] = bp->probe.id();
    b["why"] = bp->probe.why;
    b["level"] = bp->probe.level;
    b["metric"] = bm;
  } else {
    st["best"] = nullptr;
  }
  std::string text = st.dump(2, ' ', false, json::error_handler_t::replace) + "\n";
  if (bp) {
    size_t best = text.find("\n  \"best\": {"); // depth 1: only the root's member has 2 spaces
    for (const auto &[key, list] :
         {std::pair<const char *, const std::string *>{"excludes", &bestLists_.excludes},
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
  if (o_.writeReport) {
    std::string err;
    if (!writeReportFiles(o_.workdir, err))
      std::cerr << "qtune: warning: cannot write the report: " << err << "\n";
  }
  const std::string target = goalText(goals_);
  if (bestKey) {
    const Prepared &pr = preparedByKey_.at(*bestKey);
    std::string levelText =
        pr.probe.level > 0 ? space_.levelText[static_cast<size_t>(pr.probe.level - 1)] : "none";
    std::cout << "qtune: target met: " << target << " with " << base_.tune.metric << " "
              << formatNumber(fv.metric) << " at level " << pr.probe.level << " of "
              << space_.levels() << " (" << levelText << "; " << pr.state.units << " units, "
              << pr.state.modules << " modules moved)"
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
  writeState("running", "");
  if ((rc = resolveGoals()) != 0) {
    dp_.flush();
    writeState("error", "the float baseline could not be evaluated");
    return rc;
  }
  double maxTime = o_.maxTime > 0 ? o_.maxTime : base_.tune.maxSeconds;
  while (true) {
    if (maxTime > 0 && elapsed() > maxTime) {
      strategy_->stop("stopped after the time limit of " + formatNumber(maxTime) + " s");
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
    observeRound(probes, keys, cached);
    writeState("running", "");
  }
  return finish();
}

} // namespace

int runCommand(const RunOptions &o) { return TuneRun(o).run(); }

} // namespace qspec::tune
