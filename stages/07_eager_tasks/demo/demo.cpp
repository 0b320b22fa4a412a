// demo.cpp: stage 07 in one page. Run it: build/dev/bin/demo_s07
//
// Eager tasks: the same fan-out of lookups twice, lazily and then with the
// loop's eager_task_factory. Most lookups hit a cache and never wait; the
// eager run finishes each of those inside create_task(), before the next
// line of main runs, and only the miss reaches the loop. The clock is
// virtual, so the output is the same on every machine.
#include <chrono>
#include <cstdio>
#include <string>
#include <vector>

#include "looplab/gather.hpp"
#include "looplab/run.hpp"
#include "looplab/sleep.hpp"
#include "looplab/task.hpp"

using namespace std::chrono_literals;
using looplab::Coro;

// [demo]
void say(const std::string& what) { std::printf("  %s\n", what.c_str()); }

Coro<int> lookup(int key) {
  if (key != 3) {  // a cache hit: no wait at all
    say("lookup " + std::to_string(key) + ": cached");
    co_return key * 10;
  }
  say("lookup " + std::to_string(key) + ": miss, fetching");
  co_await looplab::sleep(100ms);
  say("lookup " + std::to_string(key) + ": fetched");
  co_return key * 10;
}

Coro<int> fan_out() {
  looplab::EventLoop& loop = looplab::get_running_loop();
  std::vector<looplab::Future<int>> tasks;  // Tasks, as the Futures gather() takes
  for (int key = 1; key <= 4; ++key) {
    tasks.push_back(looplab::create_task(loop, lookup(key)));
    say("created task for " + std::to_string(key) +
        "; done: " + (tasks.back().done() ? "yes" : "no"));
  }
  std::vector<int> values = co_await looplab::gather(loop, tasks);
  co_return values[0] + values[1] + values[2] + values[3];
}

Coro<int> main_task(bool eager) {
  if (eager) looplab::get_running_loop().set_task_factory(looplab::eager_task_factory);
  co_return co_await fan_out();
}

int main() {
  for (bool eager : {false, true}) {
    std::printf("%s tasks:\n", eager ? "eager" : "lazy");
    looplab::VirtualClock clock;
    int total = looplab::run(main_task(eager), clock);
    std::printf("  run() returned %d\n", total);
  }
}
// [demo]
