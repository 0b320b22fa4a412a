// A task ends cancelled with the message of the CancelledError its coroutine ended with:
// the waited future's, a replacement's, or the first one's even after a second cancel().
#include <string>
#include <vector>

#include "scenarios/tasks/task_trace.hpp"

using looplab::testing::run_turns;
using looplab::testing::say;

namespace {

looplab::Coro<void> waits(looplab::Future<int> future) { co_await future; }

looplab::Coro<void> replaces(looplab::Future<int> future) {
  try {
    co_await future;
  } catch (const looplab::CancelledError&) {
    say("replaces: raises CancelledError('replaced')");
    throw looplab::CancelledError("replaced");
  }
}

looplab::Coro<void> cancels_again(looplab::Future<int> future) {
  try {
    co_await future;
  } catch (const looplab::CancelledError&) {
    say("cancels_again: cancel('second'), then re-raises");
    looplab::TaskBase::current()->cancel("second");
    throw;
  }
}

void report(const std::string& name, const looplab::Task<void>& task) {
  try {
    task.result();
  } catch (const looplab::CancelledError& error) {
    say(name + ": cancelling() -> " + std::to_string(task.cancelling()) +
        ", result() raises CancelledError('" + error.what() + "')");
  }
}

}  // namespace

LOOPLAB_SCENARIO(cancelled_error_keeps_its_message) {
  looplab::VirtualClock clock;
  looplab::EventLoop loop(clock);
  std::vector<looplab::Future<int>> futures;
  for (int i = 0; i < 3; ++i) futures.push_back(loop.create_future<int>());
  looplab::Task<void> plain = looplab::create_task(loop, waits(futures[0]));
  looplab::Task<void> replacing = looplab::create_task(loop, replaces(futures[1]));
  looplab::Task<void> again = looplab::create_task(loop, cancels_again(futures[2]));
  run_turns(loop, 1);
  futures[0].cancel("from outside");  // not through the task
  replacing.cancel("sent");
  again.cancel("first");
  run_turns(loop, 1);
  report("waits", plain);
  report("replaces", replacing);
  report("cancels_again", again);
  loop.close();
}

// expect: turn 2: replaces: raises CancelledError('replaced')
// expect: turn 2: cancels_again: cancel('second'), then re-raises
// expect: turn 2: waits: cancelling() -> 0, result() raises CancelledError('from outside')
// expect: turn 2: replaces: cancelling() -> 1, result() raises CancelledError('replaced')
// expect: turn 2: cancels_again: cancelling() -> 2, result() raises CancelledError('first')
