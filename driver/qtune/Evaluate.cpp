// Running and judging evaluations: the evaluator's job (environment, device, files) and the
// status of a finished one from its exit and its result file.
#include "driver/qtune/Run.h"
#include "ir/BoundedInput.h"

#include <nlohmann/json.hpp>

#include <cerrno>
#include <cmath>
#include <filesystem>

namespace qspec::tune {

namespace fs = std::filesystem;
using json = nlohmann::json;

namespace {

bool holds(const std::string &op, double metric, double threshold) {
  if (op == ">=")
    return metric >= threshold;
  if (op == "<=")
    return metric <= threshold;
  if (op == ">")
    return metric > threshold;
  return metric < threshold;
}

// The result file's text, or why it cannot be read (status bad-result or no-result in `r`). It is
// read within bounds (ir/BoundedInput.h): a FIFO or a link left as the result is refused without
// waiting for a writer, and a file over kMaxResultBytes from its size, before it is read.
bool readResultText(const std::string &path, std::string &text, EvalRecord &r) {
  bounded::ReadOptions opt;
  opt.maxBytes = kMaxResultBytes;
  opt.followSymlinks = false;
  bounded::Problem p = bounded::readBoundedFile(path, text, opt);
  if (!p)
    return true;
  if (p.kind == bounded::Refusal::CannotOpen && p.error == ENOENT) {
    r.status = "no-result";
    r.detail = "the evaluator wrote no result file (QSPEC_RESULT)";
  } else {
    r.status = "bad-result";
    r.detail = "the result file " + p.message;
  }
  return false;
}

// Reads the metrics of a result file into `r` (status ok), or says why it cannot.
void readResult(const std::string &path, const std::vector<ir::MetricGoal> &goals, EvalRecord &r) {
  std::string text;
  if (!readResultText(path, text, r))
    return;
  // UTF-8, depth and repeated keys are checked before the library builds a tree.
  // (Text that is simply not JSON gets the message below, as any other non-object.)
  bounded::Problem p = bounded::checkJsonDocument(text);
  if (p && p.kind != bounded::Refusal::Syntax) {
    uint32_t line = 0, col = 0;
    bounded::lineColumn(text, p.offset, line, col);
    r.status = "bad-result";
    r.detail = "the result file is not valid: " + p.message + " at line " + std::to_string(line) +
               ", column " + std::to_string(col);
    return;
  }
  json j = json::parse(text, nullptr, false);
  if (j.is_discarded() || !j.is_object()) {
    r.status = "bad-result";
    r.detail = "the result file is not a JSON object";
    return;
  }
  for (const ir::MetricGoal &g : goals) {
    const json *v = j.contains(g.name) ? &j[g.name] : nullptr;
    if (!v || !v->is_number() || !std::isfinite(v->get<double>())) {
      r.status = "bad-result";
      r.detail = "the result has no finite number named '" + g.name + "'";
      r.metrics.clear();
      return;
    }
    r.metrics[g.name] = v->get<double>();
  }
  r.status = "ok";
  r.hasMetric = true;
  r.metric = r.metrics[goals.front().name];
}

} // namespace

EvalRecord judge(const JobResult &jr, const std::string &dir,
                 const std::vector<ir::MetricGoal> &goals, double timeout) {
  EvalRecord r;
  r.seconds = jr.seconds;
  r.stderrTail = fileTail((fs::path(dir) / "stderr.txt").string(), 2000);
  if (jr.timedOut) {
    r.status = "timeout";
    r.detail = "no result after " + formatNumber(timeout) + " s; the evaluator was killed";
  } else if (jr.signal) {
    r.status = "signal";
    r.detail = "the evaluator was killed by signal " + std::to_string(jr.signal);
  } else if (jr.exitCode != 0) {
    r.status = "exit";
    r.detail = "the evaluator exited with code " + std::to_string(jr.exitCode);
  } else {
    readResult((fs::path(dir) / "result.json").string(), goals, r);
  }
  return r;
}

bool goalsPass(const std::vector<Goal> &goals, const EvalRecord &r) {
  if (r.status != "ok")
    return false;
  for (const Goal &g : goals) {
    auto it = r.metrics.find(g.name);
    if (it == r.metrics.end() || !holds(g.op, it->second, g.threshold))
      return false;
  }
  return true;
}

Job makeJob(const RunOptions &o, const Prepared &p, int round, size_t slot) {
  Job job;
  job.argv = o.evaluator;
  job.key = p.key;
  job.stdoutPath = (fs::path(p.dir) / "stdout.txt").string();
  job.stderrPath = (fs::path(p.dir) / "stderr.txt").string();
  if (o.executor == "slurm")
    job.startedPath = fs::absolute(fs::path(p.dir) / "started").string();
  job.timeout = o.timeout;
  std::string device =
      o.devices.empty() ? std::to_string(slot) : o.devices[slot % o.devices.size()];
  std::string devId =
      device.find(':') != std::string::npos ? device.substr(device.rfind(':') + 1) : device;
  job.env = {
      {"QSPEC_ROUND", std::to_string(round)},
      {"QSPEC_CONFIG_DIR", fs::absolute(fs::path(p.dir) / "config").string()},
      {"QSPEC_IR", o.writeIR ? fs::absolute(fs::path(p.dir) / "ir.json").string() : std::string()},
      {"QSPEC_DEVICE", device},
      {"QSPEC_RESULT", fs::absolute(fs::path(p.dir) / "result.json").string()},
      {"QSPEC_KEY", p.key},
      {"QSPEC_ANTI_OUTLIER", p.state.antiOutlier}};
  if (!o.devices.empty() && !o.deviceEnv.empty())
    job.env.emplace_back(o.deviceEnv, devId);
  return job;
}

} // namespace qspec::tune
