// A task waits only for a future (or a bare yield). A coroutine that gives it anything else,
// a "bad yield", gets RuntimeError('Task got bad yield: ...') thrown in where it suspended, one
// turn later. It may catch it and go on; uncaught, it ends the task; a cancel() in between wins.
// (What follows the colon is the awaiter's type here, std::suspend_always; CPython shows the
// repr of what was yielded: only the words before it are compared.)
#include <coroutine>
#include <string>

#include "looplab/sleep.hpp"
#include "scenarios/tasks/task_trace.hpp"

using namespace std::chrono_literals;
using looplab::testing::py;
using looplab::testing::run_turns;
using looplab::testing::say;

namespace {

std::string words(const looplab::RuntimeError& error) {
  std::string what = error.what();
  return what.substr(0, what.find(':'));
}

looplab::Coro<std::string> catches() {
  try {
    co_await std::suspend_always{};  // not a future: Python's Foreign() yielding 42
    say("catches: resumed without an error");
  } catch (const looplab::RuntimeError& error) {
    say("catches: caught RuntimeError('" + words(error) + ": ...')");
  }
  co_await looplab::sleep(0s);
  say("catches: went on");
  co_return "done";
}

looplab::Coro<void> lets_it_out() { co_await std::suspend_always{}; }

looplab::Coro<void> main_task(looplab::EventLoop* loop) {
  looplab::Task<std::string> first = looplab::create_task(*loop, catches());
  looplab::Task<void> second = looplab::create_task(*loop, lets_it_out());
  looplab::Task<void> third = looplab::create_task(*loop, lets_it_out());
  co_await looplab::sleep(0s);  // all three have given their bad yield
  say(std::string("third.cancel('stop') -> ") + py(third.cancel("stop")));
  std::string result = co_await first;
  say("first: " + result);
  try {
    co_await second;
  } catch (const looplab::RuntimeError& error) {
    say("second failed: RuntimeError('" + words(error) + ": ...')");
  }
  try {
    co_await third;
  } catch (const looplab::CancelledError& error) {
    say(std::string("third cancelled: CancelledError('") + error.what() + "')");
  }
}

}  // namespace

LOOPLAB_SCENARIO(bad_yield_is_thrown_into_the_coroutine) {
  looplab::VirtualClock clock;
  looplab::EventLoop loop(clock);
  looplab::Task<void> task = looplab::create_task(loop, main_task(&loop));
  run_turns(loop, 6);
  say(std::string("main done: ") + py(task.done()));
  loop.close();
}

// expect: turn 2: third.cancel('stop') -> True
// expect: turn 3: catches: caught RuntimeError('Task got bad yield: ...')
// expect: turn 4: catches: went on
// expect: turn 5: first: done
// expect: turn 5: second failed: RuntimeError('Task got bad yield: ...')
// expect: turn 5: third cancelled: CancelledError('stop')
// expect: turn 6: main done: True
