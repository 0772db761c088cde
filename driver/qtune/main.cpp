// qtune: the accuracy search driver.
//
//   qtune run SPEC --workdir DIR [options] -- EVALUATOR [ARGS...]
//   qtune status DIR | qtune report DIR | qtune apply DIR
//
// Exit codes: 0 a configuration meeting the target was found (run) or the command succeeded,
// 1 the target is unreachable or not reached, or errors in the input, 2 usage or internal errors.
#include "driver/qtune/Driver.h"
#include "driver/qtune/Process.h"
#include "driver/qtune/Support.h"
#include "ir/Cli.h"
#include "ir/Diagnostics.h"
#include "support/Heap.h"

#include <algorithm>
#include <cmath>
#include <iostream>
#include <optional>
#include <string>
#include <unistd.h>

using namespace qspec;

namespace {

const char *kUsage = R"(usage: qtune run SPEC --workdir DIR [options] -- EVALUATOR [ARGS...]
       qtune status DIR      progress and best result of a run
       qtune report DIR      write DIR/report.md and DIR/report.svg
       qtune apply DIR       write the best tuning state into the spec's tune block

options of every command:
  --color=WHEN             auto (default: on a terminal, unless NO_COLOR is set) | always | never

run options:
  --workdir DIR            where configs, the history (cache) and the result live (required)
  --strategy NAME          group-bisect (default), standing-high or hmct-ladder
  --jobs N                 evaluations at once (default 1, or one per --devices set)
  --devices LIST           comma-separated device sets, one per slot: a device (npu:0), a
                           range (0-3) or ids joined with + (0+2); e.g. --devices 0-3,4-7
  --device-env NAME        variable that pins an evaluation to its device
                           (default ASCEND_RT_VISIBLE_DEVICES)
  --executor KIND          local (default) or slurm (each evaluation through srun)
  --slurm-arg ARG          extra srun argument, repeatable (e.g. --slurm-arg=--partition=debug)
  --partition P            shorthand for --slurm-arg=--partition=P
  --gres TYPE:N            slurm: each evaluation's devices, N of GRES TYPE per task
                           (srun --gres=TYPE:N; e.g. --gres gpu:4, --gres npu:4)
  --gpus-per-task N        slurm: each evaluation's devices as N GPUs (srun --gpus-per-task=N);
                           with either, the history records the devices Slurm gave each probe
  --srun PATH              the srun program (default srun)
  --max-rounds N           stop after N rounds (default: the spec's max_rounds, else the strategy's)
  --max-time SECONDS       stop starting rounds after SECONDS (default: the spec's max_time)
  --max-hours H            the same budget in hours (e.g. 1.5)
  --max-evals N            stop starting rounds after N evaluator runs
  --plateau N              stop after N rounds without a better configuration
  Stopped by a budget or a plateau, the run ends with the best configuration so far.
  --timeout SECONDS        a longer evaluation is killed and counts as failed
  --cache-salt TEXT        mixed into every cache key (new data set, new checkpoint, ...)
  --eval-input FILE        a file the evaluator reads (data set, checkpoint list, helper
                           module): its content enters every cache key (repeatable; the
                           evaluator program, its script arguments and the model's inventory,
                           ONNX and scores files always do); also --cache-input FILE
  --retries N              run a failed evaluation again up to N times (default 1); failures
                           are never cached, so a later run evaluates them again
  --transient-retries N    run an evaluation the evaluator calls transient (exit 75) again up
                           to N times, on another slot's devices (default 3); exit 78 (fatal)
                           stops the run
  --write-ir               also write DIR/evals/KEY/ir.json and set QSPEC_IR
  --log-limit BYTES        keep this much of each evaluator's stdout/stderr, then only the
                           last 64 KiB (default 16 MiB)
  --no-report              do not write report.md/report.svg at the end
  --inventory FILE, --scores FILE   as in qcc
  --no-progress            no progress lines on stderr

The evaluator runs without a shell and gets QSPEC_ROUND, QSPEC_CONFIG_DIR, QSPEC_DEVICE,
QSPEC_RESULT (and QSPEC_IR only with --write-ir); see docs/driver.md and the Python kit
share/qspec/python/qspec_eval.py (qspec.tune in the Python package). Exit codes: 0 target met,
1 unreachable / not reached / errors in the spec, 2 usage or internal errors, 3 no verdict
(the deciding evaluations failed).
)";

int usageError(const std::string &msg) {
  std::cerr << "qtune: error: " << msg << "\n"
            << "run 'qtune --help' for usage\n";
  return 2;
}

bool parseNumber(const std::string &s, double &out) {
  char *end = nullptr;
  out = std::strtod(s.c_str(), &end);
  return !s.empty() && end && *end == '\0' && std::isfinite(out) && out >= 0;
}

// Takes --color=WHEN / --color WHEN out of argv (every command accepts it; arguments after '--'
// are the evaluator's) and sets the colour of qtune's diagnostics on standard error.
bool takeColorOption(int &argc, char **argv, std::string &error) {
  std::string when = "auto";
  int out = 1, i = 1;
  for (; i < argc && std::string(argv[i]) != "--"; ++i) {
    std::string a = argv[i];
    if (a.rfind("--color=", 0) == 0) {
      when = a.substr(8);
    } else if (a == "--color") {
      if (i + 1 >= argc) {
        error = "option '--color' needs a value (--color=auto|always|never)";
        return false;
      }
      when = argv[++i];
    } else {
      argv[out++] = argv[i];
    }
  }
  for (; i < argc; ++i)
    argv[out++] = argv[i];
  argc = out;
  if (when != "auto" && when != "always" && when != "never") {
    error = "--color must be auto, always or never";
    return false;
  }
  setColorAllDiagnostics(useColor(when, STDERR_FILENO));
  return true;
}

// The run options that take a value, as `--flag VALUE` or `--flag=VALUE`.
const char *const kValueFlags[] = {
    "--workdir",      "--strategy",   "--jobs",       "--devices",
    "--device-env",   "--executor",   "--slurm-arg",  "--partition",
    "--gres",         "--srun",       "--max-rounds", "--max-time",
    "--timeout",      "--cache-salt", "--inventory",  "--scores",
    "--cache-input",  "--retries",    "--log-limit",  "--eval-input",
    "--max-evals",    "--max-hours",  "--plateau",    "--transient-retries",
    "--gpus-per-task"};

// The value flag `a` is (`--flag` or `--flag=...`), or "" if none; `val` is the `=` part.
std::string valueFlag(const std::string &a, std::string &val, bool &inline_) {
  for (const char *f : kValueFlags) {
    std::string flag = f;
    if (a == flag) {
      inline_ = false;
      return flag;
    }
    if (a.rfind(flag + "=", 0) == 0) {
      val = a.substr(flag.size() + 1);
      inline_ = true;
      return flag;
    }
  }
  return "";
}

std::optional<int> parseDevices(const std::string &val, std::vector<std::string> &devices) {
  size_t pos = 0;
  while (pos <= val.size()) {
    size_t c = val.find(',', pos);
    std::string d = val.substr(pos, c == std::string::npos ? std::string::npos : c - pos);
    if (d.empty())
      return usageError("--devices: empty device name in '" + sanitizeForTerminal(val) + "'");
    devices.push_back(d);
    if (c == std::string::npos)
      break;
    pos = c + 1;
  }
  return std::nullopt;
}

// A whole number in [lo, hi].
bool wholeNumber(const std::string &val, double lo, double hi, double &num) {
  return parseNumber(val, num) && num >= lo && num <= hi && num == std::floor(num);
}

// The numeric run options; nothing if `flag` is not one of them or its value is valid.
std::optional<int> setRunNumber(const std::string &flag, const std::string &val,
                                tune::RunOptions &o) {
  double num = 0;
  if (flag == "--jobs") {
    if (!wholeNumber(val, 1, 1024, num))
      return usageError("--jobs takes a whole number from 1 to 1024");
    o.jobs = static_cast<unsigned>(num);
    o.jobsGiven = true;
  } else if (flag == "--max-rounds") {
    if (!wholeNumber(val, 1, 100000, num))
      return usageError("--max-rounds takes a whole number from 1 to 100000");
    o.maxRounds = static_cast<int>(num);
  } else if (flag == "--max-time" || flag == "--timeout") {
    if (!parseNumber(val, num) || num <= 0)
      return usageError(flag + " takes a positive number of seconds");
    (flag == "--timeout" ? o.timeout : o.maxTime) = num;
  } else if (flag == "--max-hours") {
    if (!parseNumber(val, num) || num <= 0)
      return usageError("--max-hours takes a positive number of hours");
    o.maxTime = num * 3600;
  } else if (flag == "--max-evals" || flag == "--plateau") {
    if (!wholeNumber(val, 1, 1e9, num))
      return usageError(flag + " takes a whole number, at least 1");
    (flag == "--plateau" ? o.plateau : o.maxEvals) = static_cast<int>(num);
  } else if (flag == "--transient-retries") {
    if (!wholeNumber(val, 0, 100, num))
      return usageError("--transient-retries takes a whole number from 0 to 100");
    o.transientRetries = static_cast<int>(num);
  } else if (flag == "--retries") {
    if (!wholeNumber(val, 0, 100, num))
      return usageError("--retries takes a whole number from 0 to 100");
    o.retries = static_cast<int>(num);
  } else if (flag == "--gpus-per-task") {
    if (!wholeNumber(val, 1, 1024, num))
      return usageError("--gpus-per-task takes a whole number from 1 to 1024");
    o.gpusPerTask = static_cast<int>(num);
    o.slurmArgs.push_back("--gpus-per-task=" + val);
  } else if (flag == "--log-limit") {
    if (!wholeNumber(val, 1024, 1e12, num))
      return usageError("--log-limit takes a whole number of bytes, at least 1024");
    o.logLimit = static_cast<size_t>(num);
  }
  return std::nullopt;
}

// Sets the run option `flag` (one of kValueFlags) to `val`; a usage error's exit code if invalid.
std::optional<int> setRunValue(const std::string &flag, const std::string &val,
                               tune::RunOptions &o) {
  if (flag == "--workdir")
    o.workdir = val;
  else if (flag == "--strategy")
    o.strategy = val;
  else if (flag == "--devices")
    return parseDevices(val, o.devices);
  else if (flag == "--device-env")
    o.deviceEnv = val;
  else if (flag == "--executor") {
    if (val != "local" && val != "slurm")
      return usageError("--executor must be local or slurm");
    o.executor = val;
  } else if (flag == "--slurm-arg")
    o.slurmArgs.push_back(val);
  else if (flag == "--partition")
    o.slurmArgs.push_back(flag + "=" + val);
  else if (flag == "--gres") {
    if (val.empty() || val[0] == ':' || val.back() == ':' || val.find(',') != std::string::npos)
      return usageError("--gres takes one device request TYPE:N (e.g. gpu:4 or npu:4), not '" +
                        sanitizeForTerminal(val) + "'");
    o.gres = val;
    o.slurmArgs.push_back(flag + "=" + val);
  } else if (flag == "--srun")
    o.srun = val;
  else if (flag == "--cache-salt")
    o.cacheSalt = val;
  else if (flag == "--inventory")
    o.inventory = val;
  else if (flag == "--scores")
    o.scores = val;
  else if (flag == "--cache-input" || flag == "--eval-input")
    o.cacheInputs.push_back(val);
  else
    return setRunNumber(flag, val, o);
  return std::nullopt;
}

// The run options without a value; false if `a` is none of them.
bool setRunSwitch(const std::string &a, tune::RunOptions &o) {
  if (a == "--write-ir")
    o.writeIR = true;
  else if (a == "--no-report")
    o.writeReport = false;
  else if (a == "--no-progress")
    o.progress = false;
  else if (a != "--retry-failed") // kept for old scripts: failures are never cached any more
    return false;
  return true;
}

// `qtune run`'s arguments (argv[2] on) into `o`. Returns the exit code when the command is done
// (--help) or wrong (a usage error); nothing to go on.
std::optional<int> parseRunArgs(int argc, char **argv, tune::RunOptions &o) {
  int i = 2;
  for (; i < argc; ++i) {
    std::string a = argv[i], val;
    if (a == "--") {
      ++i;
      break;
    }
    bool inline_ = false;
    std::string flag = valueFlag(a, val, inline_);
    if (a == "--help" || a == "-h") {
      std::cout << kUsage;
      return 0;
    } else if (!flag.empty()) {
      if (!inline_ && i + 1 >= argc)
        return usageError("option '" + a + "' needs a value");
      if (!inline_)
        val = argv[++i];
      if (std::optional<int> rc = setRunValue(flag, val, o))
        return rc;
    } else if (setRunSwitch(a, o)) {
    } else if (a == "-") {
      return usageError(
          "the spec must be a file, not standard input ('-'): a run is resumed from it and "
          "'qtune apply' writes into it");
    } else if (!a.empty() && a[0] == '-') {
      return usageError("unknown option '" + sanitizeForTerminal(a) + "'");
    } else if (o.spec.empty()) {
      o.spec = a;
    } else {
      return usageError("more than one spec ('" + sanitizeForTerminal(o.spec) + "' and '" +
                        sanitizeForTerminal(a) + "'); put the evaluator after '--'");
    }
  }
  for (; i < argc; ++i)
    o.evaluator.push_back(argv[i]);
  return std::nullopt;
}

// Where each evaluation's devices come from: --devices locally; with Slurm, Slurm allocates them
// (--gres or --gpus-per-task), so local device ids would name devices of another allocation.
std::optional<int> checkDeviceOptions(const tune::RunOptions &o) {
  bool slurm = o.executor == "slurm";
  const char *request = !o.gres.empty() ? "--gres" : o.gpusPerTask ? "--gpus-per-task" : nullptr;
  if (request && !slurm)
    return usageError(std::string(request) +
                      " asks Slurm for each evaluation's devices: it needs --executor slurm "
                      "(a local run pins its slots with --devices)");
  if (!o.gres.empty() && o.gpusPerTask)
    return usageError("--gres and --gpus-per-task both ask for each evaluation's devices; "
                      "give one of them");
  if (slurm && !o.devices.empty())
    return usageError("--devices names local device ids; with --executor slurm, Slurm allocates "
                      "each evaluation's devices: ask for them with --gres TYPE:N or "
                      "--gpus-per-task N");
  return std::nullopt;
}

// What parseRunArgs cannot judge one flag at a time; nothing if the run can start.
std::optional<int> checkRunOptions(const tune::RunOptions &o) {
  if (o.spec.empty())
    return usageError("no spec file");
  if (o.workdir.empty())
    return usageError("--workdir DIR is required");
  if (o.evaluator.empty())
    return usageError("no evaluator command; give it after '--'");
  if (o.devices.size() > 0 && o.devices.size() < o.jobs)
    return usageError("--devices names " + std::to_string(o.devices.size()) +
                      " devices for --jobs " + std::to_string(o.jobs));
  if (std::optional<int> rc = checkDeviceOptions(o))
    return rc;
  if (tune::findProgram(o.evaluator[0]).empty())
    return usageError("evaluator '" + sanitizeForTerminal(o.evaluator[0]) +
                      "' is not an executable program");
  if (o.executor == "slurm" && tune::findProgram(o.srun).empty())
    return usageError("--executor slurm needs '" + sanitizeForTerminal(o.srun) +
                      "' (Slurm's srun) on PATH");
  return std::nullopt;
}

// status, report and apply: one work directory each.
int dirCommand(const std::string &cmd, int argc, char **argv) {
  if (argc == 3 && (std::string(argv[2]) == "--help" || std::string(argv[2]) == "-h")) {
    std::cout << kUsage;
    return 0;
  }
  if (argc != 3)
    return usageError("'qtune " + cmd + "' takes one work directory");
  std::string dir = argv[2];
  if (cmd == "status")
    return tune::statusCommand(dir);
  if (cmd == "report")
    return tune::reportCommand(dir);
  return tune::applyCommand(dir);
}

} // namespace

