// Callbacks queued with call_soon run in the order they were queued (FIFO).
#include "looplab/event_loop.hpp"
#include "looplab/testing/scenario.hpp"

using looplab::testing::trace;

LOOPLAB_SCENARIO(fifo_order) {
  looplab::EventLoop loop;
  auto say = [](const char* name) { return [name] { trace(std::string(name) + " ran"); }; };
  loop.call_soon(say("A"));
  loop.call_soon(say("B"));
  loop.call_soon(say("C"));
  loop.stop();  // stop() before run_forever(): run exactly one turn
  loop.run_forever();
  trace("turn done");
  loop.close();
}

// expect: A ran
// expect: B ran
// expect: C ran
// expect: turn done
