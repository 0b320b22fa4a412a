// gather(): the first child's error reaches the awaiter at once; the sibling is not cancelled,
// runs on and finishes, if someone waits for it. (group_error_cancels_sibling: a TaskGroup.)
#include "looplab/gather.hpp"
#include "scenarios/tasks/task_trace.hpp"

using namespace std::chrono_literals;
using looplab::testing::py;

namespace {

void say_at(const std::string& what) {
  looplab::testing::say_at(looplab::get_running_loop(), what);
}

looplab::Coro<int> sibling() {
  try {
    co_await looplab::sleep(2s);
  } catch (const looplab::CancelledError&) {
    say_at("sibling cancelled");
    throw;
  }
  say_at("sibling finished");
  co_return 2;
}

looplab::Coro<int> failing() {
  co_await looplab::sleep(1s);
  say_at("failing child raises ValueError('boom')");
  throw looplab::ValueError("boom");
}

looplab::Coro<void> main_task() {
  looplab::EventLoop& loop = looplab::get_running_loop();
  looplab::Task<int> other = looplab::create_task(loop, sibling());
  looplab::Task<int> bad = looplab::create_task(loop, failing());
  std::string caught;
  try {
    co_await looplab::gather(loop, other, bad);
  } catch (const looplab::ValueError& error) {
    caught = "ValueError";
    say_at("gather raised " + caught + ": " + error.what());
    say_at(std::string("sibling done? ") + py(other.done()));
  }
  co_await other;  // nobody else waits for it
  std::string fate = other.cancelled() ? "sibling-cancelled" : "sibling-finished";
  say_at("outcome: ('" + caught + "', '" + fate + "')");
}

}  // namespace

LOOPLAB_SCENARIO(gather_error_leaves_sibling_running) {
  looplab::VirtualClock clock;
  looplab::EventLoop loop(clock);
  loop.run_until_complete(looplab::create_task(loop, main_task()));
  loop.close();
}

// expect: t=1.000 failing child raises ValueError('boom')
// expect: t=1.000 gather raised ValueError: boom
// expect: t=1.000 sibling done? False
// expect: t=2.000 sibling finished
// expect: t=2.000 outcome: ('ValueError', 'sibling-finished')
