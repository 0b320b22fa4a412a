// exceptions.hpp: the errors the loop raises, named as asyncio names them.
//
// Python's exception types become C++ classes of the same name, so a test or
// a reader can match "RuntimeError: Event loop is closed" in both languages.
#pragma once

#include <exception>
#include <stdexcept>
#include <string>
#include <string_view>
#include <system_error>

namespace looplab {

/// Python's RuntimeError: the loop is in the wrong state for the call.
class RuntimeError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// Python's TypeError: the argument has the wrong kind (an empty callback).
class TypeError : public std::invalid_argument {
 public:
  using std::invalid_argument::invalid_argument;
};

/// Python's ValueError: the argument has the right kind but a bad value.
class ValueError : public std::invalid_argument {
 public:
  using std::invalid_argument::invalid_argument;
};

/// Python's OSError: a system call failed; code() is the errno.
class OSError : public std::system_error {
 public:
  OSError(int error_number, const std::string& what)
      : std::system_error(error_number, std::generic_category(), what) {}
};

/// Python's LookupError: ContextVar::get() on a variable with no value.
class LookupError : public std::out_of_range {
 public:
  using std::out_of_range::out_of_range;
};

// asyncio reports every exception that escapes a callback to the exception
// handler and keeps running, except these two, which end run_forever(): a
// program that calls exit() or receives Ctrl-C must stop, not log and go on.
// looplab does the same with these two types and nothing else.

/// What escapes the loop instead of being reported: the two BaseExceptions
/// that asyncio lets through (`except (SystemExit, KeyboardInterrupt): raise`).
/// Each place that lets them pass catches this base, once.
class LoopExit : public std::exception {};

/// Python's SystemExit: escapes the loop instead of being reported.
class SystemExit : public LoopExit {
 public:
  explicit SystemExit(int code = 0) : code_(code) {}
  int code() const noexcept { return code_; }
  const char* what() const noexcept override { return "SystemExit"; }

 private:
  int code_;
};

/// Python's KeyboardInterrupt: escapes the loop instead of being reported.
class KeyboardInterrupt : public LoopExit {
 public:
  const char* what() const noexcept override { return "KeyboardInterrupt"; }
};

/// "TypeName: message", the way Python prints an exception; used in reports.
std::string describe_exception(const std::exception_ptr& error);

/// Python's repr() of an exception, "TypeName('message')" ("TypeName()" if it
/// has none, "TypeName(errno, 'strerror')" for an OSError), as a report
/// shows one inside another value's repr.
std::string exception_repr(const std::exception_ptr& error);

/// Python's repr() of a str: in single quotes, or in double quotes if it
/// holds a single quote and no double one; backslashes escaped, and the
/// characters Python does not print (controls, U+00A0, U+200B...) as its
/// hexadecimal escapes. UTF-8 text; other bytes pass through.
std::string python_repr(std::string_view text);

}  // namespace looplab
