// set() wakes every waiter, in the order they started waiting, and skips a cancelled one; a
// second set() changes nothing. Cancelling the future wait() returned is what cancelling the
// twin's waiting task does.
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
  woken.add_done_callback([&event, name](Future<bool>& done) {
    if (done.cancelled()) {
      trace(name + " cancelled");
      return;
    }
    trace(name + " woke; is_set() -> " + py_bool(event.is_set()));
  });
  return woken;
}

}  // namespace

LOOPLAB_SCENARIO(event_set_wakes_every_waiter) {
  looplab::VirtualClock clock;
  looplab::EventLoop loop(clock);
  Event event(loop);
  Future<bool> a = waiter(event, "A");
  Future<bool> b = waiter(event, "B");
  Future<bool> c = waiter(event, "C");
  trace("main cancels B, sets the event twice");
  b.cancel();
  event.set();
  event.set();
  run_one_turn(loop);
  trace(std::string("all done; is_set() -> ") + py_bool(event.is_set()));
  loop.close();
}

// expect: A waits
// expect: B waits
// expect: C waits
// expect: main cancels B, sets the event twice
// expect: B cancelled
// expect: A woke; is_set() -> True
// expect: C woke; is_set() -> True
// expect: all done; is_set() -> True
