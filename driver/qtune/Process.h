// Evaluator processes: started without a shell (locally or through Slurm's srun), each in its
// own process group; their output goes through pipes into capped log files; every process an
// evaluator starts dies with its probe and with qtune.
//
// Tracking: qtune is a child subreaper (PR_SET_CHILD_SUBREAPER), so a grandchild whose parent
// dies, even one that called setsid(), becomes qtune's child instead of init's. When a probe
// ends, its process group is killed and every process carrying the probe's QSPEC_RESULT (a path
// unique to the work directory and the probe) in its environment is killed too; on
// SIGINT/SIGTERM/SIGHUP every running group and orphan is killed before qtune exits. Against a
// kill -9 of qtune, which no handler sees, a watchdog (startWatchdog) waits on a pipe only qtune
// writes: when the pipe closes without qtune's goodbye, the watchdog kills the evaluators'
// process groups and every process with the work directory in its environment, whatever
// wrappers (sh -c, Python) stand between. The next run sweeps the work directory again
// (sweepWorkdir) in case the watchdog was killed too.
#pragma once

#include <functional>
#include <string>
#include <utility>
#include <vector>

namespace qspec::tune {

struct Job {
  std::vector<std::string> argv;
  std::vector<std::pair<std::string, std::string>> env;
  std::vector<std::string> unsetEnv; // names removed from the environment qtune passes on
  std::string key;                   // QSPEC_KEY (the sweep uses QSPEC_RESULT from `env`)
  std::string stdoutPath, stderrPath;
  std::string startedPath; // slurm: the step creates it when it starts running
  double timeout = 0;      // seconds of run time, 0 = none
};

struct JobResult {
  int exitCode = -1; // -1 when killed by a signal
  int signal = 0;
  bool timedOut = false;
  double seconds = 0; // run time (slurm: from the step's start, queue wait excluded)
};

struct ExecOptions {
  std::string executor = "local"; // local | slurm
  std::string srun = "srun";
  std::vector<std::string> slurmArgs; // e.g. --partition=debug --gres=npu:1
  size_t logLimit = 16u << 20;        // bytes kept per stdout/stderr file (then a tail)
};

// Runs all `jobs` at once (one per slot) and waits for all of them. `onDone(i, result)` is
// called as each job ends; `tick()` about once a second while waiting.
void runJobs(const std::vector<Job> &jobs, const ExecOptions &opts,
             const std::function<void(size_t, const JobResult &)> &onDone,
             const std::function<void()> &tick);

// Kills (SIGKILL) every process of this user whose environment names `workdir` in
// QSPEC_CONFIG_DIR: evaluators left behind by a qtune that was killed with SIGKILL. Waits until
// they are gone; returns how many were killed.
int sweepWorkdir(const std::string &workdir);

// Makes SIGINT, SIGTERM and SIGHUP kill every running evaluator before qtune exits.
void installExitHandlers();

// Starts the watchdog of this qtune's evaluators (a new session: terminal signals do not reach
// it): `qtune __watchdog WORKDIR` with the read end of a pipe as descriptor 3. runJobs tells it
// every evaluator's process group. False if it cannot be started (the run goes on without it).
bool startWatchdog(const std::string &workdir);
// Says goodbye to the watchdog (nothing to clean up) and waits for it to exit.
void stopWatchdog();
// The watchdog's main (`qtune __watchdog WORKDIR`): returns its exit code.
int watchdogMain(const std::string &workdir);

// Finds `program` the way execvp would; "" if it is not an executable file.
std::string findProgram(const std::string &program);

} // namespace qspec::tune
