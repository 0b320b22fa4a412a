// gather(return_exceptions=True) puts a new CancelledError in a cancelled child's place, made
// from the child's _cancel_message. A task clears that message as it ends cancelled, so its
// outcome has none, whatever cancel() was given; a cancelled future keeps its message.
#include <chrono>
#include <string>
#include <vector>

#include "looplab/gather.hpp"
#include "looplab/sleep.hpp"
#include "scenarios/tasks/task_trace.hpp"

using namespace std::chrono_literals;
using looplab::testing::run_turns;
using looplab::testing::say;

namespace {

looplab::Coro<int> slow() {
  co_await looplab::sleep(1s);
  co_return 1;
}

std::string describe(const looplab::Outcome<int>& outcome) {
  if (!outcome.exception) return "value " + std::to_string(*outcome.value);
  try {
    std::rethrow_exception(outcome.exception);
  } catch (const looplab::CancelledError& error) {
    return std::string("CancelledError('") + error.what() + "')";
  }
  return "something else";
}

looplab::Coro<void> main_task(looplab::EventLoop* loop) {
  looplab::Task<int> waiting = looplab::create_task(*loop, slow());
  looplab::Task<int> unstarted = looplab::create_task(*loop, slow());
  looplab::Future<int> plain = loop->create_future<int>();
  auto outcomes = looplab::gather_return_exceptions(*loop, waiting, unstarted, plain);
  unstarted.cancel("before its first step");
  co_await looplab::sleep(0s);
  waiting.cancel("while it waits");
  plain.cancel("a future's");
  std::vector<looplab::Outcome<int>> results = co_await outcomes;
  say("waiting: " + describe(results[0]));
  say("unstarted: " + describe(results[1]));
  say("plain: " + describe(results[2]));
}

}  // namespace

LOOPLAB_SCENARIO(gather_outcome_of_a_cancelled_task_has_no_message) {
  looplab::VirtualClock clock;
  looplab::EventLoop loop(clock);
  looplab::Task<void> task = looplab::create_task(loop, main_task(&loop));
  run_turns(loop, 6);
  loop.close();
}

// expect: turn 5: waiting: CancelledError('')
// expect: turn 5: unstarted: CancelledError('')
// expect: turn 5: plain: CancelledError('a future's')
