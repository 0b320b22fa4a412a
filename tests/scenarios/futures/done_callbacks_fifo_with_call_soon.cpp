// Done callbacks join the ready queue when the future completes, FIFO with call_soon: X, A, B, Y,
// C.
#include "scenarios/futures/futures_trace.hpp"

using looplab::Future;
using looplab::testing::run_one_turn;
using looplab::testing::trace;

LOOPLAB_SCENARIO(done_callbacks_fifo_with_call_soon) {
  looplab::VirtualClock clock;
  looplab::EventLoop loop(clock);
  Future<> future = loop.create_future();
  auto say = [](const char* name) {
    return [name](auto&&...) { trace(std::string(name) + " ran"); };
  };
  loop.call_soon(say("X"));
  future.add_done_callback(say("A"));  // pending: kept by the future
  future.add_done_callback(say("B"));
  trace("set_result(): queues A and B after X");
  future.set_result();
  loop.call_soon(say("Y"));
  future.add_done_callback(say("C"));  // done: queued at once, after Y
  run_one_turn(loop);
  trace("one turn ran");
  loop.close();
}

// expect: set_result(): queues A and B after X
// expect: X ran
// expect: A ran
// expect: B ran
// expect: Y ran
// expect: C ran
// expect: one turn ran
