// The heap of a process that compiles; see Heap.h.
#include "support/Heap.h"

#include <algorithm>
#include <condition_variable>
#include <cstdint>
#include <cstdlib>
#include <malloc.h>
#include <mutex>
#include <system_error>
#include <thread>
#include <sys/mman.h>
#include <sys/resource.h>
#include <unistd.h>
#include <vector>

namespace qspec::support {

namespace {

constexpr uintptr_t kHugePage = 2u << 20;

// The first huge-page boundary at or past `at`.
uintptr_t hugePageAtOrAfter(uintptr_t at) { return (at + kHugePage - 1) & ~(kHugePage - 1); }

// A block that is never freed, carved as one glibc chunk of `chunkBytes` (a multiple of 16, at
// least 32) from where the arena carves next: a chunk of n bytes holds a request of n - 8.
void *carveChunk(size_t chunkBytes) { return std::malloc(chunkBytes - sizeof(size_t)); }

// Makes the main heap's next allocation start on the first 2 MiB block at or past `from` (the
// first address where a huge page may back the heap). The heap's top chunk (what malloc carves
// new blocks from) starts where the start-up's allocations ended, and before `from` the kernel can
// only give 4 KiB pages (a huge page needs a whole aligned block inside the advised range with
// none of it touched): about 450 page faults in a DeepSeek-V3 compile, at about 12 us each on a
// virtual machine. One block that is never freed covers that stretch; only its first bytes are
// touched.
void skipToHugePage(uintptr_t from) {
  constexpr size_t kMinChunk = 32; // glibc's smallest chunk on 64-bit
  const uintptr_t top = reinterpret_cast<uintptr_t>(::sbrk(0)) - mallinfo2().keepcost;
  size_t gap = hugePageAtOrAfter(std::max(top, from)) - top;
  if (gap == 0)
    return;
  if (gap < kMinChunk)
    gap += kHugePage;
  [[maybe_unused]] static void *volatile filler; // reachable, so never reported as a leak
  filler = carveChunk(gap);
}

// Whether address space is unlimited: under a limit of address space or data (`ulimit -v`,
// `ulimit -d`) a reservation counts against it, used or not.
bool addressSpaceUnlimited() {
  for (int resource : {RLIMIT_AS, RLIMIT_DATA}) {
    rlimit lim{};
    if (::getrlimit(resource, &lim) != 0 || lim.rlim_cur != RLIM_INFINITY)
      return false;
  }
  return true;
}

// Grows the main heap once by `reserve` bytes of address space (no memory until touched) and
// advises the kernel to back it with transparent huge pages, as glibc's own
// `glibc.malloc.hugetlb=1` tunable does for each heap it grows (a tunable is read only at start).
void reserveHugePageHeap(size_t reserve) {
  if (!addressSpaceUnlimited())
    return; // the heap stays as glibc grows it
  char *before = static_cast<char *>(::sbrk(0));
  mallopt(M_TOP_PAD, static_cast<int>(reserve));
  // Larger than the top chunk, so the heap grows by `reserve`; volatile, so that the compiler
  // does not drop the unused malloc/free pair.
  void *volatile probe = std::malloc(kHugePage);
  char *after = static_cast<char *>(::sbrk(0));
  mallopt(M_TOP_PAD, 128 << 10); // glibc's default again for any later growth
  // Carving the probe wrote the next chunk's header just past it, before the advice: that page
  // is mapped on its own, and its 2 MiB block can no longer become a huge page.
  const uintptr_t touched = reinterpret_cast<uintptr_t>(probe) + kHugePage + 64;
  std::free(probe);
  // Only a heap that grew in place by brk (glibc falls back to mmap when it cannot).
  if (after - before >= static_cast<ptrdiff_t>(reserve)) {
    uintptr_t page = static_cast<uintptr_t>(::sysconf(_SC_PAGESIZE));
    char *start =
        reinterpret_cast<char *>((reinterpret_cast<uintptr_t>(before) + page - 1) & ~(page - 1));
    ::madvise(start, static_cast<size_t>(after - start), MADV_HUGEPAGE);
    skipToHugePage(std::max(reinterpret_cast<uintptr_t>(start), touched));
  }
}

// Advises the whole 2 MiB blocks inside [block, block + bytes) for huge pages.
void adviseHugePages(void *block, size_t bytes) {
  const uintptr_t at = reinterpret_cast<uintptr_t>(block);
  const uintptr_t from = hugePageAtOrAfter(at), to = (at + bytes) & ~(kHugePage - 1);
  if (to > from)
    ::madvise(reinterpret_cast<void *>(from), to - from, MADV_HUGEPAGE);
}

// After the block at `freed` went back to its arena's top chunk: a block that is never freed from
// the chunk it began (16 bytes before it) up to the first huge page, so that the arena's next
// blocks start there (its first 2 MiB hold the arena's header, on 4 KiB pages). Null when there is
// no room for a chunk.
void *fillBelowFirstHugePage(uintptr_t freed) {
  const uintptr_t chunk = freed - 2 * sizeof(size_t);
  const size_t gap = hugePageAtOrAfter(chunk) - chunk;
  return gap >= 32 ? carveChunk(gap) : nullptr;
}

// Makes `arenas` thread arenas, each with a heap grown by `bytes` of address space advised for huge
// pages, its first huge page where the arena's next block starts.
void growThreadArenas(unsigned arenas, size_t bytes) {
  // The fillers: reachable, so never reported as a leak; reserved here, on this thread's arena,
  // so that keeping one allocates nothing after it.
  static std::vector<void *> &fillers = *new std::vector<void *>();
  fillers.reserve(fillers.size() + arenas);
  std::mutex lock;
  std::condition_variable allHold;
  unsigned holding = 0;
  auto grow = [&] {
    // A thread's first malloc binds it to an arena no other live thread uses; the block grows
    // that arena's heap (an address range only: untouched, it takes no memory).
    void *block = std::malloc(bytes);
    if (block)
      adviseHugePages(block, bytes);
    // Every thread holds its block until all have one: otherwise a thread that started late could
    // be given the arena of one that has already finished.
    std::unique_lock<std::mutex> hold(lock);
    if (++holding == arenas)
      allHold.notify_all();
    allHold.wait(hold, [&] { return holding == arenas; });
    if (!block)
      return;
    hold.unlock();
    const uintptr_t at = reinterpret_cast<uintptr_t>(block);
    std::free(block); // back into its arena's top chunk, which M_TRIM_THRESHOLD keeps mapped
    void *filler = fillBelowFirstHugePage(at);
    hold.lock();
    fillers.push_back(filler); // reserved: allocates nothing
  };
  std::vector<std::thread> threads;
  try {
    for (unsigned t = 0; t < arenas; ++t)
      threads.emplace_back(grow);
  } catch (const std::system_error &) {
    // No thread to be had (a limit on threads or memory): those started wait only for each other.
    std::lock_guard<std::mutex> hold(lock);
    arenas = static_cast<unsigned>(threads.size());
    allHold.notify_all();
  }
  for (std::thread &t : threads)
    t.join();
}

} // namespace

void configureHeap() {
  mallopt(M_MMAP_THRESHOLD, 64 << 20);
  // Freed memory stays for the next use (qtune's next probe) instead of going back to the kernel.
  mallopt(M_TRIM_THRESHOLD, 2047 << 20);
  reserveHugePageHeap(size_t{1} << 30);
}

void prepareThreadHeaps(size_t modules, size_t targets, size_t parallelMinModules) {
  if (modules < parallelMinModules)
    return; // the work stays on the calling thread
  static std::once_flag once;
  std::call_once(once, [modules, targets] {
    // Each thread arena reserves 64 MiB of address space (glibc maps twice that to align it).
    if (modules > kThreadHeapModules || targets < 2 || !addressSpaceUnlimited()) {
      mallopt(M_ARENA_MAX, 1); // before any thread has an arena: they all use the main heap
      return;
    }
    // ir::parallelFor runs one thread per core, the calling one included; 48 MiB fits a thread
    // heap (glibc's limit is 64 MiB).
    const unsigned others = std::max(1u, std::thread::hardware_concurrency()) - 1;
    if (others > 0)
      growThreadArenas(others, size_t{48} << 20);
  });
}

} // namespace qspec::support
