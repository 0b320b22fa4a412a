// async with lock: the lock is released however the block ends; an exception leaving it
// lets the next waiter in. Here the block is the scope of a LockGuard.
#include "looplab/locks.hpp"
#include "scenarios/tasks/task_trace.hpp"

using looplab::testing::py;
using looplab::testing::run_turns;
using looplab::testing::say;

namespace {

looplab::Coro<void> block(std::string name, looplab::Lock lock, bool fail) {
  try {
    {
      looplab::LockGuard held = co_await lock.guard();
      say(name + " inside; locked() -> " + py(lock.locked()));
      co_await looplab::sleep(std::chrono::seconds(0));
      if (fail) throw looplab::ValueError(name + " failed");
    }
    say(name + " left the block; locked() -> " + py(lock.locked()));
  } catch (const looplab::ValueError& error) {
    say(name + " raised ValueError: " + error.what() + "; locked() -> " + py(lock.locked()));
  }
}

}  // namespace

LOOPLAB_SCENARIO(lock_guard_releases_on_exception) {
  looplab::VirtualClock clock;
  looplab::EventLoop loop(clock);
  looplab::Lock lock;
  (void)looplab::create_task(loop, block("a", lock, true));
  (void)looplab::create_task(loop, block("b", lock, false));
  run_turns(loop, 4);
  loop.close();
}

// expect: turn 1: a inside; locked() -> True
// expect: turn 2: a raised ValueError: a failed; locked() -> False
// expect: turn 3: b inside; locked() -> True
// expect: turn 4: b left the block; locked() -> False
