// Every ContextVar is a variable of its own, whatever the type of its value:
// a callback reads each one's value, or its default, never another's.
#include <string>

#include "looplab/event_loop.hpp"
#include "looplab/testing/scenario.hpp"

using looplab::testing::trace;

static looplab::ContextVar<std::string> user("user", "nobody");
static looplab::ContextVar<int> retries("retries", 0);
static looplab::ContextVar<long> deadline("deadline", 0);

LOOPLAB_SCENARIO(context_vars_are_separate_whatever_their_type) {
  looplab::EventLoop loop;
  auto show = [] {
    trace("user = " + user.get() + ", retries = " + std::to_string(retries.get()) +
          ", deadline = " + std::to_string(deadline.get()));
  };
  deadline.set(30);
  loop.call_soon(show);
  retries.set(3);
  loop.call_soon(show);
  user.set("alice");
  loop.call_soon(show);
  loop.stop();
  loop.run_forever();
  loop.close();
}

// expect: user = nobody, retries = 0, deadline = 30
// expect: user = nobody, retries = 3, deadline = 30
// expect: user = alice, retries = 3, deadline = 30
