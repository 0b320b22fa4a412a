// Fairness: after release() the lock is unlocked, but the woken waiter has not claimed it yet;
// a newcomer's acquire() waits behind it. Only a queue of cancelled waiters may be jumped.
// Where the twin's main task continues at once after `await lock.acquire()` took the fast
// path, this side prints at once too, not in a done callback, which would run a turn later.
#include "looplab/lab/lock.hpp"
#include "scenarios/futures/futures_trace.hpp"

using looplab::Future;
using looplab::lab::Lock;
using looplab::testing::py_bool;
using looplab::testing::run_one_turn;
using looplab::testing::trace;

namespace {

Future<bool> waiter(Lock& lock, const std::string& name) {
  Future<bool> acquired = lock.acquire();
  acquired.add_done_callback([&lock, name](Future<bool>& done) {
    if (done.cancelled()) {
      trace(name + " cancelled; locked() -> " + py_bool(lock.locked()));
      return;
    }
    trace(name + " acquired");
    lock.release();
    trace(name + " released");
  });
  return acquired;
}

void run_turns(looplab::EventLoop& loop, int count) {
  for (int turn = 0; turn < count; ++turn) run_one_turn(loop);
}

}  // namespace

LOOPLAB_SCENARIO(lock_woken_waiter_keeps_its_place) {
  looplab::VirtualClock clock;
  looplab::EventLoop loop(clock);
  Lock lock(loop);
  (void)lock.acquire();
  Future<bool> a = waiter(lock, "A");
  lock.release();
  trace(std::string("main released; locked() -> ") + py_bool(lock.locked()));
  trace("main acquires again");
  lock.acquire().add_done_callback([&lock](Future<bool>&) {
    trace(std::string("main acquired again; locked() -> ") + py_bool(lock.locked()));
  });
  run_turns(loop, 3);
  Future<bool> b = waiter(lock, "B");
  trace("main cancels B, releases, acquires");
  b.cancel();
  lock.release();
  Future<bool> at_once = lock.acquire();  // B is queued but cancelled: the fast path
  if (at_once.done()) {
    trace(std::string("main acquired at once; locked() -> ") + py_bool(lock.locked()));
  }
  run_turns(loop, 2);
  lock.release();
  trace(std::string("all done; locked() -> ") + py_bool(lock.locked()));
  loop.close();
}

// expect: main released; locked() -> False
// expect: main acquires again
// expect: A acquired
// expect: A released
// expect: main acquired again; locked() -> True
// expect: main cancels B, releases, acquires
// expect: main acquired at once; locked() -> True
// expect: B cancelled; locked() -> True
// expect: all done; locked() -> False
