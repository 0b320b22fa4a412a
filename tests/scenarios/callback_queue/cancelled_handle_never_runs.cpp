// A handle cancelled before its turn is skipped; its neighbours still run.
#include "looplab/event_loop.hpp"
#include "looplab/testing/scenario.hpp"

using looplab::testing::trace;

LOOPLAB_SCENARIO(cancelled_handle_never_runs) {
  looplab::EventLoop loop;
  auto say = [](const char* name) { return [name] { trace(std::string(name) + " ran"); }; };
  loop.call_soon(say("A"));
  looplab::Handle handle = loop.call_soon(say("B"));
  loop.call_soon(say("C"));
  handle.cancel();
  trace(std::string("cancelled() = ") + (handle.cancelled() ? "True" : "False"));
  trace("repr = " + handle.repr());  // no callback, so no place: asyncio outside debug mode
  loop.stop();                       // stop() before run_forever(): run exactly one turn
  loop.run_forever();
  trace("turn done");
  loop.close();
}

// expect: cancelled() = True
// expect: repr = <Handle cancelled>
// expect: A ran
// expect: C ran
// expect: turn done
