// The qtune commands: run (the search loop), status, report and apply. main.cpp parses the
// command line into these options; every function returns the process exit code.
#pragma once

#include <string>
#include <vector>

namespace qspec::tune {

struct RunOptions {
  std::string spec, workdir;
  std::string strategy; // "" = the spec's (default group-bisect)
  unsigned jobs = 1;
  bool jobsGiven = false;           // without --jobs, --devices sets one slot per device set
  std::vector<std::string> devices; // one device set per slot ("npu:0", "0-3"), round-robin
  std::string deviceEnv = "ASCEND_RT_VISIBLE_DEVICES";
  std::string executor = "local"; // local | slurm
  std::vector<std::string> slurmArgs;
  std::string gres;    // --gres TYPE:N: each evaluation's devices from Slurm (also in slurmArgs)
  int gpusPerTask = 0; // --gpus-per-task N (also in slurmArgs)
  std::string srun = "srun";
  int maxRounds = 0;  // 0 = the spec's, else the strategy's default
  double timeout = 0; // per evaluation, seconds
  double maxTime = 0; // whole run, seconds; 0 = the spec's max_time
  std::string cacheSalt;
  std::vector<std::string> cacheInputs; // --cache-input: files whose content enters every key
  int retries = 1;                      // a failed evaluation runs again this many times
  int transientRetries = 3;             // ... and one the evaluator calls transient
  int maxEvals = 0;                     // evaluator runs of the whole run; 0 = no limit
  int plateau = 0;                      // stop after N rounds without a better answer; 0 = never
  bool writeIR = false;                 // --write-ir: DIR/evals/KEY16/ir.json and QSPEC_IR
  size_t logLimit = 16u << 20;          // bytes kept per stdout/stderr file (then a tail)
  bool writeReport = true;              // report.md/report.svg at the end of the run
  bool progress = true;
  std::string inventory, scores;      // overrides, as in qcc
  std::vector<std::string> evaluator; // argv
};

// Exit codes: 0 a configuration meeting the target was found, 1 unreachable / not reached or
// errors in the spec, 2 usage or internal errors, 3 no verdict (the deciding evaluations failed).
int runCommand(const RunOptions &o);
int statusCommand(const std::string &dir);
int reportCommand(const std::string &dir);
// DIR/report.md and DIR/report.svg (reportCommand, and `run` at its end).
bool writeReportFiles(const std::string &dir, std::string &err);
int applyCommand(const std::string &dir);

// ---- apply (exposed for the unit tests) ----------------------------------------------------

struct TextSpan {
  size_t begin = 0, end = 0; // byte offsets, half-open
};

// Removes `spans` (tune statements as the parser located them, each with its ';') from `text`,
// each with a `// qtune:` comment that follows it on its line and the whole line when nothing
// else is left on it, and inserts `statements` where the first removed statement was (when it
// had its own line), else before the line of `closeBrace` (the tune block's '}'). Every other
// byte stays. `insertedAt` receives where the statements went.
std::string rewriteTuneStatements(const std::string &text, std::vector<TextSpan> spans,
                                  size_t closeBrace, const std::string &statements,
                                  size_t *insertedAt = nullptr);
// The indentation of the line holding the statement that starts at `statementBegin` ("  " when
// something precedes it on its line).
std::string statementIndent(const std::string &text, size_t statementBegin);

} // namespace qspec::tune
