// Small pieces of qtune that need no IR: SHA-256, the append-only history, the work-directory
// lock, and running evaluator processes (locally or through Slurm's srun).
#pragma once

#include <functional>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace qspec::tune {

// Lowercase hex SHA-256 of `data`.
std::string sha256Hex(const std::string &data);

// ---- History: one JSON object per line, flushed and fsynced per record -----------------------

struct EvalRecord {
  std::string key;     // cache key (hex)
  int round = 0;       // round of the run that evaluated it
  std::string probe;   // Probe::id()
  std::string why;
  std::string status;  // ok | exit | timeout | no-result | bad-result | signal
  bool hasMetric = false;
  double metric = 0;
  std::string detail;  // why it failed
  std::string stderrTail;
  double seconds = 0;
  size_t units = 0, modules = 0;
};

class History {
public:
  ~History();
  // Opens (creating) `path`, loads every complete record; a torn last line (a crash mid-write)
  // is cut off so the next record starts on a fresh line.
  bool open(const std::string &path, std::string &error);
  const EvalRecord *find(const std::string &key) const;
  bool append(const EvalRecord &r, std::string &error);
  const std::vector<EvalRecord> &records() const { return records_; }

private:
  int fd_ = -1;
  std::vector<EvalRecord> records_;
  std::map<std::string, size_t> byKey_; // the latest record per key
};

// Reads a history file without opening it for writing (status, report).
std::vector<EvalRecord> readHistory(const std::string &path);

// ---- Lock ---------------------------------------------------------------------------------

// Takes flock(LOCK_EX|LOCK_NB) on `path` (kept until the process exits; close-on-exec so
// evaluators never inherit it). On failure `holder` is the pid written by the holder, if any.
bool takeLock(const std::string &path, std::string &holder, std::string &error);
// True when some process holds the lock (status).
bool lockHeld(const std::string &path, std::string &holder);

// ---- Processes ----------------------------------------------------------------------------

struct Job {
  std::vector<std::string> argv;
  std::vector<std::pair<std::string, std::string>> env;
  std::string stdoutPath, stderrPath;
  double timeout = 0; // seconds, 0 = none
};

struct JobResult {
  int exitCode = -1;     // -1 when killed by a signal
  int signal = 0;
  bool timedOut = false;
  double seconds = 0;
};

struct ExecOptions {
  std::string executor = "local";   // local | slurm
  std::string srun = "srun";
  std::vector<std::string> slurmArgs; // e.g. --partition=debug --gres=npu:1
};

// Runs all `jobs` at once (one per slot) without a shell and waits for all of them. Children
// die with qtune (PR_SET_PDEATHSIG) and run in their own process group, which a timeout kills.
// `onDone(i, result)` is called as each job ends; `tick()` about once a second while waiting.
void runJobs(const std::vector<Job> &jobs, const ExecOptions &opts,
             const std::function<void(size_t, const JobResult &)> &onDone, const std::function<void()> &tick);

// Finds `program` the way execvp would; "" if it is not an executable file.
std::string findProgram(const std::string &program);

// The last `maxBytes` of a file.
std::string fileTail(const std::string &path, size_t maxBytes);

} // namespace qspec::tune
