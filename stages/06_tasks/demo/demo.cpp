// demo.cpp: stage 06 in one page. Run it: build/dev/bin/demo_s06
//
// Coroutines and tasks: two tasks that sleep and report, awaited with
// gather(); a third cancelled while it sleeps, which catches the
// cancellation to clean up; all under run(), asyncio.run()'s twin. The
// clock is virtual, so the output is the same on every machine.
#include <chrono>
#include <cstdio>
#include <string>

#include "looplab/gather.hpp"
#include "looplab/run.hpp"
#include "looplab/sleep.hpp"
#include "looplab/task.hpp"

using namespace std::chrono_literals;
using looplab::Coro;
using looplab::Task;

// [demo]
void say(const std::string& what) {
  double now =
      std::chrono::duration<double>(looplab::get_running_loop().time().time_since_epoch()).count();
  std::printf("t=%.3f s  %s\n", now, what.c_str());
}

Coro<int> worker(std::string name, std::chrono::milliseconds nap, int value) {
  say(name + " starts");
  co_await looplab::sleep(nap);
  say(name + " is done");
  co_return value;
}

Coro<void> sleeper() {
  try {
    co_await looplab::sleep(10s);
  } catch (const looplab::CancelledError& error) {
    say(std::string("sleeper cancelled: ") + error.what() + "; cleaning up");
    throw;  // stay cancelled
  }
}

Coro<int> main_task() {
  looplab::EventLoop& loop = looplab::get_running_loop();
  Task<void> sleeping = looplab::create_task(loop, sleeper());
  Task<int> slow = looplab::create_task(loop, worker("slow", 2000ms, 2));
  Task<int> fast = looplab::create_task(loop, worker("fast", 500ms, 1));
  std::vector<int> results = co_await looplab::gather(loop, slow, fast);
  say("gather: " + std::to_string(results[0]) + ", " + std::to_string(results[1]));
  sleeping.cancel("no more sleeping");
  try {
    co_await sleeping;
  } catch (const looplab::CancelledError&) {
    say("sleeper ended cancelled");
  }
  co_return results[0] + results[1];
}

int main() {
  looplab::VirtualClock clock;
  int total = looplab::run(main_task(), clock);
  std::printf("run() returned %d\n", total);
}
// [demo]
