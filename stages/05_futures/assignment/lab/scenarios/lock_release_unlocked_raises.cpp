// release() of a lock that is not locked raises RuntimeError, also between a release() and the
// turn in which the woken waiter claims the lock; the lock stays usable.
#include "looplab/lab/lock.hpp"
#include "scenarios/futures/futures_trace.hpp"

using looplab::Future;
using looplab::lab::Lock;
using looplab::testing::py_bool;
using looplab::testing::run_one_turn;
using looplab::testing::trace;

namespace {

void try_release(Lock& lock, const std::string& what) {
  try {
    lock.release();
    trace(what + ": released");
  } catch (const looplab::RuntimeError& error) {
    trace(what + ": RuntimeError: " + error.what());
  }
}

}  // namespace

LOOPLAB_SCENARIO(lock_release_unlocked_raises) {
  looplab::VirtualClock clock;
  looplab::EventLoop loop(clock);
  Lock lock(loop);
  try_release(lock, "release() of a new lock");
  (void)lock.acquire();
  lock.acquire().add_done_callback([&lock](Future<bool>&) {
    trace(std::string("A acquired; locked() -> ") + py_bool(lock.locked()));
    lock.release();
  });
  try_release(lock, "first release()");
  try_release(lock, "second release(), A woken but not run");
  run_one_turn(loop);
  try_release(lock, "release() after A released");
  trace(std::string("locked() -> ") + py_bool(lock.locked()));
  loop.close();
}

// expect: release() of a new lock: RuntimeError: Lock is not acquired.
// expect: first release(): released
// expect: second release(), A woken but not run: RuntimeError: Lock is not acquired.
// expect: A acquired; locked() -> True
// expect: release() after A released: RuntimeError: Lock is not acquired.
// expect: locked() -> False
