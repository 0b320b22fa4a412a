#include "looplab/concurrent_future.hpp"

#include <cstdint>
#include <exception>
#include <iostream>
#include <string>
#include <typeinfo>

namespace looplab::concurrent::detail {

const char* state_name(State state) noexcept {
  switch (state) {
    case State::kPending:
      return "PENDING";
    case State::kRunning:
      return "RUNNING";
    case State::kCancelled:
      return "CANCELLED";
    case State::kCancelledAndNotified:
      return "CANCELLED_AND_NOTIFIED";
    case State::kFinished:
      return "FINISHED";
  }
  return "?";
}

const char* state_description(State state) noexcept {
  switch (state) {
    case State::kPending:
      return "pending";
    case State::kRunning:
      return "running";
    case State::kCancelled:
    case State::kCancelledAndNotified:
      return "cancelled";
    case State::kFinished:
      return "finished";
  }
  return "?";
}

std::string class_name_of(const std::exception_ptr& error) {
  try {
    std::rethrow_exception(error);
  } catch (const std::exception& e) {
    std::string name = type_name(typeid(e));  // "concurrent::CancelledError"
    return name.substr(name.rfind(':') + 1);  // npos + 1 is 0: the whole name
  } catch (...) {
    return "BaseException";
  }
}

void report_callback_error(const std::string& future_repr,
                           const std::exception_ptr& error) noexcept {
  try {
    std::cerr << "exception calling callback for " << future_repr << "\n"
              << traceback_last_line(error) << std::endl;
  } catch (...) {  // nothing left to tell it to
  }
}

void report_unexpected_state(const void* future, State state) noexcept {
  try {
    // As _base.py logs id(self): a decimal number.
    std::cerr << "Future " << reinterpret_cast<std::uintptr_t>(future)
              << " in unexpected state: " << state_name(state) << std::endl;
  } catch (...) {  // nothing left to tell it to
  }
}

}  // namespace looplab::concurrent::detail
