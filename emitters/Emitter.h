// The one interface every backend implements (after protoc's CodeGenerator): an emitter receives
// a resolved, validated, read-only spec and one of its targets, and writes one file's bytes into
// an OutputContext. It never opens files itself; qcc writes the bytes atomically, and only when
// no error was reported. yaml-cpp, nlohmann_json and libprotobuf types stay inside their folder.
#pragma once

#include "ir/Diagnostics.h"
#include "ir/IR.h"
#include "ir/TargetInfo.h"

#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace qspec::msmodelslim {
class SelectionCompressor;
} // namespace qspec::msmodelslim

namespace qspec::emit {

// Indexes over the spec's inventory that an emitter would otherwise build on every call, made by
// a caller that emits one inventory many times (qtune: every probe of a search) and passed in.
// Each may be null: the emitter then builds its own. They must index `spec.inventory`.
struct EmitIndexes {
  // The msModelSlim emitter's include/exclude compressor (qtune compresses its tuning state with
  // the same one, so the name trie is built once per search).
  const msmodelslim::SelectionCompressor *msmodelslimCompressor = nullptr;
  // The --emit kind asked for when it is one of a target's otherEmitKinds (TargetInfo); "" = the
  // target's own file.
  std::string emitKind;
};

class OutputContext {
public:
  std::string &buffer() { return buffer_; }
  const std::string &buffer() const { return buffer_; }
  // With --emit=all: the file name to use inside the output directory (no '/'); "" = the
  // spec's stem plus the target's extension. An emitter sets it when the vendor ties the file
  // name to the content (msModelSlim: `<config_id>.yaml`).
  std::string fileName;
  // What the caller passes in (emitTargets' `indexes`); null = nothing.
  const EmitIndexes *indexes = nullptr;

private:
  std::string buffer_;
};

class Emitter {
public:
  virtual ~Emitter() = default;
  // Writes the config for `target` into `out`; returns false after reporting errors.
  virtual bool emit(const ir::Spec &spec, const ir::Target &target, OutputContext &out,
                    DiagnosticEngine &diags) = 0;
};

// Registers a backend: its TargetInfo (capabilities, for the passes) and its factory.
void registerEmitter(ir::TargetInfo info, std::function<std::unique_ptr<Emitter>()> create);
std::unique_ptr<Emitter> createEmitter(std::string_view targetKind);
// Registers every backend listed in Emitters.def. Idempotent.
void registerAllEmitters();

// One target's emitted file: `ok` is false when its emitter reported errors.
struct EmitResult {
  const ir::Target *target = nullptr;
  OutputContext out;
  bool ok = false;
};
// Runs the emitter of each target, on up to `threads` threads (0 = one per core and at most one
// per target for inventories of ir::kParallelMinModules modules or more, else one). Emitters only
// read the spec, so they can run side by side; each reports into its own DiagnosticEngine, and
// those diagnostics are replayed into `diags` in target order, so the output is the same bytes as
// running them one after another. A target kind without a registered emitter is reported
// (err_tune_no_emitter) and not ok. `indexes` are handed to every emitter (EmitIndexes).
std::vector<EmitResult> emitTargets(const ir::Spec &spec,
                                    const std::vector<const ir::Target *> &targets,
                                    DiagnosticEngine &diags, unsigned threads = 0,
                                    const EmitIndexes &indexes = {});

// Writes an output file (docs/limits.md, "Output safety"). Where `path` is absent or a regular
// file: `data` goes to a temporary file next to it, is fsynced and renamed over it; a rewritten
// file keeps its mode and owner, and a symlink is written through (the regular file it names is
// replaced, the link stays). A device, a FIFO, and `-` (stdout) are written directly, never
// replaced. A directory is an error. On failure nothing is left behind and `error` says why.
bool writeFileAtomically(const std::string &path, const std::string &data, std::string &error);
// Writes all of `data` to `fd` (retrying short writes and EINTR), then fsyncs it.
bool writeAll(int fd, std::string_view data, std::string &error);

// Backend registration functions, one per folder.
#define EMITTER(KIND, FOLDER, REGISTER) void REGISTER();
#include "emitters/Emitters.def"
#undef EMITTER

} // namespace qspec::emit
