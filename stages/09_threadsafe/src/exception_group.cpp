#include "looplab/exception_group.hpp"

#include <string>

#include "looplab/exceptions.hpp"

namespace looplab {

ExceptionGroup::ExceptionGroup(std::string message, std::vector<std::exception_ptr> exceptions)
    // A vector of exception_ptr is initialised here, not an exception left unthrown:
    // NOLINTNEXTLINE(bugprone-throw-keyword-missing)
    : message_(std::move(message)), exceptions_(std::move(exceptions)) {
  if (exceptions_.empty())
    throw ValueError("second argument (exceptions) must be a non-empty sequence");
  for (std::size_t i = 0; i < exceptions_.size(); ++i) {
    if (!exceptions_[i]) {
      throw ValueError("Item " + std::to_string(i) +
                       " of second argument (exceptions) is not an exception");
    }
    // Python's ExceptionGroup holds Exceptions only; these are its BaseExceptions.
    if (is_loop_exit(exceptions_[i]) || is_cancelled_error(exceptions_[i])) {
      throw TypeError("Cannot nest BaseExceptions in an ExceptionGroup");
    }
  }
  std::size_t count = exceptions_.size();
  what_ = message_ + " (" + std::to_string(count) +
          (count == 1 ? " sub-exception)" : " sub-exceptions)");
}

std::string ExceptionGroup::repr() const {
  std::string text = "ExceptionGroup(" + python_repr(message_) + ", [";
  for (std::size_t i = 0; i < exceptions_.size(); ++i) {
    if (i > 0) text += ", ";
    text += exception_repr(exceptions_[i]);
  }
  return text + "])";
}

// [exception_group_split]
ExceptionGroup::Split ExceptionGroup::split_if(
    const std::function<bool(const std::exception_ptr&)>& matches) const {
  // [split_if_body]
  if (matches(std::make_exception_ptr(*this))) return {*this, std::nullopt};  // all of it
  std::vector<std::exception_ptr> matched;
  std::vector<std::exception_ptr> rest;
  for (const std::exception_ptr& error : exceptions_) {
    if (matches(error)) {
      matched.push_back(error);
      continue;
    }
    try {
      std::rethrow_exception(error);
    } catch (const ExceptionGroup& nested) {  // split the nested group the same way
      auto [nested_matched, nested_rest] = nested.split_if(matches);
      if (nested_matched) matched.push_back(std::make_exception_ptr(*nested_matched));
      if (nested_rest) rest.push_back(std::make_exception_ptr(*nested_rest));
    } catch (...) {
      rest.push_back(error);
    }
  }
  auto group_of = [this](std::vector<std::exception_ptr> errors) -> std::optional<ExceptionGroup> {
    if (errors.empty()) return std::nullopt;
    return ExceptionGroup(message_, std::move(errors));
  };
  return {group_of(std::move(matched)), group_of(std::move(rest))};
  // [split_if_body]
}
// [exception_group_split]

}  // namespace looplab
