// ir::parallelFor: every item once, an exception from a worker thread reaches the caller, and a
// thread that cannot be started leaves its items to the others.
#include "ir/Parallel.h"

#include "../SanitizerSupport.h"

#include <gtest/gtest.h>

#include <atomic>
#include <cstdio>
#include <new>
#include <system_error>
#include <thread>
#include <vector>

#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

using namespace qspec;

TEST(ParallelFor, VisitsEveryItemOnce) {
  std::vector<std::atomic<int>> seen(1000);
  ir::parallelFor(seen.size(), 2, [&](size_t i) { ++seen[i]; });
  for (const auto &s : seen)
    EXPECT_EQ(s.load(), 1);
}

TEST(ParallelFor, WorkerExceptionIsRethrownOnTheCaller) {
  // Every item throws, so whichever thread takes an item first throws from there; without the
  // hand-over a throw on a worker thread would call std::terminate and kill the test binary.
  std::atomic<int> calls{0};
  EXPECT_THROW(ir::parallelFor(64, 4,
                               [&](size_t) {
                                 ++calls;
                                 throw std::bad_alloc();
                               }),
               std::bad_alloc);
  EXPECT_LE(calls.load(), 4); // no item is handed out after the first failure of each thread
}

#ifndef QSPEC_ASAN // the sanitizer maps its shadow memory: no address-space limit fits under it
namespace {

// How many threads can run at once, up to `most` (they all wait until the count is known).
unsigned startableThreads(unsigned most) {
  std::atomic<bool> go{false};
  std::vector<std::thread> held;
  held.reserve(most);
  try {
    while (held.size() < most)
      held.emplace_back([&] {
        while (!go)
          std::this_thread::yield();
      });
  } catch (const std::system_error &) {
  }
  go = true;
  for (std::thread &t : held)
    t.join();
  return static_cast<unsigned>(held.size());
}

} // namespace

// Under an address-space limit a new thread stack cannot be mapped: only the threads whose
// stacks glibc has cached from earlier threads start. parallelFor asks for two more than that:
// the items go to the threads that started and the caller, where the std::system_error from the
// next thread used to end the process with the others still joinable. In a child process (the
// limit dies with it).
TEST(ParallelFor, AThreadThatCannotStartLeavesItsItemsToTheOthers) {
  pid_t pid = ::fork();
  if (pid == 0) {
    std::vector<std::atomic<int>> seen(1000);
    long pages = 0;
    if (std::FILE *f = std::fopen("/proc/self/statm", "r")) {
      if (std::fscanf(f, "%ld", &pages) != 1)
        pages = 0;
      std::fclose(f);
    }
    rlimit lim{};
    ::getrlimit(RLIMIT_AS, &lim);
    lim.rlim_cur =
        static_cast<rlim_t>(pages) * static_cast<rlim_t>(::sysconf(_SC_PAGESIZE)) + (4 << 20);
    if (pages == 0 || ::setrlimit(RLIMIT_AS, &lim) != 0)
      ::_exit(5);
    const unsigned started = startableThreads(64);
    if (started == 64)
      ::_exit(7); // threads still start: nothing to check
    ir::parallelFor(seen.size(), started + 2, [&](size_t i) { ++seen[i]; });
    for (const auto &s : seen)
      if (s.load() != 1)
        ::_exit(6);
    ::_exit(0);
  }
  int status = 0;
  ::waitpid(pid, &status, 0);
  ASSERT_TRUE(WIFEXITED(status)) << "the child died of signal " << WTERMSIG(status);
  if (WEXITSTATUS(status) == 7)
    GTEST_SKIP() << "64 threads still start under the limit";
  EXPECT_EQ(WEXITSTATUS(status), 0) << "6: an item missed or done twice; 5: /proc or setrlimit";
}
#endif
