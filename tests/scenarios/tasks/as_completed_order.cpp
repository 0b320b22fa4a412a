// asyncio.as_completed(): results in the order the futures complete, an
// exception where its future failed; with a timeout, each result not there in
// time is a TimeoutError.
#include <string>
#include <vector>

#include "looplab/wait.hpp"
#include "scenarios/tasks/task_trace.hpp"

using looplab::Future;
using looplab::testing::say_at;
using namespace std::chrono_literals;

namespace {

looplab::Coro<std::string> job(std::string name, int seconds, bool fail) {
  co_await looplab::sleep(std::chrono::seconds(seconds));
  if (fail) throw looplab::ValueError(name);
  co_return name;
}

looplab::Coro<void> main_coro(looplab::EventLoop* loop) {
  std::vector<Future<std::string>> tasks{looplab::create_task(*loop, job("slow", 3, false)),
                                         looplab::create_task(*loop, job("fast", 1, false)),
                                         looplab::create_task(*loop, job("bad", 2, true))};
  looplab::AsCompleted<std::string> results = looplab::as_completed(tasks);
  while (results.size() > 0) {
    try {
      std::string value = co_await results.next();
      say_at(*loop, "got " + value);
    } catch (const looplab::ValueError& e) {
      say_at(*loop, std::string("got ValueError: ") + e.what());
    }
  }
  std::vector<Future<std::string>> timed{looplab::create_task(*loop, job("quick", 1, false)),
                                         looplab::create_task(*loop, job("late", 5, false))};
  looplab::AsCompleted<std::string> in_time = looplab::as_completed(timed, 2s);
  while (in_time.size() > 0) {
    try {
      std::string value = co_await in_time.next();
      say_at(*loop, "got " + value);
    } catch (const looplab::TimeoutError&) {
      say_at(*loop, "got TimeoutError");
    }
  }
  Future<std::string> late = timed[1];
  std::string value = co_await late;
  say_at(*loop, "late finished anyway: " + value);
}

}  // namespace

LOOPLAB_SCENARIO(as_completed_order) {
  looplab::VirtualClock clock;
  looplab::EventLoop loop(clock);
  loop.run_until_complete(main_coro(&loop));
  loop.close();
}

// expect: t=1.000 got fast
// expect: t=2.000 got ValueError: bad
// expect: t=3.000 got slow
// expect: t=4.000 got quick
// expect: t=5.000 got TimeoutError
// expect: t=8.000 late finished anyway: late
