// support::configureHeap (support/Heap.h): the main heap grows once by 1 GiB of address space
// advised for transparent huge pages, its next block starts on a huge-page boundary (on a huge
// page in a fresh process), and it does not grow at all under an address-space limit;
// support::prepareThreadHeaps: a thread's heap is on huge pages from its first block, and a small
// compile makes no thread arena. Each case runs in a child process, whose heap settings then die
// with it. Under AddressSanitizer malloc is the sanitizer's (no brk heap, no glibc arenas), so the
// cases are skipped there.
#include "support/Heap.h"
#include "ir/Parallel.h"

#include "../SanitizerSupport.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <cstdlib>
#include <cstdio>
#include <cstring>
#include <malloc.h>
#include <fstream>
#include <string>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

namespace {

constexpr long kReserve = 1L << 30;

// The VmFlags lines of this process's [heap] mappings (madvise splits the heap in two), joined.
std::string heapFlags() {
  std::ifstream smaps("/proc/self/smaps");
  std::string flags;
  bool inHeap = false;
  for (std::string line; std::getline(smaps, line);) {
    std::string first = line.substr(0, line.find(' ')); // "start-end" opens a mapping
    if (first.find('-') != std::string::npos && first.find(':') == std::string::npos)
      inHeap = line.find(" [heap]") != std::string::npos;
    else if (inHeap && line.rfind("VmFlags:", 0) == 0)
      flags += line + " ";
  }
  return flags;
}

// Runs `body` in a child process; its exit code (0 = as expected) is the result.
template <typename F> int inChild(F body) {
  pid_t pid = ::fork();
  if (pid == 0)
    ::_exit(body());
  int status = 0;
  ::waitpid(pid, &status, 0);
  return WIFEXITED(status) ? WEXITSTATUS(status) : 100;
}

// The kB of transparent huge pages in this process's [heap] mappings.
long heapHugeKb() {
  std::ifstream smaps("/proc/self/smaps");
  long kb = 0;
  bool inHeap = false;
  for (std::string line; std::getline(smaps, line);) {
    std::string first = line.substr(0, line.find(' '));
    if (first.find('-') != std::string::npos && first.find(':') == std::string::npos)
      inHeap = line.find(" [heap]") != std::string::npos;
    else if (inHeap && line.rfind("AnonHugePages:", 0) == 0)
      kb += std::stol(line.substr(14));
  }
  return kb;
}

// The kB of transparent huge pages in the mapping that holds `p`.
long mappingHugeKb(const void *p) {
  const uintptr_t at = reinterpret_cast<uintptr_t>(p);
  std::ifstream smaps("/proc/self/smaps");
  bool inside = false;
  for (std::string line; std::getline(smaps, line);) {
    std::string first = line.substr(0, line.find(' '));
    size_t dash = first.find('-');
    if (dash != std::string::npos && first.find(':') == std::string::npos) {
      uintptr_t lo = std::stoull(first.substr(0, dash), nullptr, 16),
                hi = std::stoull(first.substr(dash + 1), nullptr, 16);
      inside = lo <= at && at < hi;
    } else if (inside && line.rfind("AnonHugePages:", 0) == 0) {
      return std::stol(line.substr(14));
    }
  }
  return 0;
}

// How many arenas malloc has (malloc_info lists one <heap> for each).
int arenaCount() {
  char *text = nullptr;
  size_t size = 0;
  FILE *out = ::open_memstream(&text, &size);
  ::malloc_info(0, out);
  std::fclose(out);
  int n = 0;
  for (const char *at = text; (at = std::strstr(at, "<heap nr=")); ++at)
    ++n;
  std::free(text);
  return n;
}

// A counter of /proc/vmstat (0 if absent).
long vmstat(const std::string &name) {
  std::ifstream in("/proc/vmstat");
  for (std::string key, value; in >> key >> value;)
    if (key == name)
      return std::stol(value);
  return 0;
}

// Whether the kernel backs a region advised with MADV_HUGEPAGE by huge pages when it is touched.
bool thpOnMadvise() {
  std::ifstream in("/sys/kernel/mm/transparent_hugepage/enabled");
  std::string modes;
  std::getline(in, modes);
  return modes.find("[madvise]") != std::string::npos ||
         modes.find("[always]") != std::string::npos;
}

// With QSPEC_TEST_FIRST_BLOCK set, this binary only configures its heap, as qcc and qlint do
// before any other static initializer allocates, touches its first block and exits: 0 when the
// block is on a huge page, 5 when on 4 KiB pages, 6 when the kernel had no huge page to give.
__attribute__((constructor(101))) void firstBlockInAFreshProcess() {
  if (!std::getenv("QSPEC_TEST_FIRST_BLOCK"))
    return;
  const long fallbacks = vmstat("thp_fault_fallback"); // read first: it allocates
  qspec::support::configureHeap();
  const size_t n = 1u << 20; // within the 2 MiB block the top chunk starts
  char *block = static_cast<char *>(std::malloc(n));
  if (!block)
    ::_exit(3);
  std::memset(block, 1, n);
  if (heapHugeKb() >= 2048)
    ::_exit(0);
  ::_exit(vmstat("thp_fault_fallback") != fallbacks ? 6 : 5);
}

// After prepareThreadHeaps(modules, targets), optionally under an address-space limit: a thread
// allocates and frees 1 MiB. 0 when that block came from the main heap's arena (no other arena
// exists), 9 when the thread got an arena of its own, 10 when setrlimit failed.
int threadUsesTheMainArena(size_t modules, size_t targets, bool limited) {
  if (limited) {
    rlimit lim{};
    ::getrlimit(RLIMIT_AS, &lim);
    lim.rlim_cur = 8L << 30;
    if (::setrlimit(RLIMIT_AS, &lim) != 0)
      return 10;
  }
  qspec::support::prepareThreadHeaps(modules, targets, qspec::ir::kParallelMinModules);
  std::thread([] { std::free(std::malloc(1u << 20)); }).join();
  return arenaCount() == 1 ? 0 : 9;
}

// After prepareThreadHeaps for a DeepSeek-V3-size compile, a thread allocates and touches 1 MiB:
// 0 when the block starts the thread heap's first huge page and is on a huge page; 4 when it does
// not start it; 5 when it is on 4 KiB pages; 6 when the kernel had no huge page to give (without
// THP on madvise only the start is checked); 3 when malloc failed; 7 on one core (no thread).
int threadBlockIsOnAHugePage() {
  if (std::thread::hardware_concurrency() < 2)
    return 7;
  const long fallbacks = vmstat("thp_fault_fallback");
  qspec::support::prepareThreadHeaps(qspec::ir::kParallelMinModules, 4,
                                     qspec::ir::kParallelMinModules);
  int rc = 0;
  std::thread([&] {
    const size_t n = 1u << 20;
    char *block = static_cast<char *>(std::malloc(n));
    if (!block) {
      rc = 3;
      return;
    }
    std::memset(block, 1, n);
    if ((reinterpret_cast<uintptr_t>(block) - 2 * sizeof(size_t)) % (2u << 20) != 0)
      rc = 4;
    else if (thpOnMadvise() && mappingHugeKb(block) < 2048)
      rc = vmstat("thp_fault_fallback") != fallbacks ? 6 : 5;
  }).join();
  return rc;
}

// With QSPEC_TEST_THREAD_HEAP set, this binary configures its heap as qcc and qtune do, runs one
// case and exits with its code: "large" (threadBlockIsOnAHugePage); "small", a compile below
// ir::kParallelMinModules (0 when no arena was made, else 8); "huge", above kThreadHeapModules,
// "one-target", a compile that emits one target, and "limited", under an address-space limit
// (threadUsesTheMainArena). A fresh process: gtest's other tests make threads, and glibc hands
// their arenas to later threads.
__attribute__((constructor)) void threadHeapInAFreshProcess() {
  const char *env = std::getenv("QSPEC_TEST_THREAD_HEAP");
  if (!env)
    return;
  const std::string mode = env;
  const size_t fits = qspec::ir::kParallelMinModules;
  qspec::support::configureHeap();
  if (mode == "small") {
    qspec::support::prepareThreadHeaps(fits - 1, 4, qspec::ir::kParallelMinModules);
    ::_exit(arenaCount() == 1 ? 0 : 8);
  }
  if (mode == "huge")
    ::_exit(threadUsesTheMainArena(qspec::support::kThreadHeapModules + 1, 4, false));
  if (mode == "one-target")
    ::_exit(threadUsesTheMainArena(fits, 1, false));
  if (mode == "limited")
    ::_exit(threadUsesTheMainArena(fits, 4, true));
  ::_exit(threadBlockIsOnAHugePage());
}

// Runs this test binary again with `env` set to `value`; its exit code.
int inFreshProcess(const char *env, const char *value) {
  pid_t pid = ::fork();
  if (pid == 0) {
    ::setenv(env, value, 1);
    ::execl("/proc/self/exe", "/proc/self/exe", static_cast<char *>(nullptr));
    ::_exit(100);
  }
  int status = 0;
  ::waitpid(pid, &status, 0);
  return WIFEXITED(status) ? WEXITSTATUS(status) : 101;
}

bool kernelHasThp() {
  struct stat st;
  return ::stat("/sys/kernel/mm/transparent_hugepage/enabled", &st) == 0;
}

// With QSPEC_TEST_HEAP_GROWTH set, this binary only configures its heap, checks how the heap grew
// and exits with the answer: a fresh process, since the tests before it leave glibc's heap (and
// its dynamic mmap threshold) in any state.
__attribute__((constructor(101))) void heapGrowthInAFreshProcess() {
  if (!std::getenv("QSPEC_TEST_HEAP_GROWTH"))
    return;
  const bool thp = kernelHasThp();
  char *before = static_cast<char *>(::sbrk(0));
  qspec::support::configureHeap();
  char *after = static_cast<char *>(::sbrk(0));
  // The top chunk, where new blocks are carved, starts a huge page: nothing is carved from the
  // 4 KiB pages left below the first 2 MiB boundary. (Read before anything else allocates.)
  uintptr_t top = reinterpret_cast<uintptr_t>(after) - mallinfo2().keepcost;
  if (after - before < kReserve)
    ::_exit(1);
  if (thp && heapFlags().find(" hg ") == std::string::npos)
    ::_exit(2);
  if (top % (2u << 20) != 0 || top < reinterpret_cast<uintptr_t>(before))
    ::_exit(4);
  void *p = std::malloc(32u << 20); // allocations still come from the heap
  ::_exit(p && static_cast<char *>(p) < after ? 0 : 3);
}

} // namespace

