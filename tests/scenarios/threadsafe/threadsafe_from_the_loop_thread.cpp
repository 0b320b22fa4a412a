// call_soon_threadsafe() from the loop's own thread is call_soon(): the
// callback runs in the next turn, in order with the others.
#include <string>

#include "looplab/event_loop.hpp"
#include "looplab/testing/scenario.hpp"

using looplab::testing::trace;

LOOPLAB_SCENARIO(threadsafe_from_the_loop_thread) {
  looplab::EventLoop loop;
  int turn = 1;
  loop.call_soon([&] {
    trace("turn " + std::to_string(turn) + ": posting X, then call_soon(Y)");
    loop.call_soon_threadsafe([&] { trace("turn " + std::to_string(turn) + ": X"); });
    loop.call_soon([&] { trace("turn " + std::to_string(turn) + ": Y"); });
  });
  for (; turn <= 2; ++turn) {
    loop.stop();  // one turn
    loop.run_forever();
  }
  loop.close();
}

// expect: turn 1: posting X, then call_soon(Y)
// expect: turn 2: X
// expect: turn 2: Y
