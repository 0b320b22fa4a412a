// asyncio.wait(): FIRST_COMPLETED returns as soon as one is done,
// FIRST_EXCEPTION at the first failure, ALL_COMPLETED when all are; a timeout
// returns what is done so far, no error; nothing is cancelled.
#include <string>
#include <vector>

#include "looplab/wait.hpp"
#include "scenarios/tasks/task_trace.hpp"

using looplab::Future;
using looplab::ReturnWhen;
using looplab::Task;
using looplab::testing::say_at;
using looplab::testing::trace;
using namespace std::chrono_literals;

namespace {

struct Spec {
  std::string name;
  int seconds;
  bool fail;
};

looplab::Coro<std::string> job(std::string name, int seconds, bool fail) {
  co_await looplab::sleep(std::chrono::seconds(seconds));
  if (fail) throw looplab::ValueError(name);
  co_return name;
}

std::vector<Task<std::string>> start(looplab::EventLoop* loop, std::vector<Spec> specs) {
  std::vector<Task<std::string>> tasks;
  for (const Spec& spec : specs) {
    tasks.push_back(
        looplab::create_task(*loop, job(spec.name, spec.seconds, spec.fail), {.name = spec.name}));
  }
  return tasks;
}

std::vector<Future<std::string>> futures(const std::vector<Task<std::string>>& tasks) {
  return {tasks.begin(), tasks.end()};
}

std::string names(const std::vector<Future<std::string>>& some,
                  const std::vector<Task<std::string>>& order) {
  std::string text = "[";
  for (const Task<std::string>& task : order) {
    for (const Future<std::string>& f : some) {
      if (f == task) text += (text.size() > 1 ? ", " : "") + task.get_name();
    }
  }
  return text + "]";
}

void report(looplab::EventLoop* loop, const std::string& label,
            const looplab::WaitResult<std::string>& result,
            const std::vector<Task<std::string>>& order) {
  say_at(*loop, label + ": done=" + names(result.done, order) +
                    " pending=" + names(result.pending, order));
}

looplab::Coro<void> main_coro(looplab::EventLoop* loop) {
  std::vector<Task<std::string>> order =
      start(loop, {{"a", 3, false}, {"b", 1, false}, {"c", 2, false}});
  looplab::WaitResult<std::string> result =
      co_await looplab::wait(futures(order), ReturnWhen::kFirstCompleted);
  report(loop, "FIRST_COMPLETED", result, order);
  result = co_await looplab::wait(futures(order), 500ms);
  report(loop, "timeout 0.5", result, order);
  result = co_await looplab::wait(futures(order));
  report(loop, "ALL_COMPLETED", result, order);

  order = start(loop, {{"x", 1, false}, {"y", 2, true}, {"z", 3, false}});
  result = co_await looplab::wait(futures(order), ReturnWhen::kFirstException);
  report(loop, "FIRST_EXCEPTION", result, order);
  trace(std::string("z cancelled: ") + looplab::testing::py(order[2].cancelled()));
  (void)co_await looplab::wait(futures(order));
  std::vector<Future<std::string>> none;  // named: no braces inside co_await (pitfall P1)
  try {
    (void)co_await looplab::wait(std::move(none));
  } catch (const looplab::ValueError& e) {
    trace(std::string("wait([]) -> ValueError: ") + e.what());
  }
}

}  // namespace

LOOPLAB_SCENARIO(wait_return_when) {
  looplab::VirtualClock clock;
  looplab::EventLoop loop(clock);
  loop.run_until_complete(main_coro(&loop));
  loop.close();
}

// expect: t=1.000 FIRST_COMPLETED: done=[b] pending=[a, c]
// expect: t=1.500 timeout 0.5: done=[b] pending=[a, c]
// expect: t=3.000 ALL_COMPLETED: done=[a, b, c] pending=[]
// expect: t=5.000 FIRST_EXCEPTION: done=[x, y] pending=[z]
// expect: z cancelled: False
// expect: wait([]) -> ValueError: Set of Tasks/Futures is empty.
