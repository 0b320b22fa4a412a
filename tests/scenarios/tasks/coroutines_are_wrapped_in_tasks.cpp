// run_until_complete(coro) and gather(coro, coro) wrap each coroutine in a
// task (ensure_future), so gathered coroutines run concurrently, in argument
// order; sleep(delay, result) returns its result after the delay.
#include <string>
#include <vector>

#include "looplab/gather.hpp"
#include "scenarios/tasks/task_trace.hpp"

using looplab::testing::say_at;
using looplab::testing::trace;
using namespace std::chrono_literals;

namespace {

looplab::Coro<std::string> child(looplab::EventLoop* loop, std::string name, int seconds) {
  say_at(*loop, name + " starts in " + looplab::TaskBase::current()->get_name());
  std::string value = co_await looplab::sleep(std::chrono::seconds(seconds), name + " done");
  say_at(*loop, value);
  co_return name + ":" + std::to_string(seconds);
}

looplab::Coro<int> main_coro(looplab::EventLoop* loop) {
  say_at(*loop, "main runs in " + looplab::TaskBase::current()->get_name());
  std::vector<std::string> results =
      co_await looplab::gather(*loop, child(loop, "slow", 2), child(loop, "fast", 1));
  say_at(*loop, "gather -> ['" + results[0] + "', '" + results[1] + "']");
  co_return static_cast<int>(results.size());
}

}  // namespace

LOOPLAB_SCENARIO(coroutines_are_wrapped_in_tasks) {
  looplab::VirtualClock clock;
  looplab::EventLoop loop(clock);
  int count = loop.run_until_complete(main_coro(&loop));
  trace("run_until_complete -> " + std::to_string(count));
  loop.close();
}

// expect: t=0.000 main runs in Task-1
// expect: t=0.000 slow starts in Task-2
// expect: t=0.000 fast starts in Task-3
// expect: t=1.000 fast done
// expect: t=2.000 slow done
// expect: t=2.000 gather -> ['slow:2', 'fast:1']
// expect: run_until_complete -> 2
