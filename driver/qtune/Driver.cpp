// The qtune commands. The run loop:
//
// 1. Load the spec, resolve it once with an empty tuning state, and build the tune space (units,
//    levels). Take the work-directory lock, open the history (the cache).
// 2. Each round the strategy proposes probes. For each probe: a fresh copy of the spec gets the
//    probe's tuning state, the whole pass pipeline runs on it (so protected modules and groups
//    are checked exactly as qcc checks them), every target is emitted, and the IR is printed.
//    The cache key hashes what was emitted (target files, resolved modules, anti-outlier choice)
//    plus the evaluator command and the salt.
// 3. Keys found in the history are cache hits; the rest run at once, one per slot, each pinned to
//    its device. Every finished evaluation is appended (fsynced) before the round ends.
// 4. The strategy observes the round; state.json (rounds, verdict, best) is rewritten
//    atomically, the best passing configuration so far is copied to DIR/best/.
// Resume needs nothing special: the strategy is deterministic, so a rerun replays the finished
// rounds from the cache and continues with the first unfinished evaluation.
#include "driver/qtune/Driver.h"

#include "driver/qtune/Space.h"
#include "driver/qtune/Strategy.h"
#include "driver/qtune/Support.h"
#include "emitters/Emitter.h"
#include "frontend/Frontend.h"
#include "ir/IRPrinter.h"
#include "passes/Pass.h"

#include <nlohmann/json.hpp>

#include <chrono>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <set>
#include <sstream>
#include <unistd.h>

