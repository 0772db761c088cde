// A minimal parallel loop for the few places where independent work is large enough to share
// the machine's cores (selecting patterns over a big inventory, running the emitters). Results
// must be written to per-index slots; callers merge them in index order, so output does not
// depend on scheduling.
#pragma once

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <exception>
#include <mutex>
#include <new>
#include <system_error>
#include <thread>
#include <vector>

namespace qspec::ir {

// Below this many modules a whole compile takes a few milliseconds: starting threads does not
// pay, so work over smaller inventories stays on the calling thread.
constexpr size_t kParallelMinModules = 16384;

// The number of threads to use for `n` independent items: one per core, at most one per item.
inline unsigned parallelism(size_t n) {
  unsigned cores = std::max(1u, std::thread::hardware_concurrency());
  return static_cast<unsigned>(std::min<size_t>(cores, n));
}

// Calls fn(i) for every i in [0, n), on up to `threads` threads (the calling one included).
// An exception thrown by fn (std::bad_alloc on a large input) stops the handing out of items
// and is rethrown on the calling thread after every thread has finished, so a caller's catch
// sees it as it would in a serial loop; a worker thread never terminates the process. When a
// thread cannot be started, the items go to the threads that did start.
template <typename Fn> void parallelFor(size_t n, unsigned threads, Fn &&fn) {
  if (threads <= 1 || n <= 1) {
    for (size_t i = 0; i < n; ++i)
      fn(i);
    return;
  }
  std::atomic<size_t> next{0};
  std::exception_ptr failure;
  std::mutex failureLock;
  auto worker = [&] {
    try {
      for (size_t i = next++; i < n; i = next++)
        fn(i);
    } catch (...) {
      std::lock_guard<std::mutex> hold(failureLock);
      if (!failure)
        failure = std::current_exception();
      next = n;
    }
  };
  std::vector<std::thread> pool;
  pool.reserve(threads);
  // A thread that cannot be started (a limit on threads, no memory for its stack or its state)
  // leaves the items to those that did start and to this one: an exception leaving here with
  // threads still joinable would end the process.
  try {
    for (unsigned t = 1; t < threads && t < n; ++t)
      pool.emplace_back(worker);
  } catch (const std::system_error &) {
  } catch (const std::bad_alloc &) {
  }
  worker();
  for (std::thread &t : pool)
    t.join();
  if (failure)
    std::rethrow_exception(failure);
}

} // namespace qspec::ir
