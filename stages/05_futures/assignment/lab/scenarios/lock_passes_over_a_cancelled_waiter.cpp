// A cancelled waiter is skipped: when its cancellation is delivered and the lock is free, it
// wakes the next waiter; while the lock is held, it wakes nobody. Cancelling the future
// acquire() returned is what cancelling the twin's waiting task does.
#include "looplab/lab/lock.hpp"
#include "scenarios/futures/futures_trace.hpp"

using looplab::Future;
using looplab::lab::Lock;
using looplab::testing::py_bool;
using looplab::testing::run_one_turn;
using looplab::testing::trace;

namespace {

// What the twin's waiter() does once its acquire() ends: `hold` keeps the lock.
Future<bool> waiter(Lock& lock, const std::string& name, bool hold) {
  Future<bool> acquired = lock.acquire();
  acquired.add_done_callback([&lock, name, hold](Future<bool>& done) {
    if (done.cancelled()) {
      trace(name + " cancelled; locked() -> " + py_bool(lock.locked()));
      return;
    }
    trace(name + " acquired");
    if (!hold) lock.release();
  });
  return acquired;
}

void run_turns(looplab::EventLoop& loop, int count) {
  for (int turn = 0; turn < count; ++turn) run_one_turn(loop);
}

}  // namespace

LOOPLAB_SCENARIO(lock_passes_over_a_cancelled_waiter) {
  looplab::VirtualClock clock;
  looplab::EventLoop loop(clock);
  Lock lock(loop);
  (void)lock.acquire();
  Future<bool> a = waiter(lock, "A", false);
  Future<bool> b = waiter(lock, "B", true);
  trace("main cancels A, then releases");
  a.cancel();
  lock.release();
  run_turns(loop, 3);
  // B holds the lock now. A waiter cancelled while it is held wakes nobody.
  Future<bool> c = waiter(lock, "C", false);
  Future<bool> d = waiter(lock, "D", false);
  trace("main cancels C; B still holds the lock");
  c.cancel();
  run_turns(loop, 3);
  trace(std::string("D waits on; locked() -> ") + py_bool(lock.locked()));
  lock.release();  // for B
  run_turns(loop, 2);
  trace(std::string("all done; locked() -> ") + py_bool(lock.locked()));
  loop.close();
}

// expect: main cancels A, then releases
// expect: A cancelled; locked() -> False
// expect: B acquired
// expect: main cancels C; B still holds the lock
// expect: C cancelled; locked() -> True
// expect: D waits on; locked() -> True
// expect: D acquired
// expect: all done; locked() -> False
