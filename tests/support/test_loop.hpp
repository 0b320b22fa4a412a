// test_loop.hpp: the loop the tests drive, and the helpers every group shares.
//
// TestLoop is a loop on a virtual clock (no test waits for real time) whose
// exception handler records each report, driven turn by turn: asyncio's
// "loop.stop(); loop.run_forever()" is one turn.
#pragma once

#include <chrono>
#include <exception>
#include <string>
#include <vector>

#include "looplab/event_loop.hpp"
#include "support/run_one_turn.hpp"

namespace looplab::testing {

using namespace std::chrono_literals;

/// Seconds since the virtual clock's zero, for readable assertions.
inline double seconds(Clock::time_point t) {
  return std::chrono::duration<double>(t.time_since_epoch()).count();
}

/// The exception a callable throws, as "TypeName: what" ("" if it returns).
template <typename F>
std::string thrown_by(F&& fn) {
  try {
    fn();
  } catch (...) {
    return describe_exception(std::current_exception());
  }
  return "";
}

/// A loop on a virtual clock whose exception handler records each report as
/// "message | TypeName: what" (or just "message" when there is no exception).
struct TestLoop {
  std::vector<std::string> reports;  // first: the loop may report while it is destroyed
  VirtualClock clock;
  EventLoop loop{clock};

  TestLoop() {
    loop.set_exception_handler([this](EventLoop&, const ExceptionContext& context) {
      std::string line = context.message;
      if (context.exception) line += " | " + describe_exception(context.exception);
      reports.push_back(line);
    });
  }

  /// Runs exactly one turn.
  void turn() { run_one_turn(loop); }
  void turns(int count) {
    for (int i = 0; i < count; ++i) turn();
  }
  double now() const { return seconds(loop.time()); }

#if LOOPLAB_STAGE >= 5
  /// Runs turns until `future` is done; how many it took (-1 after `limit`).
  template <typename T>
  int turns_until_done(const Future<T>& future, int limit = 1000) {
    for (int count = 1; count <= limit; ++count) {
      turn();
      if (future.done()) return count;
    }
    return -1;
  }
  /// Runs the loop (timers included) until `future` is done, without
  /// retrieving its outcome, and one turn more (its done callbacks run).
  template <typename T>
  void run_until_done(const Future<T>& future) {
    if (future.done()) return;
    future.add_done_callback([this](Future<T>&) { loop.stop(); });
    loop.run_forever();
  }
#endif
};

}  // namespace looplab::testing
