// to_thread() is a coroutine: calling it submits nothing. The call goes to
// the default executor when the coroutine is awaited, or in the first step
// of a task made of it (not in create_task()); a to_thread() coroutine that
// is never run never calls its function.
#include <memory>
#include <string>

#include "looplab/event_loop.hpp"
#include "looplab/run.hpp"
#include "looplab/task.hpp"
#include "looplab/thread_pool_executor.hpp"
#include "looplab/to_thread.hpp"
#include "scenarios/executor/executor_trace.hpp"

using looplab::testing::executor::show;

namespace {

looplab::testing::executor::SharedList calls;

std::string record(std::string label) {
  calls.append(label);
  return label;
}

std::string seen_calls() { return calls.repr(); }

looplab::Coro<void> main_coroutine() {
  looplab::EventLoop& loop = looplab::get_running_loop();
  // One worker: the default executor runs its items in the order submitted.
  loop.set_default_executor(std::make_shared<looplab::concurrent::ThreadPoolExecutor>(1));
  looplab::Coro<std::string> never = looplab::to_thread(record, std::string("never"));
  looplab::Coro<std::string> later = looplab::to_thread(record, std::string("awaited"));
  looplab::Future<std::string> seen = loop.run_in_executor(nullptr, seen_calls);
  std::string before = co_await seen;
  show("before the await, the worker saw ", before);
  std::string awaited = co_await std::move(later);
  show("await: ", awaited);
  looplab::Task<std::string> task =
      looplab::create_task(loop, looplab::to_thread(record, std::string("task")));
  seen = loop.run_in_executor(nullptr, seen_calls);
  std::string before_step = co_await seen;
  show("submitted before the task's first step, the worker saw ", before_step);
  std::string from_task = co_await task;
  show("await task: ", from_task);
  show("calls: ", calls.repr());
}

}  // namespace

LOOPLAB_SCENARIO(to_thread_submits_when_awaited) { looplab::run(main_coroutine()); }

// expect: before the await, the worker saw []
// expect: await: awaited
// expect: submitted before the task's first step, the worker saw ['awaited']
// expect: await task: task
// expect: calls: ['awaited', 'task']
