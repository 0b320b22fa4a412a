// run_in_executor() runs the function in the worker thread's own context, not
// the caller's and not a fresh one per call: what one call sets there, the next
// call on the same thread sees (one worker here). to_thread() calls run in a
// copy of the caller's context and neither see nor change it.
#include <memory>
#include <string>
#include <utility>

#include "looplab/context.hpp"
#include "looplab/event_loop.hpp"
#include "looplab/run.hpp"
#include "looplab/thread_pool_executor.hpp"
#include "looplab/to_thread.hpp"
#include "scenarios/executor/executor_trace.hpp"

using looplab::testing::executor::show;

namespace {

looplab::ContextVar<std::string> request_id("request_id", "none");

std::string set_value(std::string value) {
  std::string before = request_id.get();
  request_id.set(std::move(value));
  return before;
}

std::string read() { return request_id.get(); }

looplab::Coro<void> main_coroutine() {
  looplab::EventLoop& loop = looplab::get_running_loop();
  loop.set_default_executor(std::make_shared<looplab::concurrent::ThreadPoolExecutor>(1));
  request_id.set("main");
  looplab::Future<std::string> call =
      loop.run_in_executor(nullptr, set_value, std::string("first call"));
  std::string seen = co_await call;
  show("first call saw ", seen);
  call = loop.run_in_executor(nullptr, set_value, std::string("second call"));
  seen = co_await call;
  show("second call saw ", seen);
  looplab::Coro<std::string> copied = looplab::to_thread(set_value, std::string("to_thread"));
  seen = co_await std::move(copied);
  show("to_thread saw ", seen);
  call = loop.run_in_executor(nullptr, read);
  seen = co_await call;
  show("the thread's own context still holds ", seen);
  show("main still sees ", request_id.get());
}

}  // namespace

LOOPLAB_SCENARIO(worker_keeps_its_own_context) { looplab::run(main_coroutine()); }

// expect: first call saw none
// expect: second call saw first call
// expect: to_thread saw main
// expect: the thread's own context still holds second call
// expect: main still sees main
