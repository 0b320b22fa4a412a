// A finished gather(return_exceptions=True) shows its list in its repr, an exception as its
// repr, shortened as reprlib shortens what is neither a str nor a number (30 characters).
#include <string>
#include <vector>

#include "looplab/gather.hpp"
#include "scenarios/tasks/task_trace.hpp"

using looplab::testing::say_at;

namespace {

looplab::Coro<int> value(int n) { co_return n; }
looplab::Coro<int> fail(std::string message) {
  throw looplab::ValueError(message);
  co_return 0;
}
looplab::Coro<int> cancel_itself() {
  throw looplab::CancelledError();
  co_return 0;
}

looplab::Coro<void> main_task() {
  looplab::EventLoop& loop = looplab::get_running_loop();
  std::vector<looplab::Coro<int>> children;
  children.push_back(value(1));
  children.push_back(fail("x"));
  children.push_back(cancel_itself());
  looplab::Future<std::vector<looplab::Outcome<int>>> outcomes =
      looplab::gather_return_exceptions(loop, std::move(children));
  co_await outcomes;
  say_at(loop, outcomes.repr());
  std::vector<looplab::Coro<int>> long_one;
  long_one.push_back(fail("a much longer message than thirty"));
  outcomes = looplab::gather_return_exceptions(loop, std::move(long_one));
  co_await outcomes;
  say_at(loop, outcomes.repr());
}

}  // namespace

LOOPLAB_SCENARIO(gather_return_exceptions_repr_shows_the_exceptions) {
  looplab::VirtualClock clock;
  looplab::EventLoop loop(clock);
  loop.run_until_complete(looplab::create_task(loop, main_task()));
  loop.close();
}

// expect: t=0.000 <_GatheringFuture finished result=[1, ValueError('x'), CancelledError('')]>
// expect: t=0.000 <_GatheringFuture finished result=[ValueError('a... than thirty')]>
