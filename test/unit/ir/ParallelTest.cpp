// ir::parallelFor: every item once, and an exception from a worker thread reaches the caller.
#include "ir/Parallel.h"

#include <gtest/gtest.h>

#include <atomic>
#include <new>
#include <vector>

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
