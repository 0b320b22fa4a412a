// reprlib.hpp: values as Python's repr() shows them: a timer's "when=" (a
// float), and a future's "result=" (asyncio shortens it with reprlib).
//
// Only the types Python has a counterpart of are shown: bool (True, False),
// integers, floating point (Python's shortest float repr), std::string and
// std::string_view (quoted; shortened to 'abc...xyz' once the quoted text,
// escapes counted, passes 30 characters)
// std::monostate (None), and a std::vector of any of these, a Python list
// (at most 6 items, then "...": gather()'s result). A type may show itself
// with a reprlib_repr(level) member, if HasReprlibRepr says it can (the
// Outcome of gather_return_exceptions(): a value or an exception). For any
// other type reprlib_repr() is empty, and the repr leaves "result=" out.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <type_traits>
#include <variant>
#include <vector>

namespace looplab {

/// repr(x) of a Python float: "1.0", "0.1", "1e+16", "1e-05", "nan", "-inf".
std::string python_float_repr(double value);
/// reprlib.repr(s) of a Python str: repr(s), or, if that is longer than 30
/// characters, its first 13 and last 14 around "...".
std::string reprlib_string_repr(std::string_view text);

/// reprlib's repr_instance, for a value that is not a str, number or list
/// (an exception in gather()'s list): its `repr`, or, if that is longer than
/// 30 characters, its first 13 and last 14 around "...".
std::string reprlib_other_repr(std::string repr);

/// Whether reprlib_repr() can show a T: whether Python has a counterpart.
template <typename T>
struct HasReprlibRepr : std::bool_constant<std::is_arithmetic_v<T> && !std::is_same_v<T, char>> {};
template <>
struct HasReprlibRepr<std::string> : std::true_type {};
template <>
struct HasReprlibRepr<std::string_view> : std::true_type {};
template <>
struct HasReprlibRepr<std::monostate> : std::true_type {};
template <typename T, typename Allocator>
struct HasReprlibRepr<std::vector<T, Allocator>> : HasReprlibRepr<T> {};

/// reprlib.repr(value), or "" for a type Python has no counterpart of.
/// `level`: how many more lists deep it may look (reprlib's maxlevel, 6).
template <typename T>
std::string reprlib_repr(const T& value, int level = 6) {
  if constexpr (!HasReprlibRepr<T>::value) {
    return {};
  } else if constexpr (std::is_same_v<T, bool>) {
    return value ? "True" : "False";
  } else if constexpr (std::is_integral_v<T> && !std::is_same_v<T, char>) {
    return std::to_string(value);
  } else if constexpr (std::is_floating_point_v<T>) {
    return python_float_repr(static_cast<double>(value));
  } else if constexpr (std::is_same_v<T, std::string> || std::is_same_v<T, std::string_view>) {
    return reprlib_string_repr(value);
  } else if constexpr (std::is_same_v<T, std::monostate>) {
    return "None";  // looplab's value for "no value"
  } else if constexpr (requires { value.reprlib_repr(level); }) {
    return value.reprlib_repr(level);  // a type that shows itself (gather's Outcome)
  } else {
    // reprlib's repr_list: "[...]" below maxlevel, 6 items (maxlist) at most.
    if (value.empty()) return "[]";
    if (level <= 0) return "[...]";
    constexpr std::size_t kMaxList = 6;
    std::string shown = "[";
    for (std::size_t i = 0; i < value.size() && i < kMaxList; ++i) {
      if (i > 0) shown += ", ";
      shown += reprlib_repr(value[i], level - 1);
    }
    return shown + (value.size() > kMaxList ? ", ...]" : "]");
  }
}

}  // namespace looplab
