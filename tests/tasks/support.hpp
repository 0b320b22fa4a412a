// Helpers shared by the task tests: a virtual-clock loop that records what
// reaches its exception handler, a trace the coroutines write into, and
// turn-by-turn driving ("loop.stop(); loop.run_forever()" is one turn).
//
// Coroutines in these tests take everything by value or by pointer (chapter
// 6, pitfalls P3 and P4): a Coro's frame outlives the statement that makes
// it, so a reference parameter bound to a temporary would dangle.
#pragma once

#include <chrono>
#include <exception>
#include <string>
#include <utility>
#include <vector>

#include "looplab/coro.hpp"
#include "looplab/event_loop.hpp"
#include "looplab/future.hpp"
#include "looplab/sleep.hpp"
#include "looplab/task.hpp"
#include "support/run_one_turn.hpp"

namespace looplab::testing {

using namespace std::chrono_literals;

/// Seconds since the virtual clock's zero.
inline double seconds(Clock::time_point t) {
  return std::chrono::duration<double>(t.time_since_epoch()).count();
}

/// What the coroutines of a test write, in order.
using Log = std::vector<std::string>;

/// A loop on a virtual clock whose exception handler records each report as
/// "message | TypeName: what" (or just "message" when there is no exception).
struct TaskLoop {
  std::vector<std::string> reports;  // first: the loop may report while it is destroyed
  VirtualClock clock;
  EventLoop loop{clock};

  TaskLoop() {
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
  double now() const { return seconds(loop.time()); }
};

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

/// The message of the CancelledError a callable throws, "(no CancelledError)" otherwise.
template <typename F>
std::string cancelled_message_of(F&& fn) {
  try {
    fn();
  } catch (const CancelledError& error) {
    return error.message();
  } catch (...) {
  }
  return "(no CancelledError)";
}

/// "TypeName: what" of an exception_ptr ("" for null).
inline std::string describe(const std::exception_ptr& error) {
  return error ? describe_exception(error) : "";
}

/// Counts its own destructions: a coroutine's parameters and locals live in
/// its frame, so this shows when a frame is destroyed.
struct DestructionCounter {
  int* count;
  explicit DestructionCounter(int* counter) : count(counter) {}
  DestructionCounter(DestructionCounter&& other) noexcept
      : count(std::exchange(other.count, nullptr)) {}
  DestructionCounter(const DestructionCounter&) = delete;
  DestructionCounter& operator=(const DestructionCounter&) = delete;
  DestructionCounter& operator=(DestructionCounter&&) = delete;
  ~DestructionCounter() {
    if (count != nullptr) ++*count;
  }
};

}  // namespace looplab::testing
