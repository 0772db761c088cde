// Internal pieces of `qtune run` shared by the loop (Driver.cpp), probe preparation
// (Prepare.cpp) and the evaluation of results (Evaluate.cpp). No library type appears here.
#pragma once

#include "driver/qtune/Driver.h"
#include "driver/qtune/Process.h"
#include "driver/qtune/Space.h"
#include "driver/qtune/Strategy.h"
#include "driver/qtune/Support.h"
#include "ir/Diagnostics.h"
#include "ir/IR.h"

#include <string>
#include <utility>
#include <vector>

namespace qspec::tune {

// One probe made concrete: its tuning state, its emitted files and its cache key.
struct Prepared {
  Probe probe;
  TuningState state;
  std::string key, dir; // dir = DIR/evals/KEY16
  std::string config;   // the configuration's digest (the key without the inputs)
  std::vector<std::pair<std::string, std::string>> files; // file name, bytes; dropped once written
  std::string tuneText;                                   // the state's statements (stateText)
  std::string irJson;                                     // only with --write-ir
};

// A metric goal with its threshold resolved (a relative goal: P% of the float baseline).
struct Goal {
  std::string name, op;
  double threshold = 0;
};

// ---- Prepare.cpp ----------------------------------------------------------------------------

struct ProbeContext {
  const RunOptions &opts;
  const ir::Spec &base; // as loaded
  // Resolved with an empty tuning state first, then resolved again for each probe with the
  // probe's state (its inventory and module selector are reused: no copy per probe).
  ir::Spec &scratch;
  const TuneSpace &space;
  std::string inputsKey; // inputsKeyText(keyInputs())
  // Over scratch.inventory (its selector), handed to the msModelSlim emitter too.
  const msmodelslim::SelectionCompressor &compressor;
};

// Everything besides the configuration that decides a result, one digest per input by name:
// "evaluator" (its arguments, the content of the program and of every argument that is a script:
// an executable file, or a .py/.sh/... file), "eval-inputs" (the --eval-input files), "metrics",
// "salt", and the model's "inventory", "onnx", "onnx-map" and "scores" files (content; a file
// over 64 MiB by its size, first and last 16 MiB).
std::vector<std::pair<std::string, std::string>> keyInputs(const RunOptions &o,
                                                           const ir::Spec &spec);
// The inputs' part of every key.
std::string inputsKeyText(const std::vector<std::pair<std::string, std::string>> &inputs);

// Applies the probe's state to the scratch spec (the base's targets and tune block, the state's
// compressed statements), runs the passes, emits every target and computes the key. False
// (diagnostics in `rd`) when the passes or an emitter reject it.
bool prepareProbe(const ProbeContext &c, const Probe &p, Prepared &out, DiagnosticEngine &rd);

// Writes DIR/evals/KEY16/{config/, tune.qspec, ir.json with --write-ir} and drops the bytes.
void writeEvalDir(Prepared &p);

// ---- Evaluate.cpp ---------------------------------------------------------------------------

// The evaluator's exit codes for its own verdict on a failure (sysexits' EX_TEMPFAIL and
// EX_CONFIG): transient (run it again, on another slot) and fatal (stop the run).
constexpr int kExitTransient = 75, kExitFatal = 78;

// The status of a finished job from its exit and its result file (every goal's metric must be a
// finite number).
EvalRecord judge(const JobResult &jr, const std::string &dir,
                 const std::vector<ir::MetricGoal> &goals, double timeout);

// True if the record's metrics meet every goal.
bool goalsPass(const std::vector<Goal> &goals, const EvalRecord &r);

// Which evaluations open a file of their QSPEC_CONFIG_DIR, seen through inotify (local
// evaluators only: a Slurm node reads through the network file system, unseen here).
class ConfigReads {
public:
  ConfigReads();
  ~ConfigReads();
  ConfigReads(const ConfigReads &) = delete;
  ConfigReads &operator=(const ConfigReads &) = delete;
  bool available() const { return fd_ >= 0; }
  // Watches `configDir` (before its evaluator starts).
  void watch(const std::string &configDir);
  // How many watched folders had a file opened in them since they were watched.
  size_t read();

private:
  int fd_ = -1;
  std::vector<int> watches_;
  std::vector<int> opened_;
};

// The device set of slot `slot` (--devices, round-robin), or the slot's number without it.
std::string slotDevice(const RunOptions &o, size_t slot);

// The evaluator job of a prepared probe in slot `slot` of round `round`.
Job makeJob(const RunOptions &o, const Prepared &p, int round, size_t slot);

// The devices a Slurm step says it was given (SLURM_STEP_GPUS, else CUDA_VISIBLE_DEVICES, else
// ASCEND_RT_VISIBLE_DEVICES in the step's environment), as the step wrote them into DIR/started;
// "" when it names none (a count-only GRES, or one whose plugin sets no variable).
std::string stepDevices(const std::string &dir);

} // namespace qspec::tune
