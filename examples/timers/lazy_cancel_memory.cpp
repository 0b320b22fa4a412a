// lazy_cancel_memory.cpp: the memory that lazy cancellation keeps, measured for a
// service that sets a timeout per request and cancels it when it answers.
// book: run at build time
//
// Chapter 2 shows what this prints ("What laziness costs"). 10,000 open
// connections each hold a keep-alive timer due in 5 s; every request sets a
// 60 s timeout (call_later) and cancels it when its answer is sent, and the
// loop runs one turn every 100 requests. A cancelled 60 s timer sits behind
// the 5 s ones, so the turn cannot pop it off the top: it stays in the heap,
// counted, until cancelled timers are more than half of it and the heap is
// rebuilt. The other run, first, is the same service with its 10,000 live
// timers due in an hour instead: each dead timeout is then earlier than every
// live timer, reaches the top, and the next turn pops it.
//
// Measured: the heap's entries and the loop's count of cancelled ones, the
// bytes malloc has handed out (mallinfo2) and the resident memory of the
// process (/proc/self/statm), both counted from the moment the live timers
// are in place, so they are what the dead timeouts cost. The clock
// is virtual (nothing waits), so the counts are exact and the run is quick.
#include <malloc.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <vector>

#include "looplab/event_loop.hpp"

using namespace std::chrono_literals;
using looplab::EventLoop;
using looplab::TimerHandle;
using looplab::VirtualClock;

namespace {

constexpr int kConnections = 10'000;
constexpr int kRequests = 25'000;
constexpr int kRequestsPerTurn = 100;
constexpr int kRowEvery = 2'500;

double heap_kib() { return static_cast<double>(mallinfo2().uordblks) / 1024.0; }

double resident_kib() {
  std::ifstream statm("/proc/self/statm");
  long pages = 0;
  long resident = 0;
  statm >> pages >> resident;
  return static_cast<double>(resident) * static_cast<double>(sysconf(_SC_PAGESIZE)) / 1024.0;
}

void run_service(const char* title, std::chrono::seconds live_in) {
  std::printf("%s\n", title);
  std::printf("%9s %13s %10s %13s %13s\n", "requests", "heap entries", "cancelled", "malloc'd KiB",
              "resident KiB");
  VirtualClock clock;
  EventLoop loop(clock);
  std::vector<TimerHandle> live;
  for (int i = 0; i < kConnections; ++i) live.push_back(loop.call_later(live_in, [] {}));
  double heap0 = heap_kib();
  double resident0 = resident_kib();
  std::size_t largest = 0;
  std::size_t most_dead = 0;
  double most_dead_kib = 0;
  auto row = [&](int requests) {
    std::printf("%9d %13zu %10zu %13.0f %13.0f\n", requests, loop.scheduled_count(),
                loop.timer_cancelled_count(), heap_kib() - heap0, resident_kib() - resident0);
  };
  row(0);
  for (int request = 1; request <= kRequests; ++request) {
    TimerHandle timeout = loop.call_later(60s, [] {});  // the request's timeout
    timeout.cancel();                                   // answered in time
    if (loop.scheduled_count() > largest) {
      largest = loop.scheduled_count();
      most_dead = loop.timer_cancelled_count();
      most_dead_kib = heap_kib() - heap0;
    }
    if (request % kRequestsPerTurn == 0) {
      loop.stop();  // stop() before run_forever(): exactly one turn
      loop.run_forever();
    }
    if (request % kRowEvery == 0) row(request);
  }
  std::printf("largest heap: %zu entries, %zu of them cancelled", largest, most_dead);
  if (most_dead > 0) {
    std::printf(", holding %.0f KiB: %.0f bytes per dead timer", most_dead_kib,
                most_dead_kib * 1024.0 / static_cast<double>(most_dead));
  }
  std::printf("\n\n");
  for (TimerHandle& timer : live) timer.cancel();
  loop.close();
}

}  // namespace

// Each run in a process of its own, so that neither starts with the memory the
// other freed (malloc's free lists, the handle pool's cached blocks).
int main() {
  auto in_child = [](const char* title, std::chrono::seconds live_in) {
    std::fflush(stdout);
    pid_t child = fork();
    if (child == 0) {
      run_service(title, live_in);
      std::fflush(stdout);
      _exit(0);
    }
    int status = 0;
    return child > 0 && waitpid(child, &status, 0) == child && WIFEXITED(status) &&
           WEXITSTATUS(status) == 0;
  };
  bool ok =
      in_child("10,000 live timers due in an hour, after every timeout: the dead reach the top",
               3600s) &&
      in_child("10,000 live timers due in 5 s, before every timeout: the dead sink below them", 5s);
  return ok ? 0 : 1;
}
