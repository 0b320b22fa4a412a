// blocked_loop.cpp: a heartbeat timer's lateness while one callback blocks the loop.
// book: run at build time
//
// Chapter 0 shows what this prints ("Blocking the loop"). A heartbeat runs
// every 50 ms on the real clock, rescheduling itself with call_later as
// periodic work in asyncio does; at 120 ms one callback makes a synchronous
// call that takes 250 ms (a sleep here; a blocking read or a synchronous
// database driver behaves the same). The loop is in debug mode, so it also
// names the slow callback, as asyncio's debug mode does.
//
// Printed: when each heartbeat was due, when it ran and how late it was,
// rounded to 10 ms; the CPU time the process used during the blocking call;
// and the loop's own report. The debug report goes to standard error, which
// is sent to standard output here so that the lines come in order.
#include <time.h>
#include <unistd.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <functional>
#include <thread>

#include "looplab/event_loop.hpp"

using namespace std::chrono_literals;
using looplab::Clock;
using looplab::EventLoop;
using looplab::SteadyClock;

namespace {

constexpr auto kInterval = 50ms;
constexpr int kBeats = 6;

double cpu_seconds() {
  timespec now{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &now);
  return static_cast<double>(now.tv_sec) + static_cast<double>(now.tv_nsec) / 1e9;
}

// Milliseconds rounded to tens: the shape, not the noise of one run.
long tens_of_ms(double seconds) { return std::lround(seconds * 100.0) * 10; }

}  // namespace

int main() {
  dup2(STDOUT_FILENO, STDERR_FILENO);
  std::setvbuf(stdout, nullptr, _IONBF, 0);
  SteadyClock clock;
  EventLoop loop(clock);
  loop.set_debug(true);  // asyncio's loop.set_debug(True): report callbacks slower than 100 ms
  const auto start = loop.time();
  auto seconds = [&](Clock::time_point t) {
    return std::chrono::duration<double>(t - start).count();
  };

  std::printf("heartbeat every 50 ms; at 120 ms one callback blocks for 250 ms\n");
  std::printf("%6s %9s %9s %9s\n", "beat", "due (ms)", "ran (ms)", "late (ms)");
  int beat = 0;
  Clock::time_point due = start + kInterval;
  std::function<void()> heartbeat = [&] {
    auto now = loop.time();
    ++beat;
    std::printf("%6d %9ld %9ld %9ld\n", beat, tens_of_ms(seconds(due)), tens_of_ms(seconds(now)),
                tens_of_ms(seconds(now) - seconds(due)));
    if (beat == kBeats) {
      loop.stop();
      return;
    }
    due = now + kInterval;
    loop.call_later(kInterval, [&] { heartbeat(); });
  };
  loop.call_later(kInterval, [&] { heartbeat(); });
  loop.call_later(120ms, [&] {
    double cpu_before = cpu_seconds();
    std::this_thread::sleep_for(250ms);  // the synchronous call
    std::printf("%6s %9s %9ld  the blocking call returns; CPU time it used: %ld ms\n", "", "",
                tens_of_ms(seconds(loop.time())), tens_of_ms(cpu_seconds() - cpu_before));
  });
  loop.run_forever();
  loop.close();
}