int main(int argc, char **argv) {
  // Every probe allocates the same large buffers again (the resolution, emitted files, vendor
  // readings): kept on the heap, they land on pages the previous probe already touched.
  support::configureHeap();
  std::string colorError;
  if (!takeColorOption(argc, argv, colorError))
    return usageError(colorError);
  if (argc < 2)
    return usageError("no command; use run, status, report or apply");
  std::string cmd = argv[1];
  if (cmd == "--help" || cmd == "-h" || cmd == "help") {
    std::cout << kUsage;
    return 0;
  }
  if (cmd == "--version") {
    std::cout << versionLine("qtune") << "\n";
    return 0;
  }
  if (cmd == "__watchdog" && argc == 3) // started by `qtune run` itself (Process.h)
    return tune::watchdogMain(argv[2]);
  if (cmd == "status" || cmd == "report" || cmd == "apply")
    return dirCommand(cmd, argc, argv);
  if (cmd != "run")
    return usageError("unknown command '" + sanitizeForTerminal(cmd) +
                      "'; use run, status, report or apply");
  tune::RunOptions o;
  if (std::optional<int> rc = parseRunArgs(argc, argv, o))
    return *rc;
  if (!o.jobsGiven && !o.devices.empty()) // one slot per device set
    o.jobs = static_cast<unsigned>(std::min<size_t>(o.devices.size(), 1024));
  if (std::optional<int> rc = checkRunOptions(o))
    return *rc;
  return tune::runCommand(o);
}
