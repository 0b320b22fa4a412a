// Signals delivered between two reads of the self-pipe run their handlers
// in the order they came, not in the order of their numbers: asyncio's pipe
// holds a byte per delivery. A delivery not read yet when its handler is
// removed and another added goes to the new handler.
#include <signal.h>

#include <string>

#include "looplab/event_loop.hpp"
#include "looplab/testing/scenario.hpp"

using looplab::testing::trace;

LOOPLAB_SCENARIO(signals_run_in_the_order_they_came) {
  looplab::EventLoop loop;
  int turn = 1;
  auto handler = [&turn](std::string name) {
    return [&turn, name] { trace("turn " + std::to_string(turn) + ": " + name); };
  };
  loop.add_signal_handler(SIGUSR1, handler("SIGUSR1"));
  loop.add_signal_handler(SIGUSR2, handler("SIGUSR2"));
  loop.add_signal_handler(SIGHUP, handler("SIGHUP"));
  loop.call_soon([&] {
    trace("turn 1: raising SIGUSR2, SIGHUP, SIGUSR1, SIGUSR2");
    ::raise(SIGUSR2);
    ::raise(SIGHUP);
    ::raise(SIGUSR1);
    ::raise(SIGUSR2);
  });
  auto run_turns_until = [&](int last) {
    for (; turn <= last; ++turn) {
      loop.stop();  // one turn
      loop.run_forever();
    }
  };
  run_turns_until(4);
  loop.call_soon([&] {
    trace("turn " + std::to_string(turn) + ": raising SIGUSR1, then replacing its handler");
    ::raise(SIGUSR1);
    trace(std::string("removed: ") + (loop.remove_signal_handler(SIGUSR1) ? "True" : "False"));
    loop.add_signal_handler(SIGUSR1, handler("the new SIGUSR1 handler"));
  });
  run_turns_until(8);
  loop.close();
}

// expect: turn 1: raising SIGUSR2, SIGHUP, SIGUSR1, SIGUSR2
// expect: turn 3: SIGUSR2
// expect: turn 3: SIGHUP
// expect: turn 3: SIGUSR1
// expect: turn 3: SIGUSR2
// expect: turn 5: raising SIGUSR1, then replacing its handler
// expect: removed: True
// expect: turn 7: the new SIGUSR1 handler
