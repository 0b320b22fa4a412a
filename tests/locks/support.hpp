// Helpers shared by the Event and Lock tests (the loop they drive is
// support/test_loop.hpp's TestLoop; coroutines take everything by value or
// by pointer, chapter 6's pitfalls P3 and P4).
#pragma once

#include <string>

#include "looplab/coro.hpp"
#include "looplab/locks.hpp"
#include "looplab/task.hpp"
#include "tasks/support.hpp"

namespace looplab::testing {

/// A task's body: takes the lock, logs "<name> acquired", keeps it until
/// `hold` is done (a Future<void> completed by the test), then releases it.
inline Coro<void> hold_lock(Lock lock, std::string name, Log* log, Future<void> hold) {
  co_await lock.acquire();
  log->push_back(name + " acquired");
  co_await hold;
  lock.release();
}

/// A task's body: waits for the lock and logs how the wait ended, "<name>
/// acquired" (then releases it at once) or "<name> cancelled".
inline Coro<void> take_and_release(Lock lock, std::string name, Log* log) {
  try {
    co_await lock.acquire();
  } catch (const CancelledError&) {
    log->push_back(name + " cancelled");
    throw;
  }
  log->push_back(name + " acquired");
  lock.release();
}

}  // namespace looplab::testing
