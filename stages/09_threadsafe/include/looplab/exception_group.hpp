// exception_group.hpp: ExceptionGroup, several exceptions raised as one
// (Python's ExceptionGroup, PEP 654), and split(), what `except*` does.
//
// A TaskGroup whose children failed raises one ExceptionGroup holding every
// error, in the order the children failed. Python takes it apart with
// `except* ValueError as e:`, which handles the ValueErrors (at any depth of
// nesting) and re-raises the rest. C++ has no except*, so it is spelled with
// split():
//
//   } catch (const ExceptionGroup& group) {
//     auto [values, rest] = group.split<ValueError>();
//     if (values) { ... handle them ... }
//     if (rest) throw *rest;
//   }
#pragma once

#include <exception>
#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "looplab/exceptions.hpp"

namespace looplab {

class ExceptionGroup : public std::exception, public CustomRepr {
 public:
  /// Python's ExceptionGroup(message, exceptions). An empty list, or a null
  /// exception in it, is a ValueError, as in Python.
  ExceptionGroup(std::string message, std::vector<std::exception_ptr> exceptions);

  /// str(group): "message (1 sub-exception)", "message (3 sub-exceptions)".
  const char* what() const noexcept override { return what_.c_str(); }
  /// group.message
  const std::string& message() const noexcept { return message_; }
  /// group.exceptions, in order; an item may itself be an ExceptionGroup.
  const std::vector<std::exception_ptr>& exceptions() const noexcept { return exceptions_; }
  /// repr(group): "ExceptionGroup('message', [ValueError('x'), ...])".
  std::string repr() const override;

  /// The two halves of group.split(matches): the exceptions `matches`
  /// accepts and the others, each as a group with this message and the same
  /// nesting, or nullopt where that half is empty. A nested group that
  /// `matches` accepts goes whole into the first half.
  using Split = std::pair<std::optional<ExceptionGroup>, std::optional<ExceptionGroup>>;
  Split split_if(const std::function<bool(const std::exception_ptr&)>& matches) const;
  /// group.split(E): split by type, as `except* E` does.
  template <typename E>
  Split split() const {
    return split_if(&is_a<E>);
  }
  /// group.subgroup(E): the first half of split<E>().
  template <typename E>
  std::optional<ExceptionGroup> subgroup() const {
    return split<E>().first;
  }

 private:
  template <typename E>
  static bool is_a(const std::exception_ptr& error) {
    try {
      std::rethrow_exception(error);
    } catch (const E&) {
      return true;
    } catch (...) {
      return false;
    }
  }

  std::string message_;
  std::vector<std::exception_ptr> exceptions_;
  std::string what_;
};

}  // namespace looplab
