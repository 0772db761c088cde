// The target stage of the pipeline, shared by qcc, qtune and qlint: the name of each target's file
// (one rule, so a configuration qtune hands its evaluator carries the names `qcc --emit=all`
// writes), and every emitter of a spec with its translation validation, which qlint runs too so
// that both tools give one verdict.
#pragma once

#include "emitters/Emitter.h"

#include <string>
#include <vector>

namespace qspec::emit {

// The emitter's own file name when it sets one, else SPECSTEM + the target's extension.
std::string outputFileName(const EmitResult &r, const std::string &specStem);

// False for a name that would leave the folder (a '/', '\', ".", "..", NUL, empty).
bool safeFileName(const std::string &name);

// One target's emitted bytes; `name` is its file name in the output folder (empty unless asked
// for).
struct TargetFile {
  const ir::Target *target = nullptr;
  std::string name;
  std::string bytes;
};

// The target stage of qcc: every emitter of `targets` with its translation validation
// (emitTargets), and with a non-empty `folder` each file's name as `qcc --emit=all -o FOLDER`
// writes it (err_output_escapes_dir for one that would leave the folder). Returns the targets that
// built; every error went to `diags`. Call it only on a spec whose pipeline resolved without
// errors. `indexes` are handed to the emitters (EmitIndexes), as emitTargets does.
std::vector<TargetFile> buildTargets(const ir::Spec &spec,
                                     const std::vector<const ir::Target *> &targets,
                                     DiagnosticEngine &diags, const std::string &specStem,
                                     const std::string &folder, const EmitIndexes &indexes = {});

// buildTargets for every target the spec declares into a folder, the bytes dropped: what
// `qcc --emit=all` checks before it writes.
void checkAllTargets(const ir::Spec &spec, DiagnosticEngine &diags, const std::string &specStem);

} // namespace qspec::emit
