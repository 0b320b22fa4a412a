// Helpers shared by the task tests: a trace the coroutines write into, and
// what the tests ask of a cancellation or a frame (the loop they drive is
// support/test_loop.hpp's TestLoop).
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
#include "support/test_loop.hpp"

namespace looplab::testing {

/// What the coroutines of a test write, in order.
using Log = std::vector<std::string>;

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
