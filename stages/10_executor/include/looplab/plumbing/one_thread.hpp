// one_thread.hpp: no atomic instruction while the process has one thread.
//
// Tasks share two things with every thread of the process, as asyncio's do:
// the counter that names them ("Task-1", "Task-2"...) and the registry of
// pending tasks. So the counter is atomic and the registry has a lock: a
// lazy task pays five atomic instructions in its life, and each one waits
// until every store before it has reached the cache (a new task has just
// written its whole block). Without them the lazy async_tree benchmarks run
// about 5% faster.
//
// While the process has a single thread, nothing can race with anything.
// glibc says when that is: `__libc_single_threaded` is true until the first
// pthread_create(), and never true again. libstdc++'s shared_ptr reads it to
// count references without atomic instructions; the tasks do the same. A
// thread made later sees everything done before it was made, so what was
// done without the guard is safe to read under it afterwards.
#pragma once

#include <atomic>
#include <cstdint>
#include <mutex>

#if __has_include(<sys/single_threaded.h>)
#include <sys/single_threaded.h>
#define LOOPLAB_KNOWS_SINGLE_THREADED 1
#endif

namespace looplab {

/// True while the process has one thread (false where the C library cannot tell).
inline bool only_one_thread() noexcept {
#ifdef LOOPLAB_KNOWS_SINGLE_THREADED
  return __libc_single_threaded != 0;
#else
  return false;
#endif
}

/// ++counter: a plain load and store while the process has one thread.
inline std::uint64_t increment(std::atomic<std::uint64_t>& counter) noexcept {
  if (only_one_thread()) {
    std::uint64_t next = counter.load(std::memory_order_relaxed) + 1;
    counter.store(next, std::memory_order_relaxed);
    return next;
  }
  return counter.fetch_add(1, std::memory_order_relaxed) + 1;
}

/// std::lock_guard, except that it takes no lock while the process has one
/// thread. (The critical section must not start a thread.)
class LockUnlessAlone {
 public:
  explicit LockUnlessAlone(std::mutex& mutex) : mutex_(only_one_thread() ? nullptr : &mutex) {
    if (mutex_ != nullptr) mutex_->lock();
  }
  LockUnlessAlone(const LockUnlessAlone&) = delete;
  LockUnlessAlone& operator=(const LockUnlessAlone&) = delete;
  ~LockUnlessAlone() {
    if (mutex_ != nullptr) mutex_->unlock();
  }

 private:
  std::mutex* mutex_;  // null: nothing was locked
};

}  // namespace looplab
