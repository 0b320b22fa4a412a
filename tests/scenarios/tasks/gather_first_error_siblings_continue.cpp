// The first error fails gather() at once; the other children are not cancelled and run on.
#include "looplab/gather.hpp"
#include "scenarios/tasks/task_trace.hpp"

using namespace std::chrono_literals;
using looplab::testing::py;
using looplab::testing::say_at;

namespace {

looplab::Coro<int> ok(std::chrono::seconds delay) {
  co_await looplab::sleep(delay);
  say_at(looplab::get_running_loop(), "ok child finishes");
  co_return 1;
}

looplab::Coro<int> bad(std::chrono::seconds delay) {
  co_await looplab::sleep(delay);
  say_at(looplab::get_running_loop(), "bad child raises ValueError('first')");
  throw looplab::ValueError("first");
}

looplab::Coro<void> main_task() {
  looplab::EventLoop& loop = looplab::get_running_loop();
  looplab::Task<int> sibling = looplab::create_task(loop, ok(2s));
  looplab::Task<int> failing = looplab::create_task(loop, bad(1s));
  try {
    co_await looplab::gather(loop, sibling, failing);
  } catch (const looplab::ValueError& error) {
    say_at(loop, std::string("gather raised ValueError('") + error.what() + "')");
  }
  say_at(loop, std::string("sibling done? ") + py(sibling.done()));
  int value = co_await sibling;
  say_at(loop,
         "sibling returned " + std::to_string(value) + ", cancelled? " + py(sibling.cancelled()));
}

}  // namespace

LOOPLAB_SCENARIO(gather_first_error_siblings_continue) {
  looplab::VirtualClock clock;
  looplab::EventLoop loop(clock);
  loop.run_until_complete(looplab::create_task(loop, main_task()));
  loop.close();
}

// expect: t=1.000 bad child raises ValueError('first')
// expect: t=1.000 gather raised ValueError('first')
// expect: t=1.000 sibling done? False
// expect: t=2.000 ok child finishes
// expect: t=2.000 sibling returned 1, cancelled? False
