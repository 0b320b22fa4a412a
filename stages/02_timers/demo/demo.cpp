// demo.cpp: stage 02 in one page. Run it: build/dev/bin/demo_s02
//
// Timers on a virtual clock: nothing here waits for real time, so the output
// is the same on every machine, and the book includes it.
#include <chrono>
#include <cstdio>

#include "looplab/event_loop.hpp"

using namespace std::chrono_literals;
using looplab::EventLoop;
using looplab::VirtualClock;

// [demo]
int main() {
  VirtualClock clock;  // jumps to the next deadline instead of sleeping
  EventLoop loop(clock);
  auto say = [&loop](const char* what) {
    double now = std::chrono::duration<double>(loop.time().time_since_epoch()).count();
    std::printf("t=%.3f s  %s\n", now, what);
  };

  loop.call_later(300ms, [&] { say("call_later(300ms)"); });
  loop.call_later(100ms,
                  [&] { say("call_later(100ms): deadlines decide, not the order of the calls"); });
  loop.call_soon([&] { say("call_soon: ready now, runs first"); });
  auto cancelled = loop.call_later(200ms, [&] { say("never printed"); });
  cancelled.cancel();  // stays in the heap, skipped when it reaches the top
  loop.call_at(loop.time() + 1s, [&] {
    say("call_at(now + 1s): stop");
    loop.stop();
  });
  loop.run_forever();
  loop.close();
}
// [demo]
