// executor_trace.hpp: what the executor scenarios print, written as Python
// prints it (True/False, ['a', 'b'], [1, 4]), so each C++ twin prints the
// lines of its CPython twin.
//
// The lines are built here, in plain functions, and the scenarios'
// coroutines only call show(): g++ 12 at -O2 (the tsan preset) warns
// falsely about string concatenation inside a coroutine. Coroutines take
// their parameters by value and name every temporary before a co_await
// uses it (pitfall P1).
#pragma once

#include <cstddef>
#include <mutex>
#include <string>
#include <vector>

#include "looplab/testing/scenario.hpp"

namespace looplab::testing::executor {

using looplab::testing::trace;

inline const char* py(bool value) { return value ? "True" : "False"; }

/// Python's repr() of a list of str: ['a', 'b'].
inline std::string py_list(const std::vector<std::string>& items) {
  std::string text = "[";
  for (std::size_t i = 0; i < items.size(); ++i) {
    text += (i == 0 ? "'" : ", '") + items[i] + "'";
  }
  return text + "]";
}

/// Python's repr() of a list of int: [1, 4].
inline std::string py_list(const std::vector<int>& items) {
  std::string text = "[";
  for (std::size_t i = 0; i < items.size(); ++i) {
    text += (i == 0 ? "" : ", ") + std::to_string(items[i]);
  }
  return text + "]";
}

inline void show(const std::string& label, const std::string& value) { trace(label + value); }
inline void show(const std::string& label, const char* value) { trace(label + value); }
inline void show(const std::string& label, int value) { trace(label + std::to_string(value)); }
inline void show(const std::string& label, bool value) { trace(label + py(value)); }

/// A list of str that worker threads append to and the loop's thread reads.
class SharedList {
 public:
  void append(const std::string& item) {
    std::lock_guard lock(mutex_);
    items_.push_back(item);
  }
  std::vector<std::string> snapshot() const {
    std::lock_guard lock(mutex_);
    return items_;
  }
  std::string repr() const { return py_list(snapshot()); }

 private:
  mutable std::mutex mutex_;
  std::vector<std::string> items_;
};

}  // namespace looplab::testing::executor
