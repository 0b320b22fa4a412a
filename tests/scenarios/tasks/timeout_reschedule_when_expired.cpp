// asyncio.timeout() as cm: cm.when() is the deadline in loop time,
// cm.reschedule() moves it (None removes it), cm.expired() says whether it
// fired; timeout_at() takes the deadline itself. Rescheduling an expired
// timeout is a RuntimeError.
#include <cstdio>
#include <optional>
#include <string>

#include "looplab/timeout.hpp"
#include "scenarios/tasks/task_trace.hpp"

using looplab::Timeout;
using looplab::testing::py;
using looplab::testing::say_at;
using looplab::testing::trace;
using namespace std::chrono_literals;

namespace {

std::string seconds(std::optional<looplab::Clock::time_point> when) {
  if (!when) return "None";
  char text[32];
  std::snprintf(text, sizeof text, "%.3f",
                std::chrono::duration<double>(when->time_since_epoch()).count());
  return text;
}

looplab::Coro<void> first_block(Timeout& cm, looplab::EventLoop* loop) {
  say_at(*loop, "when=" + seconds(cm.when()));
  cm.reschedule(loop->time() + 3s);
  co_await looplab::sleep(2s);
  say_at(*loop, std::string("still running, expired=") + py(cm.expired()));
  cm.reschedule(std::nullopt);
  co_await looplab::sleep(5s);
  say_at(*loop, "no deadline: when=" + seconds(cm.when()));
}

looplab::Coro<void> expires(Timeout& cm, looplab::EventLoop* loop) {
  try {
    co_await looplab::sleep(10s);
  } catch (const looplab::CancelledError&) {
    say_at(*loop, std::string("body cancelled, expired=") + py(cm.expired()));
    try {
      cm.reschedule(loop->time() + 1s);
    } catch (const looplab::RuntimeError& e) {
      trace(std::string("reschedule now -> RuntimeError: ") + e.what());
    }
    throw;
  }
}

looplab::Coro<void> rescheduled_to_now(Timeout& cm, looplab::EventLoop* loop) {
  trace("timeout(None): when=" + seconds(cm.when()));
  cm.reschedule(loop->time());
  try {
    co_await looplab::sleep(1s);
  } catch (const looplab::CancelledError&) {
    say_at(*loop, "cancelled by the rescheduled deadline");
    throw;
  }
}

looplab::Coro<void> main_coro(looplab::EventLoop* loop) {
  co_await looplab::timeout(1s, first_block, loop);
  say_at(*loop, "block done");
  try {
    co_await looplab::timeout_at(loop->time() + 2s, expires, loop);
  } catch (const looplab::TimeoutError&) {
    say_at(*loop, "TimeoutError");
  }
  co_await looplab::timeout_at(std::nullopt, rescheduled_to_now, loop);
  trace("not reached");
}

}  // namespace

LOOPLAB_SCENARIO(timeout_reschedule_when_expired) {
  looplab::VirtualClock clock;
  looplab::EventLoop loop(clock);
  try {
    loop.run_until_complete(main_coro(&loop));
  } catch (const looplab::TimeoutError&) {
    say_at(loop, "main ended with TimeoutError");
  }
  loop.close();
}

// expect: t=0.000 when=1.000
// expect: t=2.000 still running, expired=False
// expect: t=7.000 no deadline: when=None
// expect: t=7.000 block done
// expect: t=9.000 body cancelled, expired=True
// expect: reschedule now -> RuntimeError: Cannot change state of expiring Timeout
// expect: t=9.000 TimeoutError
// expect: timeout(None): when=None
// expect: t=9.000 cancelled by the rescheduled deadline
// expect: t=9.000 main ended with TimeoutError
