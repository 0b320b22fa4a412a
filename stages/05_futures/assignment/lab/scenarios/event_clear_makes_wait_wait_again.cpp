// wait() on a set event returns True at once; after clear() it waits for the next set(); a
// clear() right after set() does not take back the wake-up. The twin's `await event.wait()`
// on a set event returns in the same step: here the future is done when wait() returns, and
// its result is read at once.
#include "looplab/lab/event.hpp"
#include "scenarios/futures/futures_trace.hpp"

using looplab::Future;
using looplab::lab::Event;
using looplab::testing::py_bool;
using looplab::testing::run_one_turn;
using looplab::testing::trace;

namespace {

Future<bool> waiter(Event& event, const std::string& name) {
  trace(name + " waits");
  Future<bool> woken = event.wait();
  woken.add_done_callback([&event, name](Future<bool>&) {
    trace(name + " woke; is_set() -> " + py_bool(event.is_set()));
  });
  return woken;
}

}  // namespace

LOOPLAB_SCENARIO(event_clear_makes_wait_wait_again) {
  looplab::VirtualClock clock;
  looplab::EventLoop loop(clock);
  Event event(loop);
  event.set();
  Future<bool> at_once = event.wait();
  trace(std::string("wait() on a set event -> ") + py_bool(at_once.result()));
  event.clear();
  trace(std::string("cleared; is_set() -> ") + py_bool(event.is_set()));
  Future<bool> a = waiter(event, "A");
  trace("main sets the event and clears it at once");
  event.set();
  event.clear();
  run_one_turn(loop);
  Future<bool> b = waiter(event, "B");
  trace("main sets the event");
  event.set();
  run_one_turn(loop);
  loop.close();
}

// expect: wait() on a set event -> True
// expect: cleared; is_set() -> False
// expect: A waits
// expect: main sets the event and clears it at once
// expect: A woke; is_set() -> False
// expect: B waits
// expect: main sets the event
// expect: B woke; is_set() -> True
