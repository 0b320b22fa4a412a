// Three threads post five callbacks each: every callback runs exactly once,
// and each thread's callbacks run in the order that thread posted them (how
// the threads interleave is up to the scheduler, so only each thread's own
// order is printed).
#include <string>
#include <thread>
#include <vector>

#include "looplab/event_loop.hpp"
#include "looplab/testing/scenario.hpp"

using looplab::testing::trace;

namespace {

std::string python_list(const std::vector<int>& values) {
  std::string text = "[";
  for (std::size_t i = 0; i < values.size(); ++i) {
    text += (i ? ", " : "") + std::to_string(values[i]);
  }
  return text + "]";
}

}  // namespace

LOOPLAB_SCENARIO(threadsafe_per_thread_order) {
  looplab::EventLoop loop;
  std::vector<std::vector<int>> seen(3);
  auto post = [&](int thread) {
    for (int i = 0; i < 5; ++i) {
      loop.call_soon_threadsafe([&seen, thread, i] { seen[thread].push_back(i); });
    }
  };
  std::vector<std::thread> threads;
  for (int thread = 0; thread < 3; ++thread) threads.emplace_back(post, thread);
  for (std::thread& thread : threads) thread.join();
  loop.call_soon([&] { loop.stop(); });
  loop.run_forever();
  for (int thread = 0; thread < 3; ++thread) {
    trace("thread " + std::to_string(thread) + ": " + python_list(seen[thread]));
  }
  loop.close();
}

// expect: thread 0: [0, 1, 2, 3, 4]
// expect: thread 1: [0, 1, 2, 3, 4]
// expect: thread 2: [0, 1, 2, 3, 4]
