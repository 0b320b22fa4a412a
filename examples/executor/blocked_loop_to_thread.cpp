// blocked_loop_to_thread.cpp: a heartbeat's lateness while a coroutine makes
// a blocking call, first in the coroutine, then through to_thread().
// book: run at build time
//
// Chapter 10 shows what this prints, next to its CPython twin
// (book/examples/blocked_loop_to_thread_asyncio.py, which prints the same
// table). A heartbeat task sleeps 20 ms at a time on the real clock and
// notes how late each wake-up was. The main coroutine makes a synchronous
// call of 200 ms (a sleep here; a blocking read or a synchronous database
// driver behaves the same) twice: once in its own body, where the loop's
// thread waits for it, and once through to_thread(), which runs it on a
// thread of the loop's default executor.
//
// Printed, for each: the thread the call ran on, how many beats the loop
// ran while the call lasted, and the worst lateness of a beat that waited
// while it ran, in whole milliseconds. Chapter 0's examples/io/blocked_loop.cpp is the
// same picture, beat by beat.
#include <pthread.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <string>
#include <thread>
#include <vector>

#include "looplab/event_loop.hpp"
#include "looplab/run.hpp"
#include "looplab/sleep.hpp"
#include "looplab/task.hpp"
#include "looplab/to_thread.hpp"

using namespace std::chrono_literals;
using looplab::Clock;
using looplab::Coro;

namespace {

constexpr auto kInterval = 20ms;  // the heartbeat's period
constexpr auto kCall = 200ms;     // how long the blocking call takes

struct Beat {
  Clock::time_point due, ran;
};

// "the loop's thread", or the name the executor gave the thread (asyncio_0).
std::string thread_name(std::thread::id loop_thread) {
  if (std::this_thread::get_id() == loop_thread) return "the loop's thread";
  char name[16] = {};
  pthread_getname_np(pthread_self(), name, sizeof name);
  return name;
}

std::string blocking_call(std::thread::id loop_thread) {
  std::this_thread::sleep_for(kCall);  // the synchronous call
  return thread_name(loop_thread);
}

Coro<void> heartbeat(std::vector<Beat>* beats) {
  looplab::EventLoop& loop = looplab::get_running_loop();
  for (;;) {
    Clock::time_point due = loop.time() + kInterval;
    co_await looplab::sleep(kInterval);
    beats->push_back({due, loop.time()});
  }
}

long milliseconds(Clock::duration d) {
  return std::lround(std::chrono::duration<double, std::milli>(d).count());
}

void report(const char* how, const std::string& thread, const std::vector<Beat>& beats,
            Clock::time_point start, Clock::time_point end) {
  int during = 0;
  Clock::duration late{};
  for (const Beat& beat : beats) {
    if (start < beat.ran && beat.ran < end) ++during;
    // A beat that waited while the call ran: due before it ended, run after it began.
    if (beat.due <= end && beat.ran >= start && beat.ran - beat.due > late)
      late = beat.ran - beat.due;
  }
  std::printf("%-22s %-18s %6d %13ld\n", how, thread.c_str(), during, milliseconds(late));
}

void print_header() {
  std::printf("heartbeat every %ld ms; a coroutine makes a %ld ms blocking call, twice\n",
              milliseconds(kInterval), milliseconds(kCall));
  std::printf("%-22s %-18s %6s %13s\n", "the call", "ran on", "beats", "worst late ms");
}

// [two_calls]
Coro<void> main_coro() {
  looplab::EventLoop& loop = looplab::get_running_loop();
  const std::thread::id loop_thread = std::this_thread::get_id();
  std::vector<Beat> beats;
  looplab::Task<void> beating = looplab::create_task(loop, heartbeat(&beats));
  print_header();

  co_await looplab::sleep(100ms);
  Clock::time_point start = loop.time();
  std::string thread = blocking_call(loop_thread);  // in the coroutine: the loop waits
  Clock::time_point end = loop.time();
  co_await looplab::sleep(100ms);  // the heartbeat catches up
  report("in the coroutine", thread, beats, start, end);

  start = loop.time();
  thread = co_await looplab::to_thread(blocking_call, loop_thread);  // the loop goes on
  end = loop.time();
  co_await looplab::sleep(100ms);
  report("through to_thread()", thread, beats, start, end);

  beating.cancel();
}
// [two_calls]

}  // namespace

int main() {
  std::setvbuf(stdout, nullptr, _IONBF, 0);
  looplab::run(main_coro());
}
