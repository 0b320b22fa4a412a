// demo.cpp: stage 09 in one page. Run it: build/dev/bin/demo_s09
//
// A worker thread and a loop, talking both ways. The worker hands the loop
// three results with call_soon_threadsafe(): the loop has nothing else to
// do, so it sleeps in its selector, and each post wakes it through the
// self-pipe. Then the worker asks the loop for a value with
// run_coroutine_threadsafe() and blocks on the concurrent future it gets,
// while a task on the loop awaits what the worker computes, through
// wrap_future(). Only the loop's thread prints, so the output is the same
// on every run.
#include <cstdio>
#include <string>
#include <thread>

#include "looplab/chain_future.hpp"
#include "looplab/event_loop.hpp"
#include "looplab/sleep.hpp"
#include "looplab/task.hpp"

using looplab::Coro;
using looplab::EventLoop;

// [demo]
void say(const std::string& what) { std::printf("  loop: %s\n", what.c_str()); }

Coro<int> answer_the_worker() {
  say("a task started by the worker answers 42");
  co_return 42;
}

Coro<void> await_the_worker(looplab::concurrent::Future<int> from_worker) {
  looplab::Future<int> wrapped = looplab::wrap_future(from_worker);
  int value = co_await wrapped;
  say("the task awaited the worker's " + std::to_string(value));
}

int main() {
  EventLoop loop;
  looplab::concurrent::Future<int> from_worker;
  std::thread worker([&loop, from_worker] {
    for (int i = 1; i <= 3; ++i) {
      loop.call_soon_threadsafe([i] { say("got " + std::to_string(i * i) + " from the worker"); });
    }
    int answer = looplab::run_coroutine_threadsafe(answer_the_worker(), loop).result();
    loop.call_soon_threadsafe([answer] {
      say("the worker got " + std::to_string(answer) + " back, and now computes 7");
    });
    from_worker.set_result(7);
  });
  std::printf("The loop watches %zu descriptor of its own, its self-pipe:\n",
              loop.selector().size());
  loop.run_until_complete(await_the_worker(from_worker));
  worker.join();
  loop.close();
}
// [demo]
