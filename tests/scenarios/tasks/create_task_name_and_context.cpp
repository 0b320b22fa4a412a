// create_task(coro, name=..., context=...): a named task keeps its name (and
// takes no number: the next unnamed task gets the next one), and a task made
// with context= runs its steps in that Context instead of a copy of the
// caller's.
#include <string>

#include "looplab/context.hpp"
#include "scenarios/tasks/task_trace.hpp"

using looplab::testing::run_turns;
using looplab::testing::trace;

namespace {

looplab::ContextVar<std::string> request_id("request_id", "none");

looplab::Coro<void> show(std::string label) {
  trace(label + ": name = " + looplab::TaskBase::current()->get_name() +
        ", request_id = " + request_id.get());
  co_return;
}

}  // namespace

LOOPLAB_SCENARIO(create_task_name_and_context) {
  looplab::Context::current() = looplab::Context();
  looplab::VirtualClock clock;
  looplab::EventLoop loop(clock);
  request_id.set("main");
  (void)looplab::create_task(loop, show("first"));
  (void)looplab::create_task(loop, show("second"), {.name = "fetcher"});
  looplab::Context other = looplab::Context::copy_current();
  other.run([] { request_id.set("from the given context"); });
  (void)looplab::create_task(loop, show("third"), {.context = other});
  (void)looplab::create_task(loop, show("fourth"));
  run_turns(loop, 1);
  loop.close();
}

// expect: first: name = Task-1, request_id = main
// expect: second: name = fetcher, request_id = main
// expect: third: name = Task-2, request_id = from the given context
// expect: fourth: name = Task-3, request_id = main