TEST(ConfigureHeap, GrowsTheMainHeapOnceAndAdvisesHugePages) {
#ifdef QSPEC_ASAN
  GTEST_SKIP() << "AddressSanitizer's allocator does not use the brk heap";
#endif
  EXPECT_EQ(inFreshProcess("QSPEC_TEST_HEAP_GROWTH", "1"), 0)
      << "1: the heap did not grow by 1 GiB; 2: not advised for huge pages; 3: malloc; "
         "4: the top chunk is not on a huge-page boundary";
}

// The first block carved after configureHeap in a fresh process is on a huge page: nothing
// touched its 2 MiB before the advice (the reservation writes a chunk header just past its own
// probe, so that block is skipped too).
TEST(ConfigureHeap, FirstBlockOfAFreshProcessIsOnAHugePage) {
#ifdef QSPEC_ASAN
  GTEST_SKIP() << "AddressSanitizer's allocator does not use the brk heap";
#endif
  if (!thpOnMadvise())
    GTEST_SKIP() << "no transparent huge pages on madvise";
  int rc = inFreshProcess("QSPEC_TEST_FIRST_BLOCK", "1");
  if (rc == 6)
    GTEST_SKIP() << "the kernel had no huge page to give (thp_fault_fallback grew)";
  EXPECT_EQ(rc, 0) << "5: the first block is on 4 KiB pages; 3: malloc; 100, 101: the process";
}

