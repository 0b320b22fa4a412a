// gather() gives the results in argument order, whatever order the children finish in.
#include "looplab/gather.hpp"
#include "scenarios/tasks/task_trace.hpp"

using namespace std::chrono_literals;
using looplab::testing::say_at;

namespace {

looplab::Coro<int> child(std::string name, std::chrono::milliseconds delay, int value) {
  co_await looplab::sleep(delay);
  say_at(looplab::get_running_loop(), name + " finishes");
  co_return value;
}

looplab::Coro<void> main_task() {
  looplab::EventLoop& loop = looplab::get_running_loop();
  looplab::Task<int> slow = looplab::create_task(loop, child("slow", 300ms, 1));
  looplab::Task<int> fast = looplab::create_task(loop, child("fast", 100ms, 2));
  looplab::Task<int> middle = looplab::create_task(loop, child("middle", 200ms, 3));
  std::vector<int> results = co_await looplab::gather(loop, slow, fast, middle);
  say_at(loop, "gather -> [" + std::to_string(results[0]) + ", " + std::to_string(results[1]) +
                   ", " + std::to_string(results[2]) + "]");
}

}  // namespace

LOOPLAB_SCENARIO(gather_order) {
  looplab::VirtualClock clock;
  looplab::EventLoop loop(clock);
  loop.run_until_complete(looplab::create_task(loop, main_task()));
  loop.close();
}

// expect: t=0.100 fast finishes
// expect: t=0.200 middle finishes
// expect: t=0.300 slow finishes
// expect: t=0.300 gather -> [1, 2, 3]
