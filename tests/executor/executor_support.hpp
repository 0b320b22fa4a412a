// executor_support.hpp: what the executor group's tests share.
//
// The files of a group are compiled eight to a translation unit and share
// one anonymous namespace there, so a helper two files need lives here,
// once. None of these waits for time to pass: a worker blocked in a test is
// released by the test (a latch, a barrier), and the watchdog only turns a
// deadlock into a clear failure instead of ctest's timeout.
#pragma once

#include <gtest/gtest.h>
#include <pthread.h>

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "looplab/chain_future.hpp"
#include "looplab/event_loop.hpp"
#include "looplab/thread_pool_executor.hpp"
#include "looplab/to_thread.hpp"

namespace looplab::testing {

/// Aborts the test binary, naming the test, if it is still running after
/// `limit`: a deadlocked worker (or a loop waiting for one) fails with a
/// message instead of hanging until ctest's 60 s. Never part of a result.
class Watchdog {
 public:
  explicit Watchdog(std::chrono::seconds limit = std::chrono::seconds(50))
      : thread_([this, limit] { watch(limit); }) {}
  Watchdog(const Watchdog&) = delete;
  Watchdog& operator=(const Watchdog&) = delete;
  ~Watchdog() {
    {
      std::lock_guard lock(mutex_);
      disarmed_ = true;
    }
    changed_.notify_all();
    thread_.join();
  }

 private:
  void watch(std::chrono::seconds limit) {
    const ::testing::TestInfo* test = ::testing::UnitTest::GetInstance()->current_test_info();
    std::string name = test != nullptr ? std::string(test->test_suite_name()) + "." + test->name()
                                       : std::string("a test");
    std::unique_lock lock(mutex_);
    if (!changed_.wait_for(lock, limit, [this] { return disarmed_; })) {
      std::fprintf(stderr, "watchdog: %s still running after %lld s: a deadlock?\n", name.c_str(),
                   static_cast<long long>(limit.count()));
      std::fflush(stderr);
      std::abort();
    }
  }

  std::mutex mutex_;
  std::condition_variable changed_;
  bool disarmed_ = false;
  std::thread thread_;  // last: it starts once the rest is built
};

/// A fixture whose every test runs under a watchdog.
class Watched : public ::testing::Test {
 protected:
  Watchdog watchdog_;
};

/// The name the calling thread was given (pthread_setname_np), as `ps` shows it.
inline std::string current_thread_name() {
  char name[64] = {};
  pthread_getname_np(pthread_self(), name, sizeof name);
  return name;
}

/// How many of this process's threads have a name that starts with `prefix`.
inline int threads_named(const std::string& prefix) {
  int count = 0;
  std::error_code error;
  for (const auto& entry : std::filesystem::directory_iterator("/proc/self/task", error)) {
    std::ifstream comm(entry.path() / "comm");
    std::string name;
    std::getline(comm, name);
    if (name.rfind(prefix, 0) == 0) ++count;
  }
  return count;
}

/// LOOPLAB_STRESS_CALLBACKS (default a million), the scale of the stress
/// tests of chapters 9 and 10; an executor's item costs about twenty
/// callbacks (a future, a lock, a wake-up each way), so it runs a twentieth.
inline int stress_items() {
  const char* chosen = std::getenv("LOOPLAB_STRESS_CALLBACKS");
  int callbacks = chosen != nullptr ? std::atoi(chosen) : 1'000'000;
  return std::max(callbacks / 20, 100);
}

/// Blocks until `pool` refuses new work: another thread is then inside its
/// shutdown(). The probes it submits before that are no-ops the pool runs.
inline void wait_until_refused(concurrent::ThreadPoolExecutor& pool) {
  for (;;) {
    try {
      (void)pool.submit([] {});
    } catch (const RuntimeError&) {
      return;
    }
    std::this_thread::yield();
  }
}

/// The parts, joined: coroutines build their strings here, in a plain
/// function (g++ 12 at -O2 warns falsely of concatenation inside one).
template <typename... Parts>
std::string concat(const Parts&... parts) {
  std::string out;
  ((out += parts), ...);
  return out;
}

/// An exception handler that records each report as "message | TypeName: what".
inline void record_reports(EventLoop& loop, std::vector<std::string>& reports) {
  loop.set_exception_handler([&reports](EventLoop&, const ExceptionContext& context) {
    std::string line = context.message;
    if (context.exception) line += " | " + describe_exception(context.exception);
    reports.push_back(line);
  });
}

}  // namespace looplab::testing
