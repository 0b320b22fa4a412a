// to_thread() runs the function in a copy of the caller's context: the
// worker sees the caller's values, and what it sets stays in the copy.
// run_in_executor() copies nothing: the worker runs in its thread's own
// context, where the variable has its default.
#include <string>

#include "looplab/context.hpp"
#include "looplab/event_loop.hpp"
#include "looplab/run.hpp"
#include "looplab/to_thread.hpp"
#include "scenarios/executor/executor_trace.hpp"

using looplab::testing::executor::show;

namespace {

looplab::ContextVar<std::string> request_id("request_id", "none");

std::string read_and_set() {
  std::string seen = request_id.get();
  request_id.set("set by the worker");
  return seen;
}

std::string read() { return request_id.get(); }

looplab::Coro<void> main_coroutine() {
  looplab::EventLoop& loop = looplab::get_running_loop();
  request_id.set("main");
  looplab::Coro<std::string> copied = looplab::to_thread(read_and_set);
  std::string seen = co_await std::move(copied);
  show("to_thread: the worker saw ", seen);
  show("after to_thread, main sees ", request_id.get());
  request_id.set("main again");
  looplab::Future<std::string> plain = loop.run_in_executor(nullptr, read);
  seen = co_await plain;
  show("run_in_executor: the worker saw ", seen);
  copied = looplab::to_thread(read);
  seen = co_await std::move(copied);
  show("to_thread: the worker saw ", seen);
}

}  // namespace

LOOPLAB_SCENARIO(to_thread_copies_the_context) { looplab::run(main_coroutine()); }

// expect: to_thread: the worker saw main
// expect: after to_thread, main sees main
// expect: run_in_executor: the worker saw none
// expect: to_thread: the worker saw main again
