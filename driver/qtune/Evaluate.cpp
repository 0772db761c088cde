// Running and judging evaluations: the evaluator's job (environment, device, files) and the
// status of a finished one from its exit and its result file.
#include "driver/qtune/Run.h"
#include "ir/BoundedInput.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <sys/inotify.h>
#include <unistd.h>
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

// An evaluator's own word on its failure: {"qspec_status": "transient" | "fatal", "message":
// TEXT} in the result file. True (status and detail set) when `j` says so.
bool reportedFailure(const json &j, EvalRecord &r) {
  if (!j.is_object() || !j.contains("qspec_status") || !j["qspec_status"].is_string())
    return false;
  std::string kind = j["qspec_status"].get<std::string>();
  if (kind != "transient" && kind != "fatal")
    return false;
  std::string msg = j.contains("message") && j["message"].is_string()
                        ? j["message"].get<std::string>()
                        : std::string("no message");
  r.status = kind;
  r.detail = "the evaluator reported a " + kind + " failure: " + msg;
  r.metrics.clear();
  return true;
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
  if (reportedFailure(j, r))
    return;
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
    if (jr.exitCode == kExitTransient || jr.exitCode == kExitFatal) {
      r.status = jr.exitCode == kExitTransient ? "transient" : "fatal";
      r.detail += " (" + r.status + ")";
    }
    // The result file may say more (the kit writes the message there).
    bool ok = false;
    std::string text = readWholeFile((fs::path(dir) / "result.json").string(), ok);
    if (ok)
      reportedFailure(json::parse(text, nullptr, false), r);
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

ConfigReads::ConfigReads() : fd_(::inotify_init1(IN_NONBLOCK | IN_CLOEXEC)) {}

ConfigReads::~ConfigReads() {
  if (fd_ >= 0)
    ::close(fd_);
}

void ConfigReads::watch(const std::string &configDir) {
  if (fd_ < 0)
    return;
  int wd = ::inotify_add_watch(fd_, configDir.c_str(), IN_OPEN | IN_ONLYDIR);
  if (wd >= 0)
    watches_.push_back(wd);
}

size_t ConfigReads::read() {
  alignas(inotify_event) char buf[16384];
  while (fd_ >= 0) {
    ssize_t n = ::read(fd_, buf, sizeof buf);
    if (n <= 0)
      break;
    for (ssize_t at = 0; at < n;) {
      const auto *e = reinterpret_cast<const inotify_event *>(buf + at);
      // An opened file inside the folder has a name; the folder's own listing has none.
      if (e->len > 0 && !(e->mask & IN_ISDIR) &&
          std::find(opened_.begin(), opened_.end(), e->wd) == opened_.end())
        opened_.push_back(e->wd);
      at += static_cast<ssize_t>(sizeof(inotify_event) + e->len);
    }
  }
  size_t count = 0;
  for (int wd : watches_)
    count += std::find(opened_.begin(), opened_.end(), wd) != opened_.end() ? 1 : 0;
  return count;
}

std::string slotDevice(const RunOptions &o, size_t slot) {
  return o.devices.empty() ? std::to_string(slot) : o.devices[slot % o.devices.size()];
}

namespace {

// The ids a device set names, for the --device-env variable: "npu:0-3" -> "0,1,2,3", "4" -> "4",
// "0+2" -> "0,2" (the part after the last ':', ranges expanded).
std::string visibleDevices(const std::string &device) {
  std::string ids =
      device.find(':') != std::string::npos ? device.substr(device.rfind(':') + 1) : device;
  std::string out;
  size_t pos = 0;
  while (pos <= ids.size()) {
    size_t plus = ids.find('+', pos);
    std::string part = ids.substr(pos, plus == std::string::npos ? std::string::npos : plus - pos);
    size_t dash = part.find('-');
    char *e1 = nullptr, *e2 = nullptr;
    long a = dash == std::string::npos ? 0 : std::strtol(part.c_str(), &e1, 10);
    long b = dash == std::string::npos ? 0 : std::strtol(part.c_str() + dash + 1, &e2, 10);
    if (dash != std::string::npos && dash > 0 && e1 == part.c_str() + dash && e2 && *e2 == '\0' &&
        a <= b && b - a < 4096) {
      for (long d = a; d <= b; ++d)
        out += (out.empty() ? "" : ",") + std::to_string(d);
    } else {
      out += (out.empty() ? "" : ",") + part;
    }
    if (plus == std::string::npos)
      break;
    pos = plus + 1;
  }
  return out;
}

} // namespace

Job makeJob(const RunOptions &o, const Prepared &p, int round, size_t slot) {
  Job job;
  job.argv = o.evaluator;
  job.key = p.key;
  job.stdoutPath = (fs::path(p.dir) / "stdout.txt").string();
  job.stderrPath = (fs::path(p.dir) / "stderr.txt").string();
  if (o.executor == "slurm")
    job.startedPath = fs::absolute(fs::path(p.dir) / "started").string();
  job.timeout = o.timeout;
  std::string device = slotDevice(o, slot);
  std::string devId = visibleDevices(device);
  job.env = {{"QSPEC_ROUND", std::to_string(round)},
             {"QSPEC_CONFIG_DIR", fs::absolute(fs::path(p.dir) / "config").string()},
             {"QSPEC_DEVICE", device},
             {"QSPEC_RESULT", fs::absolute(fs::path(p.dir) / "result.json").string()},
             {"QSPEC_KEY", p.key},
             {"QSPEC_ANTI_OUTLIER", p.state.antiOutlier}};
  // Without --write-ir there is no IR: QSPEC_IR is absent (also when qtune's own environment
  // has it), so an evaluator that needs it fails on the missing variable, not on an empty path.
  if (o.writeIR)
    job.env.emplace_back("QSPEC_IR", fs::absolute(fs::path(p.dir) / "ir.json").string());
  else
    job.unsetEnv.push_back("QSPEC_IR");
  if (!o.devices.empty() && !o.deviceEnv.empty())
    job.env.emplace_back(o.deviceEnv, devId);
  // Devices asked of Slurm: the step's device variables are Slurm's (or its prolog's), never
  // qtune's own environment exported by srun.
  if (o.executor == "slurm" && (!o.gres.empty() || o.gpusPerTask > 0))
    for (const char *name :
         {"SLURM_STEP_GPUS", "CUDA_VISIBLE_DEVICES", "ASCEND_RT_VISIBLE_DEVICES"})
      job.unsetEnv.push_back(name);
  return job;
}

std::string stepDevices(const std::string &dir) {
  bool ok = false;
  std::string text = readWholeFile((fs::path(dir) / "started").string(), ok, 4096);
  if (!ok || text.rfind("devices=", 0) != 0)
    return "";
  std::string out;
  for (size_t i = 8; i < text.size() && text[i] != '\n' && out.size() < 256; ++i) {
    char c = text[i];
    if (std::isalnum(static_cast<unsigned char>(c)) || c == ',' || c == ':' || c == '-' ||
        c == '_' || c == '+')
      out += c;
  }
  return out;
}

} // namespace qspec::tune
