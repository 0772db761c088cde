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
  std::string key, dir;                                   // dir = DIR/evals/KEY16
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
  std::string commandKey; // evaluatorKey()
  // Over scratch.inventory (its selector), handed to the msModelSlim emitter too.
  const msmodelslim::SelectionCompressor &compressor;
};

// Everything besides the configuration that decides a result: the evaluator's arguments, the
// content of the program and of every argument that is a script (an executable file, or a
// .py/.sh/... file), the --cache-input files, the metric names and the salt.
std::string evaluatorKey(const RunOptions &o, const ir::Tune &tune);

// Applies the probe's state to the scratch spec (the base's targets and tune block, the state's
// compressed statements), runs the passes, emits every target and computes the key. False
// (diagnostics in `rd`) when the passes or an emitter reject it.
bool prepareProbe(const ProbeContext &c, const Probe &p, Prepared &out, DiagnosticEngine &rd);

// Writes DIR/evals/KEY16/{config/, tune.qspec, ir.json with --write-ir} and drops the bytes.
void writeEvalDir(Prepared &p);

// ---- Evaluate.cpp ---------------------------------------------------------------------------

// The status of a finished job from its exit and its result file (every goal's metric must be a
// finite number).
EvalRecord judge(const JobResult &jr, const std::string &dir,
                 const std::vector<ir::MetricGoal> &goals, double timeout);

// True if the record's metrics meet every goal.
bool goalsPass(const std::vector<Goal> &goals, const EvalRecord &r);

// The evaluator job of a prepared probe in slot `slot` of round `round`.
Job makeJob(const RunOptions &o, const Prepared &p, int round, size_t slot);

} // namespace qspec::tune
