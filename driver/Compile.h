// What qcc, qtune and qlint share about a spec's targets: the name of each target's file (one rule,
// so a configuration qtune hands its evaluator carries the names `qcc --emit=all` writes), and the
// target stage of qcc's pipeline, which qlint runs too so both give one verdict.
#pragma once

#include "emitters/Emitter.h"

#include <string>
#include <vector>

namespace qspec::driver {

// The emitter's own file name when it sets one, else SPECSTEM + the target's extension.
std::string outputFileName(const emit::EmitResult &r, const std::string &specStem);

// False for a name that would leave the folder (a '/', '\', ".", "..", NUL, empty).
bool safeFileName(const std::string &name);

// One target's emitted bytes; `name` is its file name in the output folder (empty unless asked for).
struct TargetFile {
  const ir::Target *target = nullptr;
  std::string name;
  std::string bytes;
};

// The target stage of qcc: every emitter of `targets` with its translation validation
// (emit::emitTargets), and with a non-empty `folder` each file's name as `qcc --emit=all -o FOLDER`
// writes it (err_output_escapes_dir for one that would leave the folder). Returns the targets that built;
// every error went to `diags`. Call it only on a spec whose pipeline resolved without errors.
std::vector<TargetFile> buildTargets(const ir::Spec &spec, const std::vector<const ir::Target *> &targets,
                                     DiagnosticEngine &diags, const std::string &specStem, const std::string &folder);

// Large temporary buffers (per-module vectors of the passes and emitters, emitted files) are reused
// from the heap instead of being mapped and unmapped one by one: every fresh mapping costs a page
// fault per 4 KiB on first touch. qcc calls it once at start (about a fifth of a DeepSeek-V3-size
// compile was first touches), qtune too (each probe's buffers reuse the previous probe's pages).
void keepLargeBuffersOnHeap();

// buildTargets for every target the spec declares into a folder, the bytes dropped: what
// `qcc --emit=all` checks before it writes.
void checkAllTargets(const ir::Spec &spec, DiagnosticEngine &diags, const std::string &specStem);

} // namespace qspec::driver
