// A toy task: a coroutine driven by loop callbacks and nothing else, one resume() per step.
//
// Chapter 6 starts here, before the real Task: no future, no cancellation.
// The coroutine hands the driver how long it wants to sleep; the step resumes
// it once and books the next step with call_later(). Python's twin drives an
// `async def` the same way, with coro.send(None).
#include <chrono>
#include <coroutine>
#include <exception>
#include <string>

#include "scenarios/tasks/task_trace.hpp"

using namespace std::chrono_literals;
using looplab::testing::say_at;

namespace {

struct ToyCoroutine {  // what a coroutine function returns: its frame, not yet started
  struct promise_type {
    std::chrono::milliseconds delay{0};  // what the coroutine asked for when it suspended
    ToyCoroutine get_return_object() {
      return {std::coroutine_handle<promise_type>::from_promise(*this)};
    }
    std::suspend_always initial_suspend() noexcept { return {}; }  // lazy, as Python's
    std::suspend_always final_suspend() noexcept { return {}; }    // step() destroys it
    void return_void() noexcept {}
    void unhandled_exception() noexcept { std::terminate(); }
  };
  std::coroutine_handle<promise_type> handle;
};

struct ToySleep {  // co_await ToySleep{d}: suspend, handing d to the driver (Python: yield d)
  std::chrono::milliseconds delay;
  bool await_ready() const noexcept { return false; }
  void await_suspend(std::coroutine_handle<ToyCoroutine::promise_type> me) const noexcept {
    me.promise().delay = delay;
  }
  void await_resume() const noexcept {}
};

// The whole task: run the coroutine to its next co_await, then book the next step.
void step(looplab::EventLoop& loop, std::coroutine_handle<ToyCoroutine::promise_type> coro) {
  coro.resume();
  if (coro.done()) {
    coro.destroy();
    return;
  }
  loop.call_later(coro.promise().delay, [&loop, coro] { step(loop, coro); });
}

void start(looplab::EventLoop& loop, ToyCoroutine coroutine) {
  loop.call_soon([&loop, coro = coroutine.handle] { step(loop, coro); });
}

// A coroutine: its parameters are copied into its frame, so they outlive the call.
ToyCoroutine worker(looplab::EventLoop* loop, std::string name, std::chrono::milliseconds nap) {
  for (int round = 1; round <= 2; ++round) {
    say_at(*loop, name + " round " + std::to_string(round));
    co_await ToySleep{nap};
  }
  say_at(*loop, name + " done");
}

}  // namespace

LOOPLAB_SCENARIO(toy_task) {
  looplab::VirtualClock clock;
  looplab::EventLoop loop(clock);
  start(loop, worker(&loop, "a", 300ms));
  start(loop, worker(&loop, "b", 200ms));
  loop.call_later(1s, [&loop] { loop.stop(); });
  loop.run_forever();
  loop.close();
}

// expect: t=0.000 a round 1
// expect: t=0.000 b round 1
// expect: t=0.200 b round 2
// expect: t=0.300 a round 2
// expect: t=0.400 b done
// expect: t=0.600 a done
