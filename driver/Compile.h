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

// One target's emitted bytes; `name` is its file name in the output folder (empty unless asked
// for).
struct TargetFile {
  const ir::Target *target = nullptr;
  std::string name;
  std::string bytes;
};

// The target stage of qcc: every emitter of `targets` with its translation validation
// (emit::emitTargets), and with a non-empty `folder` each file's name as `qcc --emit=all -o FOLDER`
// writes it (err_output_escapes_dir for one that would leave the folder). Returns the targets that
// built; every error went to `diags`. Call it only on a spec whose pipeline resolved without
// errors.
std::vector<TargetFile> buildTargets(const ir::Spec &spec,
                                     const std::vector<const ir::Target *> &targets,
                                     DiagnosticEngine &diags, const std::string &specStem,
                                     const std::string &folder);

// The heap of a process that compiles: large temporary buffers (per-module vectors of the passes
// and emitters, emitted files) are reused from the heap instead of being mapped and unmapped one
// by one, and the main heap is backed by transparent huge pages where the kernel offers them (THP
// "madvise" mode): on a DeepSeek-V3-size compile the first touches of 4 KiB pages were about half
// of qcc's CPU time. Each thread keeps an arena of its own (prepareThreadHeaps puts those on huge
// pages too): with one arena for all, the emitter threads of qcc waited on its lock (a compile of
// qtune's all-high probe state took 0.42 s of CPU instead of 0.20), qtune's probes likewise, and
// qlint, which lints files on several threads, took 386 ms for 500 specs instead of 228. Call it
// once, first thing.
void configureHeap();

// After configureHeap, for a compile of `modules` modules that emits `targets` targets: when
// that is enough for ir::parallelFor to start threads, makes one thread arena for each of them
// ahead of time (once a process), its heap grown by 48 MiB of address space advised for huge
// pages. glibc grows a thread's heap a few pages at a time, so a 2 MiB block is never whole when
// first touched and every thread heap stays on 4 KiB pages, each first touch a page fault: about
// 4,500 in qtune's all-high probe. The arenas go to glibc's free list when their threads end;
// later threads are given them. Does nothing below ir::kParallelMinModules (a thread costs more
// than a small compile saves). With fewer than two targets the emitters run on the calling thread
// and only the pattern selection's threads remain, whose few blocks cost less in the main heap's
// touched pages than in a fresh huge page; above kThreadHeapModules a thread's work outgrows one
// thread heap (glibc's are 64 MiB at most, and the heaps it adds grow a few pages at a time
// again). So does a process under a limit of address space or data (`ulimit -v`, `ulimit -d`),
// where each arena's 64 MiB reservation counts. In these cases every thread allocates from the
// main heap, under its lock.
constexpr size_t kThreadHeapModules = 256 * 1024;
void prepareThreadHeaps(size_t modules, size_t targets);

// buildTargets for every target the spec declares into a folder, the bytes dropped: what
// `qcc --emit=all` checks before it writes.
void checkAllTargets(const ir::Spec &spec, DiagnosticEngine &diags, const std::string &specStem);

} // namespace qspec::driver
