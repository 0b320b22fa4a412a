// release() wakes the first waiter only; the waiters get the lock in the order they asked.
// The twin's tasks `await lock.acquire()`; here each waiter is a done callback on the future
// acquire() returns.
#include "looplab/lab/lock.hpp"
#include "scenarios/futures/futures_trace.hpp"

using looplab::Future;
using looplab::lab::Lock;
using looplab::testing::py_bool;
using looplab::testing::run_one_turn;
using looplab::testing::trace;

LOOPLAB_SCENARIO(lock_serves_waiters_in_fifo_order) {
  looplab::VirtualClock clock;
  looplab::EventLoop loop(clock);
  Lock lock(loop);
  (void)lock.acquire();
  trace(std::string("main acquired; locked() -> ") + py_bool(lock.locked()));
  for (std::string name : {"A", "B", "C"}) {
    trace(name + " waits");
    lock.acquire().add_done_callback([&lock, name](Future<bool>&) {
      trace(name + " acquired; locked() -> " + py_bool(lock.locked()));
      lock.release();
      trace(name + " released");
    });
  }
  trace("main releases");
  lock.release();
  for (int turn = 0; turn < 4; ++turn) run_one_turn(loop);
  trace(std::string("all done; locked() -> ") + py_bool(lock.locked()));
  loop.close();
}

// expect: main acquired; locked() -> True
// expect: A waits
// expect: B waits
// expect: C waits
// expect: main releases
// expect: A acquired; locked() -> True
// expect: A released
// expect: B acquired; locked() -> True
// expect: B released
// expect: C acquired; locked() -> True
// expect: C released
// expect: all done; locked() -> False
