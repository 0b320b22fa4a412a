// A loop with nothing to do but a timer an hour away sleeps in its
// selector; another thread's call_soon_threadsafe() wakes it at once, and a
// posted loop.stop() ends run_forever() long before the timer is due.
#include <chrono>
#include <string>
#include <thread>

#include "looplab/event_loop.hpp"
#include "looplab/testing/scenario.hpp"

using looplab::testing::trace;
using namespace std::chrono_literals;

LOOPLAB_SCENARIO(threadsafe_stop_from_another_thread) {
  looplab::EventLoop loop;
  looplab::TimerHandle timer =
      loop.call_later(3600s, [] { trace("the timer (never: it is an hour away)"); });
  std::thread thread;
  loop.call_soon([&] {
    thread = std::thread([&loop] {
      loop.call_soon_threadsafe([] { trace("posted by the thread"); });
      loop.call_soon_threadsafe([&loop] { loop.stop(); });
    });
  });
  loop.run_forever();
  thread.join();
  trace(std::string("run_forever() returned; the timer is still pending: ") +
        (timer.cancelled() ? "False" : "True"));
  timer.cancel();
  loop.close();
}

// expect: posted by the thread
// expect: run_forever() returned; the timer is still pending: True
