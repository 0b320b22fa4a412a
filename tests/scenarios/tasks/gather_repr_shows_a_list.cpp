// A finished gather's repr shows its results as reprlib shows a list (six items at most, long
// strings shortened), and gather() of nothing is a plain future, done with [].
#include <vector>

#include "looplab/gather.hpp"
#include "scenarios/tasks/task_trace.hpp"

using looplab::testing::say_at;

namespace {

looplab::Coro<int> value(int n) { co_return n; }
looplab::Coro<std::string> text(std::string s) { co_return s; }

looplab::Coro<void> main_task() {
  looplab::EventLoop& loop = looplab::get_running_loop();
  std::vector<looplab::Coro<int>> numbers;
  for (int n = 0; n < 8; ++n) numbers.push_back(value(n));
  looplab::Future<std::vector<int>> eight = looplab::gather(loop, std::move(numbers));
  say_at(loop, eight.repr());
  co_await eight;
  say_at(loop, eight.repr());
  looplab::Future<std::vector<std::string>> texts =
      looplab::gather(loop, text(std::string(40, 'x')), text("short"));
  co_await texts;
  say_at(loop, texts.repr());
  say_at(loop, looplab::gather(loop, std::vector<looplab::Future<int>>{}).repr());
}

}  // namespace

LOOPLAB_SCENARIO(gather_repr_shows_a_list) {
  looplab::VirtualClock clock;
  looplab::EventLoop loop(clock);
  loop.run_until_complete(looplab::create_task(loop, main_task()));
  loop.close();
}

// expect: t=0.000 <_GatheringFuture pending>
// expect: t=0.000 <_GatheringFuture finished result=[0, 1, 2, 3, 4, 5, ...]>
// expect: t=0.000 <_GatheringFuture finished result=['xxxxxxxxxxxx...xxxxxxxxxxxxx', 'short']>
// expect: t=0.000 <Future finished result=[]>
