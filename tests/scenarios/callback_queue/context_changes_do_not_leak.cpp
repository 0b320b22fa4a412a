// A callback's ContextVar::set() stays in its own context copy: no other callback or caller sees
// it.
#include "looplab/event_loop.hpp"
#include "looplab/testing/scenario.hpp"

using looplab::testing::trace;

static looplab::ContextVar<std::string> var("var");

LOOPLAB_SCENARIO(context_changes_do_not_leak) {
  looplab::EventLoop loop;
  auto setter = [] {
    var.set("inside");
    trace("setter: var = " + var.get());
  };
  auto reader = [] { trace("reader: var = " + var.get()); };
  var.set("outer");
  loop.call_soon(setter);
  loop.call_soon(reader);  // scheduled before setter ran: sees "outer"
  loop.stop();             // stop() before run_forever(): run exactly one turn
  loop.run_forever();
  trace("after the turn: var = " + var.get());
  loop.close();
}

// expect: setter: var = inside
// expect: reader: var = outer
// expect: after the turn: var = outer
