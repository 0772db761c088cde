// The qtune commands: run (the search loop), status, report and apply. main.cpp parses the
// command line into these options; every function returns the process exit code.
#pragma once

#include <string>
#include <vector>

namespace qspec::tune {

struct RunOptions {
  std::string spec, workdir;
  std::string strategy;                   // "" = the spec's (default group-bisect)
  unsigned jobs = 1;
  std::vector<std::string> devices;       // one per slot, reused round-robin
  std::string deviceEnv = "ASCEND_RT_VISIBLE_DEVICES";
  std::string executor = "local";         // local | slurm
  std::vector<std::string> slurmArgs;
  std::string srun = "srun";
  int maxRounds = 0;                      // 0 = the spec's, else the strategy's default
  double timeout = 0;                     // per evaluation, seconds
  double maxTime = 0;                     // whole run, seconds; 0 = the spec's max_time
  std::string cacheSalt;
  bool retryFailed = false;               // evaluate failed cache entries again
  bool progress = true;
  std::string inventory, scores;          // overrides, as in qcc
  std::vector<std::string> evaluator;     // argv
};

// Exit codes: 0 a configuration meeting the target was found, 1 unreachable / not reached or
// errors in the spec, 2 usage or internal errors.
int runCommand(const RunOptions &o);
int statusCommand(const std::string &dir);
int reportCommand(const std::string &dir);
int applyCommand(const std::string &dir);

// Rewrites the `exclude`/`raise` statements (and earlier `// qtune:` comments) inside the tune
// block [blockBegin, blockEnd) of `text` with `statements` (one per line, already indented with
// `indent` unless empty); everything else stays byte-identical. Exposed for the unit tests.
std::string rewriteTuneBlock(const std::string &text, size_t blockBegin, size_t blockEnd,
                             const std::string &statements);
// The indentation used by the first statement inside the tune block ("  " if none).
std::string tuneBlockIndent(const std::string &text, size_t blockBegin, size_t blockEnd);

} // namespace qspec::tune
