// Nested timeouts: only the scope that expired turns the CancelledError into TimeoutError.
#include "looplab/timeout.hpp"
#include "scenarios/tasks/task_trace.hpp"

using namespace std::chrono_literals;
using looplab::testing::say_at;

namespace {

looplab::Coro<void> body() {
  try {
    co_await looplab::sleep(10s);
  } catch (const looplab::CancelledError&) {
    say_at(looplab::get_running_loop(), "body cancelled");
    throw;
  }
}

looplab::Coro<void> inner_scope(std::chrono::seconds limit) {
  try {
    co_await looplab::timeout(limit, body());
  } catch (const looplab::TimeoutError&) {
    say_at(looplab::get_running_loop(), "inner scope raised TimeoutError");
    throw;
  } catch (const looplab::CancelledError&) {
    say_at(looplab::get_running_loop(), "inner scope let CancelledError through");
    throw;
  }
}

looplab::Coro<void> outer_scope(std::chrono::seconds outer_limit,
                                std::chrono::seconds inner_limit) {
  try {
    co_await looplab::timeout(outer_limit, inner_scope(inner_limit));
  } catch (const looplab::TimeoutError&) {
    say_at(looplab::get_running_loop(), "outer caught TimeoutError");
  }
}

looplab::Coro<void> main_task() {
  co_await outer_scope(1s, 5s);
  co_await outer_scope(5s, 1s);
}

}  // namespace

LOOPLAB_SCENARIO(nested_timeouts_only_expired_converts) {
  looplab::VirtualClock clock;
  looplab::EventLoop loop(clock);
  loop.run_until_complete(looplab::create_task(loop, main_task()));
  loop.close();
}

// expect: t=1.000 body cancelled
// expect: t=1.000 inner scope let CancelledError through
// expect: t=1.000 outer caught TimeoutError
// expect: t=2.000 body cancelled
// expect: t=2.000 inner scope raised TimeoutError
// expect: t=2.000 outer caught TimeoutError
