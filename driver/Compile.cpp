// File naming and the target stage shared by qcc, qtune and qlint; see Compile.h.
#include "driver/Compile.h"

#include "ir/TargetInfo.h"

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <malloc.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <unistd.h>

namespace qspec::driver {

std::string outputFileName(const emit::EmitResult &r, const std::string &specStem) {
  if (!r.out.fileName.empty())
    return r.out.fileName;
  const ir::TargetInfo *info = ir::findTarget(r.target->kind);
  return specStem + (info ? info->fileExtension : std::string());
}

namespace {

// Makes the main heap's next allocation start on the first 2 MiB block at or past `from` (the
// first address where a huge page may back the heap). The heap's top chunk (what malloc carves
// new blocks from) starts where the start-up's allocations ended, and before `from` the kernel can
// only give 4 KiB pages (a huge page needs a whole aligned block inside the advised range with
// none of it touched): about 450 page faults in a DeepSeek-V3 compile, at about 12 us each on a
// virtual machine. One block that is never freed covers that stretch; only its first bytes are
// touched.
void skipToHugePage(uintptr_t from, size_t hugePage) {
  constexpr size_t kMinChunk = 32; // glibc's smallest chunk on 64-bit
  const uintptr_t top = reinterpret_cast<uintptr_t>(::sbrk(0)) - mallinfo2().keepcost;
  size_t gap = ((std::max(top, from) + hugePage - 1) & ~(hugePage - 1)) - top;
  if (gap == 0)
    return;
  if (gap < kMinChunk)
    gap += hugePage;
  // A chunk of `gap` bytes (a multiple of 16, like `top`) holds a request of gap - 8 bytes.
  [[maybe_unused]] static void *volatile filler; // reachable, so never reported as a leak
  filler = std::malloc(gap - sizeof(size_t));
}

// Grows the main heap once by `reserve` bytes of address space (no memory until touched) and
// advises the kernel to back it with transparent huge pages, as glibc's own
// `glibc.malloc.hugetlb=1` tunable does for each heap it grows (a tunable is read only at start).
void reserveHugePageHeap(size_t reserve) {
  constexpr size_t kHugePage = 2u << 20;
  // Under a limit of address space or data (`ulimit -v`, `ulimit -d`) the reservation would count
  // against it: the heap stays as glibc grows it.
  for (int resource : {RLIMIT_AS, RLIMIT_DATA}) {
    rlimit lim{};
    if (::getrlimit(resource, &lim) != 0 || lim.rlim_cur != RLIM_INFINITY)
      return;
  }
  char *before = static_cast<char *>(::sbrk(0));
  mallopt(M_TOP_PAD, static_cast<int>(reserve));
  // Larger than the top chunk, so the heap grows by `reserve`; volatile, so that the compiler
  // does not drop the unused malloc/free pair.
  void *volatile probe = std::malloc(kHugePage);
  char *after = static_cast<char *>(::sbrk(0));
  mallopt(M_TOP_PAD, 128 << 10);        // glibc's default again for any later growth
  // Carving the probe wrote the next chunk's header just past it, before the advice: that page
  // is mapped on its own, and its 2 MiB block can no longer become a huge page.
  const uintptr_t touched = reinterpret_cast<uintptr_t>(probe) + kHugePage + 64;
  std::free(probe);
  // Only a heap that grew in place by brk (glibc falls back to mmap when it cannot).
  if (after - before >= static_cast<ptrdiff_t>(reserve)) {
    uintptr_t page = static_cast<uintptr_t>(::sysconf(_SC_PAGESIZE));
    char *start = reinterpret_cast<char *>((reinterpret_cast<uintptr_t>(before) + page - 1) & ~(page - 1));
    ::madvise(start, static_cast<size_t>(after - start), MADV_HUGEPAGE);
    skipToHugePage(std::max(reinterpret_cast<uintptr_t>(start), touched), kHugePage);
  }
}

} // namespace

void configureHeap(bool oneArena) {
  if (oneArena)
    mallopt(M_ARENA_MAX, 1);
  mallopt(M_MMAP_THRESHOLD, 64 << 20);
  // Freed memory stays for the next use (qtune's next probe) instead of going back to the kernel.
  mallopt(M_TRIM_THRESHOLD, 2047 << 20);
  reserveHugePageHeap(size_t{1} << 30);
}

bool safeFileName(const std::string &name) {
  return !name.empty() && name.find('/') == std::string::npos && name.find('\\') == std::string::npos &&
         name != "." && name != ".." && name.find('\0') == std::string::npos;
}

std::vector<TargetFile> buildTargets(const ir::Spec &spec, const std::vector<const ir::Target *> &targets,
                                     DiagnosticEngine &diags, const std::string &specStem, const std::string &folder) {
  std::vector<TargetFile> files;
  for (emit::EmitResult &r : emit::emitTargets(spec, targets, diags)) {
    if (!r.ok)
      continue;
    TargetFile f;
    f.target = r.target;
    if (!folder.empty()) {
      f.name = outputFileName(r, specStem);
      if (!safeFileName(f.name)) {
        diags.report(DiagID::err_output_escapes_dir, r.target->range, {f.name, folder});
        continue;
      }
    }
    f.bytes = std::move(r.out.buffer());
    files.push_back(std::move(f));
  }
  return files;
}

void checkAllTargets(const ir::Spec &spec, DiagnosticEngine &diags, const std::string &specStem) {
  std::vector<const ir::Target *> targets;
  for (const ir::Target &t : spec.targets)
    targets.push_back(&t);
  buildTargets(spec, targets, diags, specStem, "DIR");
}

} // namespace qspec::driver