TEST(ConfigureHeap, ReservesNothingUnderAnAddressSpaceLimit) {
#ifdef QSPEC_ASAN
  GTEST_SKIP() << "AddressSanitizer's allocator does not use the brk heap";
#endif
  int rc = inChild([] {
    rlimit lim{};
    ::getrlimit(RLIMIT_AS, &lim);
    lim.rlim_cur = 8L << 30;
    if (::setrlimit(RLIMIT_AS, &lim) != 0)
      return 4;
    char *before = static_cast<char *>(::sbrk(0));
    qspec::support::configureHeap();
    char *after = static_cast<char *>(::sbrk(0));
    if (after - before >= kReserve)
      return 1;
    void *p = std::malloc(16u << 20);
    return p ? 0 : 3;
  });
  EXPECT_EQ(rc, 0) << "1: reserved under the limit; 3: malloc failed; 4: setrlimit failed";
}

// A compile big enough for threads: a thread's first block starts a huge page of its own arena's
// heap, and is on a huge page once touched.
TEST(PrepareThreadHeaps, AThreadsFirstBlockIsOnAHugePage) {
#ifdef QSPEC_ASAN
  GTEST_SKIP() << "AddressSanitizer's allocator has no glibc arenas";
#endif
  int rc = inFreshProcess("QSPEC_TEST_THREAD_HEAP", "large");
  if (rc == 6)
    GTEST_SKIP() << "the kernel had no huge page to give (thp_fault_fallback grew)";
  if (rc == 7)
    GTEST_SKIP() << "one core: compiles start no thread";
  EXPECT_EQ(rc, 0) << "4: the block does not start a huge page; 5: on 4 KiB pages; 3: malloc; "
                      "100, 101: the process";
}