namespace qspec::tune {

namespace fs = std::filesystem;
using json = nlohmann::json;

namespace {

std::string fmtNum(double v) {
  char buf[64];
  snprintf(buf, sizeof buf, "%.6g", v);
  return buf;
}

std::string readFile(const std::string &path, bool &ok) {
  std::ifstream in(path, std::ios::binary);
  ok = static_cast<bool>(in);
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

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

bool metricPasses(const std::string &op, double metric, double threshold) {
  if (op == ">=")
    return metric >= threshold;
  if (op == "<=")
    return metric <= threshold;
  if (op == ">")
    return metric > threshold;
  return metric < threshold;
}

json stateJSON(const TuningState &st) {
  json ex = json::array();
  for (size_t i = 0; i < st.excludes.size(); ++i)
    ex.push_back({{"unit", st.excludeUnits[i]}, {"names", st.excludes[i]}});
  json rs = json::array();
  for (const auto &r : st.raises)
    rs.push_back({{"unit", r.unit}, {"tier", ir::tierName(r.tier)}, {"names", r.names}});
  return {{"excludes", ex}, {"raises", rs}, {"anti_outlier", st.antiOutlier}, {"units", st.units},
          {"modules", st.modules}};
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

struct Prepared {
  Probe probe;
  TuningState state;
  std::string key, dir;
  std::string irJson;
  std::vector<std::pair<std::string, std::string>> files; // file name, bytes
};

// What the cache key must not depend on: where the spec and its inputs live and the rule
// locations ("at"), and the tune settings (a new threshold or strategy must not invalidate a
// measured configuration). What remains is the resolved configuration itself.
void stripForKey(json &j, bool top) {
  if (j.is_object()) {
    if (top) {
      j.erase("spec");
      j.erase("tune");
      for (const char *k : {"inventory", "scores"})
        if (j.contains(k) && j[k].is_object())
          j[k].erase("path");
    }
    j.erase("at");
    for (auto &[k, v] : j.items())
      stripForKey(v, false);
  } else if (j.is_array()) {
    for (json &v : j)
      stripForKey(v, false);
  }
}

// Evaluation status from a finished job and its result file.
EvalRecord judge(const JobResult &jr, const std::string &resultPath, const std::string &stderrPath,
                 const std::string &metric, double timeout) {
  EvalRecord r;
  r.seconds = jr.seconds;
  r.stderrTail = fileTail(stderrPath, 2000);
  if (jr.timedOut) {
    r.status = "timeout";
    r.detail = "no result after " + fmtNum(timeout) + " s; the evaluator was killed";
  } else if (jr.signal) {
    r.status = "signal";
    r.detail = "the evaluator was killed by signal " + std::to_string(jr.signal);
  } else if (jr.exitCode != 0) {
    r.status = "exit";
    r.detail = "the evaluator exited with code " + std::to_string(jr.exitCode);
  } else {
    bool ok = false;
    std::string text = readFile(resultPath, ok);
    json j = ok ? json::parse(text, nullptr, false) : json();
    if (!ok) {
      r.status = "no-result";
      r.detail = "the evaluator wrote no result file (QSPEC_RESULT)";
    } else if (j.is_discarded() || !j.is_object()) {
      r.status = "bad-result";
      r.detail = "the result file is not a JSON object";
    } else if (!j.contains(metric) || !j[metric].is_number() || !std::isfinite(j[metric].get<double>())) {
      r.status = "bad-result";
      r.detail = "the result has no finite number named '" + metric + "'";
    } else {
      r.status = "ok";
      r.hasMetric = true;
      r.metric = j[metric].get<double>();
    }
  }
  return r;
}

bool writeJSONAtomically(const std::string &path, const json &j, std::string &err) {
  return emit::writeFileAtomically(path, j.dump(2, ' ', false, json::error_handler_t::replace) + "\n", err);
}

// Replaces DIR/best with a copy of the evaluation folder plus the tuning statements.
void publishBest(const std::string &workdir, const Prepared &p, const EvalRecord &rec) {
  fs::path tmp = fs::path(workdir) / "best.tmp";
  fs::path best = fs::path(workdir) / "best";
  std::error_code ec;
  fs::remove_all(tmp, ec);
  fs::create_directories(tmp, ec);
  fs::copy(p.dir, tmp, fs::copy_options::recursive | fs::copy_options::overwrite_existing, ec);
  for (const char *junk : {"stdout.txt"})
    fs::remove(tmp / junk, ec);
  std::ofstream(tmp / "tune.qspec") << "// qtune: best configuration (metric " << fmtNum(rec.metric)
                                    << "), for the spec's tune block\n"
                                    << stateText(p.state, "");
  fs::remove_all(best, ec);
  fs::rename(tmp, best, ec);
}

} // namespace

int runCommand(const RunOptions &o) {
  emit::registerAllEmitters();
  SourceManager sm;
  DiagnosticEngine diags(sm);
  DiagPrinter dp{diags};
  frontend::FrontendOptions fo;
  fo.inventoryOverride = o.inventory;
  fo.scoresOverride = o.scores;

  ir::Spec base;
  if (!frontend::loadSpec(o.spec, base, diags, fo)) {
    dp.flush();
    return 1;
  }
  if (!base.tune.present) {
    diags.report(DiagID::err_tune_no_tune_block, SourceRange::point(sm.find(o.spec), 1, 1), {o.spec});
    dp.flush();
    return 1;
  }
  if (base.tune.metric.empty()) {
    diags.report(DiagID::err_tune_no_metric, base.tune.range);
    dp.flush();
    return 1;
  }
  std::string strategyName = base.tune.strategy.empty() ? "group-bisect" : base.tune.strategy;
  if (!o.strategy.empty()) {
    strategyName = frontend::canonicalStrategy(o.strategy);
    if (strategyName.empty()) {
      std::cerr << "qtune: error: unknown strategy '" << sanitizeForTerminal(o.strategy)
                << "'; use " << frontend::knownStrategyList() << "\n";
      return 2;
    }
  }
  // The baseline: the spec resolved with an empty tuning state.
  ir::Spec resolved = base;
  resolved.tune.excludes.clear();
  resolved.tune.raises.clear();
  if (!passes::runPipeline(resolved, diags)) {
    dp.flush();
    return 1;
  }
  TuneSpace space;
  if (!buildSpace(resolved, space, diags)) {
    dp.flush();
    return 1;
  }
  dp.flush();

  // Work directory, lock, history.
  std::error_code ec;
  fs::create_directories(fs::path(o.workdir) / "evals", ec);
  if (ec) {
    diags.report(DiagID::err_tune_workdir, SourceRange{}, {o.workdir, ec.message()});
    dp.flush();
    return 2;
  }
  std::string holder, err;
  if (!takeLock((fs::path(o.workdir) / "lock").string(), holder, err)) {
    diags.report(DiagID::err_tune_workdir_locked, SourceRange{},
                 {o.workdir, err == "locked" ? (holder.empty() ? "" : " (pid " + holder + ")") : ": " + err});
    dp.flush();
    return 2;
  }
  History history;
  if (!history.open((fs::path(o.workdir) / "history.jsonl").string(), err)) {
    diags.report(DiagID::err_tune_workdir, SourceRange{}, {o.workdir, err});
    dp.flush();
    return 2;
  }

  SearchSpace ss;
  ss.levels = static_cast<int>(space.levels.size());
  ss.chains = static_cast<int>(space.chains.size());
  ss.maxRounds = o.maxRounds > 0 ? o.maxRounds : base.tune.maxRounds;
  auto has = [&](ir::Tier t) { return base.ladder.empty() || base.inLadder(t); };
  ss.hasInt16 = has(ir::Tier::Int16);
  ss.hasDualInt16 = has(ir::Tier::DualInt16);
  ss.hasFP16 = has(ir::Tier::FP16);
  ss.higherIsBetter = base.tune.metricOp == ">=" || base.tune.metricOp == ">";
  for (const ir::Option &opt : base.tune.options)
    if (opt.key == "tolerance" && !opt.values.empty() && opt.values[0].kind == ir::Value::Number)
      ss.tolerance = std::fabs(opt.values[0].number);
  if (!base.tune.levels.empty())
    for (int i = 1; i <= ss.levels; ++i)
      ss.progressive.push_back(i);
  std::unique_ptr<Strategy> strategy = createStrategy(strategyName, ss);
  if (!strategy) {
    std::cerr << "qtune: error: strategy '" << strategyName << "' is not implemented\n";
    return 2;
  }

  const std::string target = base.tune.metric + " " + base.tune.metricOp + " " + fmtNum(base.tune.threshold);
  double maxTime = o.maxTime > 0 ? o.maxTime : base.tune.maxSeconds;
  using Clock = std::chrono::steady_clock;
  auto start = Clock::now();
  auto elapsed = [&] { return std::chrono::duration<double>(Clock::now() - start).count(); };
  std::string specAbs = fs::absolute(o.spec).lexically_normal().string();

  // Everything that identifies the evaluation besides the configuration.
  std::string commandKey = "qtune-cache-v1\nsalt " + o.cacheSalt + "\nmetric " + base.tune.metric + "\n";
  for (const std::string &a : o.evaluator)
    commandKey += "arg " + std::to_string(a.size()) + " " + a + "\n";

  int round = 0, evaluations = 0, cacheHits = 0;
  json rounds = json::array();
  json notes = json::array();
  size_t notesShown = 0;
  std::optional<std::pair<Prepared, EvalRecord>> bestSoFar;
  std::map<std::string, Prepared> preparedByKey;
  std::map<std::string, std::string> keyByProbe;

  auto progress = [&](int inFlight) {
    if (!o.progress)
      return;
    std::ostringstream line;
    line << "qtune: round " << round << " | in flight " << inFlight << " | best so far: ";
    if (bestSoFar)
      line << "level " << bestSoFar->first.probe.level << " (" << bestSoFar->first.state.modules
           << " modules moved), " << base.tune.metric << " " << fmtNum(bestSoFar->second.metric);
    else
      line << "none";
    char buf[32];
    snprintf(buf, sizeof buf, "%.1fs", elapsed());
    line << " | " << buf;
    std::cerr << line.str() << "\n";
  };

  auto writeState = [&](const std::string &verdict, const std::string &message) {
    json st;
    st["version"] = 1;
    st["spec"] = specAbs;
    st["strategy"] = strategyName;
    st["metric"] = base.tune.metric;
    st["op"] = base.tune.metricOp;
    st["threshold"] = base.tune.threshold;
    st["levels"] = space.levels.size();
    st["units"] = space.units.size();
    st["jobs"] = o.jobs;
    st["executor"] = o.executor;
    st["verdict"] = verdict;
    st["message"] = message;
    st["rounds"] = rounds;
    st["notes"] = notes;
    st["evaluations"] = evaluations;
    st["cache_hits"] = cacheHits;
    const Verdict &v = strategy->verdict();
    const Prepared *bp = nullptr;
    double bm = 0;
    if (v.kind != Verdict::Running && v.best) {
      auto it = keyByProbe.find(v.best->id());
      if (it != keyByProbe.end()) {
        bp = &preparedByKey.at(it->second);
        bm = v.metric;
      }
    } else if (v.kind == Verdict::Running && bestSoFar) {
      bp = &bestSoFar->first;
      bm = bestSoFar->second.metric;
    }
    if (bp) {
      json b = stateJSON(bp->state);
      b["key"] = bp->key;
      b["probe"] = bp->probe.id();
      b["why"] = bp->probe.why;
      b["level"] = bp->probe.level;
      b["metric"] = bm;
      st["best"] = b;
    } else {
      st["best"] = nullptr;
    }
    std::string e;
    if (!writeJSONAtomically((fs::path(o.workdir) / "state.json").string(), st, e))
      std::cerr << "qtune: warning: cannot write state.json: " << e << "\n";
  };
  writeState("running", "");

  ExecOptions eo;
  eo.executor = o.executor;
  eo.slurmArgs = o.slurmArgs;
  eo.srun = o.srun;

  while (true) {
    if (maxTime > 0 && elapsed() > maxTime) {
      strategy->stop("stopped after the time limit of " + fmtNum(maxTime) + " s");
      break;
    }
    std::vector<Probe> probes = strategy->next(std::max(1u, o.jobs));
    if (probes.empty())
      break;
    ++round;
    // 2. Prepare every probe on a fresh copy of the spec.
    std::vector<std::string> keys;
    for (const Probe &p : probes) {
      Prepared pr;
      pr.probe = p;
      pr.state = stateFor(space, resolved, p);
      ir::Spec s = base;
      applyState(s, pr.state);
      DiagnosticEngine rd(sm);
      bool ok = passes::runPipeline(s, rd);
      std::string stem = fs::path(o.spec).stem().string();
      std::vector<const ir::Target *> targets;
      for (const ir::Target &t : s.targets)
        targets.push_back(&t);
      if (ok)
        for (emit::EmitResult &r : emit::emitTargets(s, targets, rd)) {
          const ir::Target &t = *r.target;
          ok = ok && r.ok;
          std::string name = r.out.fileName.empty() ? stem + ir::findTarget(t.kind)->fileExtension : r.out.fileName;
          if (name.find('/') != std::string::npos || name == "." || name == "..")
            name = t.kind + ir::findTarget(t.kind)->fileExtension;
          pr.files.emplace_back(name, std::move(r.out.buffer()));
        }
      if (!ok || rd.hasErrors()) {
        DiagPrinter rp{rd};
        rp.flush();
        diags.report(DiagID::err_tune_round_rejected, base.tune.range, {std::to_string(round), p.why});
        dp.flush();
        writeState("error", "round " + std::to_string(round) + " was rejected by the passes");
        return 2;
      }
      std::ostringstream irs;
      ir::printIRJSON(s, sm, irs);
      pr.irJson = irs.str();
      // The key: the resolved configuration (stripForKey), the anti-outlier choice, every
      // emitted file, and the command.
      json ir = json::parse(pr.irJson, nullptr, false);
      if (ir.is_object())
        stripForKey(ir, true);
      std::string material = commandKey + "anti_outlier " + pr.state.antiOutlier + "\nir " + ir.dump() + "\n";
      for (const auto &[name, bytes] : pr.files)
        material += "file " + name + " " + std::to_string(bytes.size()) + "\n" + bytes + "\n";
      pr.key = sha256Hex(material);
      pr.dir = (fs::path(o.workdir) / "evals" / pr.key.substr(0, 16)).string();
      keys.push_back(pr.key);
      keyByProbe[p.id()] = pr.key;
      preparedByKey[pr.key] = pr;
    }
    // 3. Cache lookups; the rest run at once.
    std::vector<Job> jobs;
    std::vector<std::string> jobKeys;
    std::set<std::string> scheduled;
    std::vector<bool> cached(probes.size(), false);
    for (size_t i = 0; i < probes.size(); ++i) {
      const EvalRecord *rec = history.find(keys[i]);
      bool usable = rec && !(o.retryFailed && rec->status != "ok");
      if (usable || scheduled.count(keys[i])) {
        cached[i] = usable;
        if (usable)
          ++cacheHits;
        continue;
      }
      scheduled.insert(keys[i]);
      const Prepared &pr = preparedByKey[keys[i]];
      // A run killed between an evaluator's exit and the history append leaves a complete
      // result behind (evaluators die with qtune, so nothing else can): record it, do not rerun.
      if (!rec && fs::exists(fs::path(pr.dir) / "result.json")) {
        JobResult done;
        done.exitCode = 0;
        EvalRecord got = judge(done, (fs::path(pr.dir) / "result.json").string(),
                               (fs::path(pr.dir) / "stderr.txt").string(), base.tune.metric, o.timeout);
        if (got.status == "ok") {
          got.key = pr.key;
          got.round = round;
          got.probe = pr.probe.id();
          got.why = pr.probe.why;
          got.units = pr.state.units;
          got.modules = pr.state.modules;
          got.detail = "recovered: finished before an interrupted run could record it";
          std::string e;
          if (!history.append(got, e)) {
            std::cerr << "qtune: error: cannot append to the history: " << e << "\n";
            return 2;
          }
          continue;
        }
      }
      fs::remove_all(pr.dir, ec);
      fs::create_directories(fs::path(pr.dir) / "config", ec);
      for (const auto &[name, bytes] : pr.files)
        std::ofstream(fs::path(pr.dir) / "config" / name, std::ios::binary) << bytes;
      std::ofstream(fs::path(pr.dir) / "ir.json", std::ios::binary) << pr.irJson;
      std::ofstream(fs::path(pr.dir) / "tune.qspec") << stateText(pr.state, "");
      Job job;
      job.argv = o.evaluator;
      job.stdoutPath = (fs::path(pr.dir) / "stdout.txt").string();
      job.stderrPath = (fs::path(pr.dir) / "stderr.txt").string();
      job.timeout = o.timeout;
      size_t slot = jobs.size();
      std::string device = o.devices.empty() ? std::to_string(slot) : o.devices[slot % o.devices.size()];
      std::string devId = device.find(':') != std::string::npos ? device.substr(device.rfind(':') + 1) : device;
      job.env = {{"QSPEC_ROUND", std::to_string(round)},
                 {"QSPEC_CONFIG_DIR", fs::absolute(fs::path(pr.dir) / "config").string()},
                 {"QSPEC_IR", fs::absolute(fs::path(pr.dir) / "ir.json").string()},
                 {"QSPEC_DEVICE", device},
                 {"QSPEC_RESULT", fs::absolute(fs::path(pr.dir) / "result.json").string()},
                 {"QSPEC_KEY", pr.key},
                 {"QSPEC_ANTI_OUTLIER", pr.state.antiOutlier}};
      if (!o.devices.empty() && !o.deviceEnv.empty())
        job.env.emplace_back(o.deviceEnv, devId);
      jobs.push_back(std::move(job));
      jobKeys.push_back(keys[i]);
    }
    progress(static_cast<int>(jobs.size()));
    bool appendFailed = false;
    runJobs(
        jobs, eo,
        [&](size_t i, const JobResult &jr) {
          const Prepared &pr = preparedByKey[jobKeys[i]];
          EvalRecord rec = judge(jr, (fs::path(pr.dir) / "result.json").string(),
                                 (fs::path(pr.dir) / "stderr.txt").string(), base.tune.metric, o.timeout);
          rec.key = pr.key;
          rec.round = round;
          rec.probe = pr.probe.id();
          rec.why = pr.probe.why;
          rec.units = pr.state.units;
          rec.modules = pr.state.modules;
          std::string e;
          if (!history.append(rec, e)) {
            std::cerr << "qtune: error: cannot append to the history: " << e << "\n";
            appendFailed = true;
          }
          ++evaluations;
        },
        [&] {
          if (o.progress && ::isatty(2))
            progress(static_cast<int>(jobs.size()));
        });
    if (appendFailed)
      return 2;
    // 4. Outcomes, in proposal order.
    std::vector<std::pair<Probe, Outcome>> results;
    json rj = json::array();
    for (size_t i = 0; i < probes.size(); ++i) {
      const EvalRecord *rec = history.find(keys[i]);
      const Prepared &pr = preparedByKey[keys[i]];
      Outcome oc;
      oc.evaluated = rec && rec->status == "ok";
      oc.metric = oc.evaluated ? rec->metric : 0;
      oc.pass = oc.evaluated && metricPasses(base.tune.metricOp, oc.metric, base.tune.threshold);
      results.push_back({probes[i], oc});
      if (rec && !oc.evaluated && !cached[i]) {
        Diagnostic &d = diags.report(DiagID::warn_tune_eval_failed, SourceRange{},
                                     {keys[i].substr(0, 16), std::to_string(round), rec->detail});
        std::string tail = rec->stderrTail;
        while (!tail.empty() && (tail.back() == '\n' || tail.back() == ' '))
          tail.pop_back();
        size_t cut = tail.rfind('\n');
        if (!tail.empty())
          diags.note(d, DiagID::note_tune_stderr, SourceRange{},
                     {sanitizeForTerminal(cut == std::string::npos ? tail : tail.substr(cut + 1))});
      }
      if (oc.pass && (!bestSoFar || pr.state.modules < bestSoFar->first.state.modules)) {
        bestSoFar = std::make_pair(pr, *rec);
        publishBest(o.workdir, pr, *rec);
      }
      json pj;
      pj["key"] = keys[i];
      pj["probe"] = probes[i].id();
      pj["why"] = probes[i].why;
      pj["level"] = probes[i].level;
      pj["level_text"] = probes[i].level > 0 && static_cast<size_t>(probes[i].level) <= space.levelText.size()
                             ? space.levelText[static_cast<size_t>(probes[i].level - 1)]
                             : "none";
      pj["anti_outlier"] = pr.state.antiOutlier;
      pj["units"] = pr.state.units;
      pj["modules"] = pr.state.modules;
      pj["status"] = rec ? rec->status : "missing";
      pj["metric"] = oc.evaluated ? json(oc.metric) : json(nullptr);
      pj["pass"] = oc.pass;
      pj["cached"] = static_cast<bool>(cached[i]);
      rj.push_back(pj);
    }
    strategy->observe(results);
    for (; notesShown < strategy->notes().size(); ++notesShown) {
      notes.push_back(strategy->notes()[notesShown]);
      diags.report(DiagID::warn_tune_non_monotone, base.tune.metricRange, {strategy->notes()[notesShown]});
    }
    dp.flush();
    rounds.push_back({{"round", round}, {"probes", rj}});
    writeState("running", "");
  }

  const Verdict &v = strategy->verdict();
  if (v.kind == Verdict::Running)
    strategy->stop("the strategy stopped without a verdict");
  std::string verdict = verdictName(strategy->verdict().kind);
  const Verdict &fv = strategy->verdict();
  std::optional<std::string> bestKey;
  if (fv.best && keyByProbe.count(fv.best->id()))
    bestKey = keyByProbe[fv.best->id()];
  if (bestKey) {
    const Prepared &pr = preparedByKey[*bestKey];
    const EvalRecord *rec = history.find(*bestKey);
    if (rec)
      publishBest(o.workdir, pr, *rec);
  } else {
    fs::remove_all(fs::path(o.workdir) / "best", ec);
  }
  writeState(verdict, fv.message);
  std::cerr << "qtune: " << evaluations << " evaluations, " << cacheHits << " cache hits, " << round
            << " rounds, " << strategyName << "\n";
  if (bestKey) {
    const Prepared &pr = preparedByKey[*bestKey];
    std::string levelText = pr.probe.level > 0 ? space.levelText[static_cast<size_t>(pr.probe.level - 1)] : "none";
    std::cout << "qtune: target met: " << target << " with " << base.tune.metric << " " << fmtNum(fv.metric)
              << " at level " << pr.probe.level << " of " << space.levels.size() << " (" << levelText << "; "
              << pr.state.units << " units, " << pr.state.modules << " modules moved)"
              << (fv.kind == Verdict::Exhausted ? " [" + fv.message + "]" : "") << "\n";
    std::cerr << "qtune: best configuration in " << (fs::path(o.workdir) / "best").string()
              << "; 'qtune apply " << o.workdir << "' writes it into the spec\n";
    return 0;
  }
  if (fv.kind == Verdict::Unreachable) {
    Diagnostic &d = diags.report(DiagID::err_tune_unreachable, base.tune.metricRange, {target, fv.message});
    (void)d;
  } else {
    diags.report(DiagID::err_tune_exhausted, base.tune.metricRange, {target, fv.message});
  }
  dp.flush();
  std::cout << "qtune: " << (fv.kind == Verdict::Unreachable ? "unreachable" : "not reached") << ": " << target
            << ": " << fv.message << "\n";
  return 1;
}

// ---- status / report ------------------------------------------------------------------------

namespace {

bool loadState(const std::string &dir, json &st) {
  bool ok = false;
  std::string text = readFile((fs::path(dir) / "state.json").string(), ok);
  if (!ok)
    return false;
  st = json::parse(text, nullptr, false);
  return !st.is_discarded() && st.is_object() && st.contains("rounds");
}

int noRun(const std::string &dir) {
  SourceManager sm;
  DiagnosticEngine diags(sm);
  diags.report(DiagID::err_tune_no_run, SourceRange{}, {dir});
  diags.printText(std::cerr);
  return 1;
}

std::string metricText(const json &m) { return m.is_number() ? fmtNum(m.get<double>()) : "-"; }

std::string xmlEscape(const std::string &s) {
  std::string out;
  for (char c : s) {
    if (c == '&')
      out += "&amp;";
    else if (c == '<')
      out += "&lt;";
    else if (c == '>')
      out += "&gt;";
    else if (c == '"')
      out += "&quot;";
    else
      out += c;
  }
  return out;
}

std::string mdCell(const std::string &s) {
  std::string out;
  for (char c : s)
    out += c == '|' ? std::string("\\|") : c == '\n' ? std::string(" ") : std::string(1, c);
  return out;
}

// One panel of the chart: metric (y) against `xKey` of every evaluated probe.
void svgPanel(std::ostringstream &svg, const json &st, double x0, const char *title, const char *xLabel,
              bool byRound) {
  const double w = 340, h = 240, padL = 50, padB = 35, padT = 25;
  struct Pt {
    double x, y;
    bool pass;
  };
  std::vector<Pt> pts;
  double thr = st.value("threshold", 0.0);
  for (const json &r : st["rounds"])
    for (const json &p : r["probes"])
      if (p["metric"].is_number())
        pts.push_back({byRound ? r["round"].get<double>() : p.value("modules", 0.0), p["metric"].get<double>(),
                       p.value("pass", false)});
  double xmin = 0, xmax = 1, ymin = thr, ymax = thr;
  for (const Pt &p : pts) {
    xmax = std::max(xmax, p.x);
    ymin = std::min(ymin, p.y);
    ymax = std::max(ymax, p.y);
  }
  if (byRound)
    xmin = std::min(1.0, xmax);
  if (ymax - ymin < 1e-9) {
    ymin -= 0.01;
    ymax += 0.01;
  }
  double ypad = (ymax - ymin) * 0.1;
  ymin -= ypad;
  ymax += ypad;
  auto X = [&](double x) { return x0 + padL + (xmax > xmin ? (x - xmin) / (xmax - xmin) : 0.5) * (w - padL - 10); };
  auto Y = [&](double y) { return padT + (ymax - y) / (ymax - ymin) * (h - padT - padB); };
  char buf[256];
  snprintf(buf, sizeof buf, "<text x=\"%.1f\" y=\"15\" font-size=\"12\">%s</text>\n", x0 + padL, title);
  svg << buf;
  snprintf(buf, sizeof buf,
           "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"none\" stroke=\"#888\"/>\n", x0 + padL,
           padT, w - padL - 10, h - padT - padB);
  svg << buf;
  snprintf(buf, sizeof buf,
           "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#06c\" stroke-dasharray=\"4 3\"/>\n",
           x0 + padL, Y(thr), x0 + w - 10, Y(thr));
  svg << buf;
  snprintf(buf, sizeof buf, "<text x=\"%.1f\" y=\"%.1f\" font-size=\"10\" text-anchor=\"end\">%.4g</text>\n",
           x0 + padL - 4, Y(ymax) + 4, ymax);
  svg << buf;
  snprintf(buf, sizeof buf, "<text x=\"%.1f\" y=\"%.1f\" font-size=\"10\" text-anchor=\"end\">%.4g</text>\n",
           x0 + padL - 4, Y(ymin), ymin);
  svg << buf;
  snprintf(buf, sizeof buf, "<text x=\"%.1f\" y=\"%.1f\" font-size=\"10\" text-anchor=\"end\">%.4g</text>\n",
           x0 + padL - 4, Y(thr) + 3, thr);
  svg << buf;
  snprintf(buf, sizeof buf, "<text x=\"%.1f\" y=\"%.1f\" font-size=\"10\">%g</text>\n", x0 + padL, h - padB + 14,
           xmin);
  svg << buf;
  snprintf(buf, sizeof buf, "<text x=\"%.1f\" y=\"%.1f\" font-size=\"10\" text-anchor=\"end\">%g</text>\n",
           x0 + w - 10, h - padB + 14, xmax);
  svg << buf;
  snprintf(buf, sizeof buf, "<text x=\"%.1f\" y=\"%.1f\" font-size=\"11\" text-anchor=\"middle\">%s</text>\n",
           x0 + padL + (w - padL - 10) / 2, h - 6, xLabel);
  svg << buf;
  for (const Pt &p : pts) {
    snprintf(buf, sizeof buf, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"3.5\" fill=\"%s\"/>\n", X(p.x), Y(p.y),
             p.pass ? "#2a2" : "#c22");
    svg << buf;
  }
}

} // namespace

int statusCommand(const std::string &dir) {
  json st;
  if (!loadState(dir, st))
    return noRun(dir);
  std::string holder;
  bool running = lockHeld((fs::path(dir) / "lock").string(), holder);
  std::string verdict = st.value("verdict", "?");
  std::cout << "spec: " << st.value("spec", "") << "\n";
  std::cout << "strategy: " << st.value("strategy", "") << "\n";
  std::cout << "target: " << st.value("metric", "") << " " << st.value("op", "") << " "
            << fmtNum(st.value("threshold", 0.0)) << "\n";
  std::cout << "state: "
            << (running ? "running" + (holder.empty() ? std::string() : " (pid " + holder + ")")
                : verdict == "running" ? std::string("interrupted; run 'qtune run' again to resume")
                                       : verdict)
            << "\n";
  std::cout << "rounds: " << st["rounds"].size() << "\n";
  std::cout << "evaluations: " << st.value("evaluations", 0) << " (this run), cache hits: "
            << st.value("cache_hits", 0) << ", history: "
            << readHistory((fs::path(dir) / "history.jsonl").string()).size() << " records\n";
  if (st["best"].is_object())
    std::cout << "best: level " << st["best"].value("level", 0) << ", " << st.value("metric", "") << " "
              << metricText(st["best"]["metric"]) << ", " << st["best"].value("units", 0) << " units, "
              << st["best"].value("modules", 0) << " modules moved\n";
  else
    std::cout << "best: none\n";
  if (!st.value("message", std::string()).empty())
    std::cout << "message: " << st.value("message", "") << "\n";
  return 0;
}

int reportCommand(const std::string &dir) {
  json st;
  if (!loadState(dir, st))
    return noRun(dir);
  std::ostringstream md;
  md << "# qtune report\n\n";
  md << "| | |\n|---|---|\n";
  md << "| spec | `" << mdCell(st.value("spec", "")) << "` |\n";
  md << "| strategy | " << st.value("strategy", "") << " |\n";
  md << "| target | " << st.value("metric", "") << " " << st.value("op", "") << " "
     << fmtNum(st.value("threshold", 0.0)) << " |\n";
  md << "| verdict | " << st.value("verdict", "") << (st.value("message", "").empty() ? "" : ": ")
     << mdCell(st.value("message", "")) << " |\n";
  md << "| levels / units | " << st.value("levels", 0) << " / " << st.value("units", 0) << " |\n";
  md << "| evaluations (last run) | " << st.value("evaluations", 0) << ", cache hits " << st.value("cache_hits", 0)
     << " |\n";
  if (st["best"].is_object())
    md << "| best | level " << st["best"].value("level", 0) << ", metric " << metricText(st["best"]["metric"])
       << ", " << st["best"].value("units", 0) << " units / " << st["best"].value("modules", 0)
       << " modules moved (`best/`) |\n";
  else
    md << "| best | none |\n";
  md << "\n## Rounds\n\n";
  md << "| round | change | level | units | modules | anti-outlier | metric | result | cached |\n";
  md << "|---:|---|---|---:|---:|---|---:|---|---|\n";
  for (const json &r : st["rounds"])
    for (const json &p : r["probes"]) {
      std::string status = p.value("status", "");
      std::string result = status != "ok" ? "failed (" + status + ")" : p.value("pass", false) ? "pass" : "fail";
      md << "| " << r.value("round", 0) << " | " << mdCell(p.value("why", "")) << " | " << p.value("level", 0)
         << " (" << mdCell(p.value("level_text", "")) << ") | " << p.value("units", 0) << " | "
         << p.value("modules", 0) << " | " << mdCell(p.value("anti_outlier", "").empty() ? "-" : p.value("anti_outlier", ""))
         << " | " << metricText(p["metric"]) << " | " << result << " | " << (p.value("cached", false) ? "yes" : "no")
         << " |\n";
    }
  if (!st["notes"].empty()) {
    md << "\n## Warnings\n\n";
    for (const json &n : st["notes"])
      md << "- non-monotone: " << mdCell(n.get<std::string>()) << "\n";
  }
  std::vector<EvalRecord> hist = readHistory((fs::path(dir) / "history.jsonl").string());
  bool anyFailed = false;
  for (const EvalRecord &r : hist)
    anyFailed = anyFailed || r.status != "ok";
  if (anyFailed) {
    md << "\n## Failed evaluations\n\n";
    for (const EvalRecord &r : hist)
      if (r.status != "ok") {
        md << "- `" << r.key.substr(0, 16) << "` (round " << r.round << ", " << mdCell(r.why) << "): "
           << mdCell(r.detail) << "\n";
        if (!r.stderrTail.empty())
          md << "\n  ```\n  " << [&] {
            std::string t = r.stderrTail, o;
            for (char c : t)
              o += c == '\n' ? std::string("\n  ") : std::string(1, c == '`' ? '\'' : c);
            return o;
          }() << "\n  ```\n";
      }
  }
  md << "\n## Chart\n\n![metric against round and fallback size](report.svg)\n";

  std::ostringstream svg;
  svg << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"700\" height=\"250\" viewBox=\"0 0 700 250\" "
         "font-family=\"sans-serif\">\n";
  svg << "<rect width=\"700\" height=\"250\" fill=\"white\"/>\n";
  svgPanel(svg, st, 0, xmlEscape("metric by round").c_str(), "round", true);
  svgPanel(svg, st, 350, xmlEscape("metric by fallback size").c_str(), "modules moved", false);
  svg << "</svg>\n";
  std::string err;
  if (!emit::writeFileAtomically((fs::path(dir) / "report.md").string(), md.str(), err) ||
      !emit::writeFileAtomically((fs::path(dir) / "report.svg").string(), svg.str(), err)) {
    SourceManager sm;
    DiagnosticEngine diags(sm);
    diags.report(DiagID::err_cannot_write_output, SourceRange{}, {dir, err});
    diags.printText(std::cerr);
    return 1;
  }
  std::cout << "qtune: wrote " << (fs::path(dir) / "report.md").string() << " and report.svg\n";
  return 0;
}

// ---- apply ----------------------------------------------------------------------------------

namespace {

struct Tok {
  enum Kind { Ident, String, Comment, Punct, Other } kind;
  size_t b, e;
};

std::vector<Tok> scanTokens(const std::string &text, size_t begin, size_t end) {
  std::vector<Tok> toks;
  size_t i = begin;
  auto identChar = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.' || c == '-'; };
  while (i < end) {
    char c = text[i];
    if (c == ' ' || c == '\t' || c == '\r' || c == '\n') {
      ++i;
    } else if (c == '/' && i + 1 < end && text[i + 1] == '/') {
      size_t j = text.find('\n', i);
      j = j == std::string::npos || j > end ? end : j;
      toks.push_back({Tok::Comment, i, j});
      i = j;
    } else if (c == '/' && i + 1 < end && text[i + 1] == '*') {
      size_t j = text.find("*/", i + 2);
      j = j == std::string::npos || j + 2 > end ? end : j + 2;
      toks.push_back({Tok::Comment, i, j});
      i = j;
    } else if (c == '"') {
      size_t j = i + 1;
      while (j < end && text[j] != '"' && text[j] != '\n') {
        if (text[j] == '\\' && j + 1 < end)
          ++j;
        ++j;
      }
      j = j < end && text[j] == '"' ? j + 1 : j;
      toks.push_back({Tok::String, i, j});
      i = j;
    } else if (std::isalpha(static_cast<unsigned char>(c)) || c == '_') {
      size_t j = i + 1;
      while (j < end && identChar(text[j]))
        ++j;
      toks.push_back({Tok::Ident, i, j});
      i = j;
    } else if (std::isdigit(static_cast<unsigned char>(c))) {
      size_t j = i + 1;
      while (j < end && (std::isalnum(static_cast<unsigned char>(text[j])) || text[j] == '.'))
        ++j;
      toks.push_back({Tok::Other, i, j});
      i = j;
    } else {
      toks.push_back({Tok::Punct, i, i + 1});
      ++i;
    }
  }
  return toks;
}

} // namespace

std::string tuneBlockIndent(const std::string &text, size_t blockBegin, size_t blockEnd) {
  std::vector<Tok> toks = scanTokens(text, blockBegin, blockEnd);
  int depth = 0;
  for (size_t k = 0; k < toks.size(); ++k) {
    const Tok &t = toks[k];
    char c = text[t.b];
    if (t.kind == Tok::Punct && c == '{') {
      ++depth;
      continue;
    }
    if (depth == 1 && t.kind != Tok::Punct) {
      size_t ls = text.rfind('\n', t.b);
      ls = ls == std::string::npos ? 0 : ls + 1;
      std::string lead = text.substr(ls, t.b - ls);
      if (lead.find_first_not_of(" \t") == std::string::npos && !lead.empty())
        return lead;
      break;
    }
  }
  return "  ";
}

std::string rewriteTuneBlock(const std::string &text, size_t blockBegin, size_t blockEnd,
                             const std::string &statements) {
  std::vector<Tok> toks = scanTokens(text, blockBegin, blockEnd);
  std::vector<bool> del(text.size(), false);
  size_t open = std::string::npos, close = std::string::npos;
  int depth = 0;
  auto word = [&](const Tok &t) { return text.substr(t.b, t.e - t.b); };
  auto nextSig = [&](size_t k) {
    ++k;
    while (k < toks.size() && toks[k].kind == Tok::Comment)
      ++k;
    return k;
  };
  for (size_t k = 0; k < toks.size(); ++k) {
    const Tok &t = toks[k];
    if (t.kind == Tok::Punct && text[t.b] == '{') {
      if (depth++ == 0)
        open = t.b;
      continue;
    }
    if (t.kind == Tok::Punct && text[t.b] == '}') {
      if (--depth == 0) {
        close = t.b;
        break;
      }
      continue;
    }
    if (depth != 1)
      continue;
    if (t.kind == Tok::Comment && word(t).rfind("// qtune:", 0) == 0) {
      for (size_t i = t.b; i < t.e; ++i)
        del[i] = true;
      continue;
    }
    if (t.kind != Tok::Ident || (word(t) != "exclude" && word(t) != "raise"))
      continue;
    bool isRaise = word(t) == "raise";
    size_t j = nextSig(k);
    if (j >= toks.size() || toks[j].kind != Tok::String)
      continue;
    size_t last = j;
    while (true) {
      size_t c = nextSig(last);
      if (c < toks.size() && toks[c].kind == Tok::Punct && text[toks[c].b] == ',') {
        size_t s = nextSig(c);
        if (s < toks.size() && toks[s].kind == Tok::String) {
          last = s;
          continue;
        }
      }
      break;
    }
    if (isRaise) {
      size_t to = nextSig(last), tier = nextSig(to);
      if (to >= toks.size() || tier >= toks.size() || word(toks[to]) != "to" || toks[tier].kind != Tok::Ident)
        continue;
      last = tier;
    }
    size_t semi = nextSig(last);
    if (semi < toks.size() && toks[semi].kind == Tok::Punct && text[toks[semi].b] == ';')
      last = semi;
    for (size_t i = t.b; i < toks[last].e; ++i)
      del[i] = true;
    k = last;
  }
  if (open == std::string::npos || close == std::string::npos)
    return text;
  // Rebuild the body line by line: a line that had deletions and is left blank disappears.
  std::string out = text.substr(0, open + 1);
  size_t pos = open + 1;
  std::string closingLinePrefix;
  while (pos < close) {
    size_t nl = text.find('\n', pos);
    size_t lineEnd = nl == std::string::npos || nl >= close ? close : nl;
    std::string kept;
    bool touched = false;
    for (size_t i = pos; i < lineEnd; ++i) {
      if (del[i])
        touched = true;
      else
        kept += text[i];
    }
    bool blank = kept.find_first_not_of(" \t\r") == std::string::npos;
    if (lineEnd == close) {
      // The line holding '}': keep what precedes it.
      closingLinePrefix = touched && blank ? "" : kept;
      pos = close;
      break;
    }
    if (!(touched && blank)) {
      if (touched)
        kept.erase(kept.find_last_not_of(" \t") + 1);
      out += kept + "\n";
    }
    pos = lineEnd + 1;
  }
  bool closeOnOwnLine = closingLinePrefix.find_first_not_of(" \t") == std::string::npos &&
                        (out.empty() || out.back() == '\n');
  if (closeOnOwnLine) {
    out += statements + closingLinePrefix;
  } else {
    out += closingLinePrefix;
    if (!statements.empty()) {
      if (!out.empty() && out.back() != '\n')
        out += "\n";
      out += statements;
    }
  }
  out += text.substr(close);
  return out;
}

int applyCommand(const std::string &dir) {
  json st;
  if (!loadState(dir, st))
    return noRun(dir);
  SourceManager sm;
  DiagnosticEngine diags(sm);
  if (!st["best"].is_object()) {
    diags.report(DiagID::err_tune_no_best, SourceRange{}, {dir});
    diags.printText(std::cerr);
    return 1;
  }
  TuningState state;
  if (!stateFromJSON(st["best"], state)) {
    diags.report(DiagID::err_tune_no_run, SourceRange{}, {dir});
    diags.printText(std::cerr);
    return 1;
  }
  std::string specPath = st.value("spec", "");
  frontend::FrontendOptions fo;
  fo.loadInputs = false;
  ir::Spec spec;
  if (!frontend::loadSpec(specPath, spec, diags, fo)) {
    diags.printText(std::cerr);
    return 1;
  }
  if (!spec.tune.present || !spec.tune.range.valid()) {
    diags.report(DiagID::err_tune_no_tune_block, SourceRange{}, {specPath});
    diags.printText(std::cerr);
    return 1;
  }
  std::string file = sm.path(spec.tune.range.file);
  const std::string &text = sm.text(spec.tune.range.file);
  size_t b = spec.tune.range.begin.offset, e = spec.tune.range.end.offset;
  std::string indent = tuneBlockIndent(text, b, e);
  std::string updated = rewriteTuneBlock(text, b, e, stateText(state, indent));
  if (updated == text) {
    std::cout << "qtune: " << file << " already holds the best tuning state\n";
    return 0;
  }
  std::string err;
  if (!emit::writeFileAtomically(file, updated, err)) {
    diags.report(DiagID::err_cannot_write_output, SourceRange{}, {file, err});
    diags.printText(std::cerr);
    return 1;
  }
  // The edit must leave a valid spec; put the original back otherwise.
  SourceManager sm2;
  DiagnosticEngine check(sm2);
  ir::Spec again;
  if (!frontend::loadSpec(specPath, again, check, fo)) {
    emit::writeFileAtomically(file, text, err);
    check.printText(std::cerr);
    std::cerr << "qtune: error: the rewritten spec did not parse; '" << file << "' was left unchanged\n";
    return 2;
  }
  std::cout << "qtune: updated " << file << ": " << state.excludes.size() << " exclude and " << state.raises.size()
            << " raise statements (" << state.modules << " modules)\n";
  return 0;
}

} // namespace qspec::tune
