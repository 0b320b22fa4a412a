// gather(return_exceptions=True) collects every outcome in order, errors and cancellations
// included.
#include "looplab/gather.hpp"
#include "scenarios/tasks/task_trace.hpp"

using namespace std::chrono_literals;
using looplab::testing::say_at;

namespace {

looplab::Coro<int> ok() {
  co_await looplab::sleep(300ms);
  co_return 1;
}

looplab::Coro<int> bad() {
  co_await looplab::sleep(100ms);
  throw looplab::ValueError("bad");
}

std::string describe(const looplab::Outcome<int>& outcome) {
  if (!outcome.exception) return "value " + std::to_string(*outcome.value);
  try {
    std::rethrow_exception(outcome.exception);
  } catch (const looplab::CancelledError& error) {
    return std::string("CancelledError('") + error.what() + "')";
  } catch (const looplab::ValueError& error) {
    return std::string("ValueError('") + error.what() + "')";
  }
  return "something else";
}

looplab::Coro<void> main_task() {
  looplab::EventLoop& loop = looplab::get_running_loop();
  looplab::Task<int> first = looplab::create_task(loop, ok());
  looplab::Task<int> second = looplab::create_task(loop, bad());
  looplab::Future<int> third = loop.create_future<int>();
  auto outcomes = looplab::gather_return_exceptions(loop, first, second, third);
  third.cancel("no thanks");
  std::vector<looplab::Outcome<int>> results = co_await outcomes;
  for (std::size_t index = 0; index < results.size(); ++index) {
    say_at(loop, std::to_string(index) + ": " + describe(results[index]));
  }
}

}  // namespace

LOOPLAB_SCENARIO(gather_return_exceptions) {
  looplab::VirtualClock clock;
  looplab::EventLoop loop(clock);
  loop.run_until_complete(looplab::create_task(loop, main_task()));
  loop.close();
}

// expect: t=0.300 0: value 1
// expect: t=0.300 1: ValueError('bad')
// expect: t=0.300 2: CancelledError('no thanks')
