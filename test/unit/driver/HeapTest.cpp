// driver::configureHeap (driver/Compile.h): the main heap grows once by 1 GiB of address space
// advised for transparent huge pages, its next block starts on a huge-page boundary, and it does
// not grow at all under an address-space limit. Each case runs
// in a child process, whose heap settings then die with it. Under AddressSanitizer malloc is the
// sanitizer's and never grows the brk heap, so the cases are skipped there.
#include "driver/Compile.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <cstdlib>
#include <malloc.h>
#include <fstream>
#include <string>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#if defined(__SANITIZE_ADDRESS__)
#define QSPEC_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define QSPEC_ASAN 1
#endif
#endif

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

bool kernelHasThp() {
  struct stat st;
  return ::stat("/sys/kernel/mm/transparent_hugepage/enabled", &st) == 0;
}

} // namespace

TEST(ConfigureHeap, GrowsTheMainHeapOnceAndAdvisesHugePages) {
#ifdef QSPEC_ASAN
  GTEST_SKIP() << "AddressSanitizer's allocator does not use the brk heap";
#endif
  bool thp = kernelHasThp();
  int rc = inChild([thp] {
    char *before = static_cast<char *>(::sbrk(0));
    qspec::driver::configureHeap(false);
    char *after = static_cast<char *>(::sbrk(0));
    // The top chunk, where new blocks are carved, starts a huge page: nothing is carved from the
    // 4 KiB pages left below the first 2 MiB boundary. (Read before anything else allocates.)
    uintptr_t top = reinterpret_cast<uintptr_t>(after) - mallinfo2().keepcost;
    if (after - before < kReserve)
      return 1;
    if (thp && heapFlags().find(" hg ") == std::string::npos)
      return 2;
    if (top % (2u << 20) != 0 || top < reinterpret_cast<uintptr_t>(before))
      return 4;
    void *p = std::malloc(32u << 20); // allocations still come from the heap
    return p && static_cast<char *>(p) < after ? 0 : 3;
  });
  EXPECT_EQ(rc, 0) << "1: the heap did not grow by 1 GiB; 2: not advised for huge pages; 3: malloc; "
                      "4: the top chunk is not on a huge-page boundary";
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
    qspec::driver::configureHeap(true);
    char *after = static_cast<char *>(::sbrk(0));
    if (after - before >= kReserve)
      return 1;
    void *p = std::malloc(16u << 20);
    return p ? 0 : 3;
  });
  EXPECT_EQ(rc, 0) << "1: reserved under the limit; 3: malloc failed; 4: setrlimit failed";
}
