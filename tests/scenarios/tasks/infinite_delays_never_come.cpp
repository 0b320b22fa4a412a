// A delay of infinity (or of a thousand centuries) is accepted and never comes: sleep(inf) lasts
// until cancelled, timeout(inf) and wait_for(x, inf) never expire; NaN is a ValueError.
#include <cmath>
#include <limits>

#include "looplab/timeout.hpp"
#include "scenarios/tasks/task_trace.hpp"

using namespace std::chrono_literals;
using looplab::testing::say_at;

namespace {

using Seconds = std::chrono::duration<double>;
constexpr double kInfinity = std::numeric_limits<double>::infinity();

looplab::Coro<void> sleeper() {
  try {
    co_await looplab::sleep(Seconds(kInfinity));
  } catch (const looplab::CancelledError&) {
    say_at(looplab::get_running_loop(), "sleep(inf) cancelled");
    throw;
  }
}

looplab::Coro<int> answer(Seconds delay, int value) {
  co_await looplab::sleep(delay);
  co_return value;
}

looplab::Coro<void> sleep_one_second() { co_await looplab::sleep(1s); }

looplab::Coro<void> main_task() {
  looplab::EventLoop& loop = looplab::get_running_loop();
  looplab::Task<void> forever = looplab::create_task(loop, sleeper());
  co_await looplab::timeout(Seconds(kInfinity), sleep_one_second());
  say_at(loop, "timeout(inf) did not expire");
  int seven = co_await looplab::wait_for(answer(Seconds(0.5), 7), Seconds(kInfinity));
  say_at(loop, "wait_for(inf) -> " + std::to_string(seven));
  int eight = co_await looplab::wait_for(answer(Seconds(0.5), 8), Seconds(1e12));
  say_at(loop, "wait_for(1e12) -> " + std::to_string(eight));
  forever.cancel();
  try {
    co_await forever;
  } catch (const looplab::CancelledError&) {
  }
  try {
    co_await looplab::sleep(Seconds(std::nan("")));
  } catch (const looplab::ValueError& error) {
    say_at(loop, std::string("sleep(nan) -> ValueError: ") + error.what());
  }
}

}  // namespace

LOOPLAB_SCENARIO(infinite_delays_never_come) {
  looplab::VirtualClock clock;
  looplab::EventLoop loop(clock);
  loop.run_until_complete(main_task());
  loop.close();
}

// requires-python: 3.13
// expect: t=1.000 timeout(inf) did not expire
// expect: t=1.500 wait_for(inf) -> 7
// expect: t=2.000 wait_for(1e12) -> 8
// expect: t=2.000 sleep(inf) cancelled
// expect: t=2.000 sleep(nan) -> ValueError: Invalid delay: NaN (not a number)