// Below ir::kParallelMinModules the work stays on one thread: no arena is made for it.
TEST(PrepareThreadHeaps, MakesNoArenaForASmallCompile) {
#ifdef QSPEC_ASAN
  GTEST_SKIP() << "AddressSanitizer's allocator has no glibc arenas";
#endif
  EXPECT_EQ(inFreshProcess("QSPEC_TEST_THREAD_HEAP", "small"), 0) << "8: an arena was made";
}

// Above kThreadHeapModules a thread allocates from the main heap: glibc makes no arena for it.
TEST(PrepareThreadHeaps, AHugeCompileKeepsOneArena) {
#ifdef QSPEC_ASAN
  GTEST_SKIP() << "AddressSanitizer's allocator has no glibc arenas";
#endif
  EXPECT_EQ(inFreshProcess("QSPEC_TEST_THREAD_HEAP", "huge"), 0)
      << "9: a thread got an arena of its own";
}

// One target: its emitter runs on the calling thread, and the selection's threads allocate from
// the main heap.
TEST(PrepareThreadHeaps, OneTargetKeepsOneArena) {
#ifdef QSPEC_ASAN
  GTEST_SKIP() << "AddressSanitizer's allocator has no glibc arenas";
#endif
  EXPECT_EQ(inFreshProcess("QSPEC_TEST_THREAD_HEAP", "one-target"), 0)
      << "9: a thread got an arena of its own";
}

// Under an address-space limit each arena's 64 MiB reservation would count: no arena is made.
TEST(PrepareThreadHeaps, UnderAnAddressSpaceLimitKeepsOneArena) {
#ifdef QSPEC_ASAN
  GTEST_SKIP() << "AddressSanitizer's allocator has no glibc arenas";
#endif
  EXPECT_EQ(inFreshProcess("QSPEC_TEST_THREAD_HEAP", "limited"), 0)
      << "9: a thread got an arena of its own; 10: setrlimit failed";
}
