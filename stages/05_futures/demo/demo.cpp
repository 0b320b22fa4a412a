// demo.cpp: stage 05 in one page. Run it: build/dev/bin/demo_s05
//
// A future, two done callbacks and a timer that resolves it: the callbacks
// run one turn after the future completes, never inline, in the order they
// were added, interleaved with what else is queued. Then sleep() as a
// future, and run_until_complete(). The clock is virtual, so the output is
// the same on every machine.
#include <chrono>
#include <cstdio>
#include <string>

#include "looplab/event_loop.hpp"
#include "looplab/sleep.hpp"

using namespace std::chrono_literals;
using looplab::EventLoop;
using looplab::Future;
using looplab::VirtualClock;

// [demo]
int main() {
  VirtualClock clock;
  EventLoop loop(clock);
  auto say = [&loop](const std::string& what) {
    double now = std::chrono::duration<double>(loop.time().time_since_epoch()).count();
    std::printf("t=%.3f s  %s\n", now, what.c_str());
  };

  Future<int> answer = loop.create_future<int>();
  answer.add_done_callback(
      [&](Future<int>& f) { say("callback A sees " + std::to_string(f.result())); });
  answer.add_done_callback(
      [&](Future<int>& f) { say("callback B sees " + std::to_string(f.result())); });
  loop.call_later(1s, [&] {
    say("timer: set_result(42)");
    answer.set_result(42);
    loop.call_soon([&] { say("queued after set_result: runs after A and B"); });
    say("timer: set_result returned; no callback has run yet");
  });
  int result = loop.run_until_complete(answer);
  say("run_until_complete returned " + std::to_string(result));

  Future<void> nap = looplab::sleep(loop, 500ms);
  loop.run_until_complete(nap);
  say("slept 0.5 s");
  loop.close();
}
// [demo]
