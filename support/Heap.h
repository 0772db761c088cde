// The heap of a process that compiles (qcc, qtune, qlint): process support below every layer.
#pragma once

#include <cstddef>

namespace qspec::support {

// The heap of a process that compiles; qcc, qlint and qtune call it first thing in main. Large
// temporary buffers (per-module vectors of the passes and emitters, emitted files) are reused
// from the heap instead of being mapped and unmapped one by one, and the main heap is backed by
// transparent huge pages where the kernel offers them (THP "madvise" mode), so a large compile
// takes one page fault per 2 MiB it touches instead of one per 4 KiB. Each thread keeps an arena
// of its own (prepareThreadHeaps puts those on huge pages too), so threads that allocate side by
// side (qcc's emitters, qtune's probes, qlint's files) do not wait on one lock.
// docs/performance.md ("Process set-up") says what this buys.
void configureHeap();

// After configureHeap, for a compile of `modules` modules that emits `targets` targets: when
// that is enough for ir::parallelFor to start threads (`parallelMinModules`,
// ir::kParallelMinModules), makes one thread arena for each of them ahead of time (once a process),
// its heap grown by 48 MiB of address space advised for huge pages. glibc grows a thread's heap a
// few pages at a time, so a 2 MiB block is never whole when first touched and every thread heap
// stays on 4 KiB pages, each first touch a page fault: about 4,500 in qtune's all-high probe. The
// arenas go to glibc's free list when their threads end; later threads are given them. Does nothing
// below `parallelMinModules` (a thread costs more than a small compile saves). With fewer than two
// targets the emitters run on the calling thread and only the pattern selection's threads remain,
// whose few blocks cost less in the main heap's touched pages than in a fresh huge page; above
// kThreadHeapModules a thread's work outgrows one thread heap (glibc's are 64 MiB at most, and the
// heaps it adds grow a few pages at a time again). So does a process under a limit of address space
// or data (`ulimit -v`, `ulimit -d`), where each arena's 64 MiB reservation counts. In these cases
// every thread allocates from the main heap, under its lock.
constexpr size_t kThreadHeapModules = 256 * 1024;
void prepareThreadHeaps(size_t modules, size_t targets, size_t parallelMinModules);

} // namespace qspec::support
