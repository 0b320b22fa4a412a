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
#include <typeinfo>
#include <utility>

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
/// One looplab raises about its own calls says which ("epoll_wait() failed:
/// Bad file descriptor"); one made as Python's socket calls make it
/// (make_os_error()) reads as Python's str() does: "[Errno 104] Connection
/// reset by peer".
class OSError : public std::system_error {
 public:
  OSError(int error_number, const std::string& what)
      : std::system_error(error_number, std::generic_category(), what) {}
  /// Python's OSError(errno, strerror); strerror is the errno's text unless given.
  struct AsPython {
    std::string strerror;
  };
  OSError(int error_number, AsPython python)
      : std::system_error(error_number, std::generic_category()),
        strerror_(std::move(python.strerror)),
        python_text_("[Errno " + std::to_string(error_number) + "] " + strerror()) {}

  const char* what() const noexcept override {
    return python_text_.empty() ? std::system_error::what() : python_text_.c_str();
  }
  /// Python's e.strerror: the text given for the error, else its number's.
  std::string strerror() const { return strerror_.empty() ? code().message() : strerror_; }

 private:
  std::string strerror_;
  std::string python_text_;  // what(), for an error made as Python makes it
};

/// Python's ConnectionError and its subclasses, which Python's OSError(errno,
/// text) becomes for these errnos: a program may catch the one it expects.
class ConnectionError : public OSError {
 public:
  using OSError::OSError;
};
/// EPIPE, ESHUTDOWN.
class BrokenPipeError : public ConnectionError {
 public:
  using ConnectionError::ConnectionError;
};
/// ECONNABORTED.
class ConnectionAbortedError : public ConnectionError {
 public:
  using ConnectionError::ConnectionError;
};
/// ECONNREFUSED.
class ConnectionRefusedError : public ConnectionError {
 public:
  using ConnectionError::ConnectionError;
};
/// ECONNRESET.
class ConnectionResetError : public ConnectionError {
 public:
  using ConnectionError::ConnectionError;
};
/// ENOENT (a Unix socket's path that does not exist).
class FileNotFoundError : public OSError {
 public:
  using OSError::OSError;
};
/// EACCES, EPERM.
class PermissionError : public OSError {
 public:
  using OSError::OSError;
};
/// EEXIST.
class FileExistsError : public OSError {
 public:
  using OSError::OSError;
};
/// ENOTDIR (a Unix socket's path through a file that is not a directory).
class NotADirectoryError : public OSError {
 public:
  using OSError::OSError;
};
/// EISDIR.
class IsADirectoryError : public OSError {
 public:
  using OSError::OSError;
};
/// EAGAIN (EWOULDBLOCK), EALREADY, EINPROGRESS.
class BlockingIOError : public OSError {
 public:
  using OSError::OSError;
};
/// EINTR.
class InterruptedError : public OSError {
 public:
  using OSError::OSError;
};
/// ESRCH.
class ProcessLookupError : public OSError {
 public:
  using OSError::OSError;
};
/// ECHILD.
class ChildProcessError : public OSError {
 public:
  using OSError::OSError;
};

/// What Python's OSError(errno, strerror) becomes, as a socket call raises
/// it: the subclass above for its errno, else a plain OSError; what() is
/// "[Errno N] strerror", strerror the errno's text unless given. (Python's
/// ETIMEDOUT is a TimeoutError, an OSError; looplab's TimeoutError is not
/// one, and ETIMEDOUT stays a plain OSError.)
std::exception_ptr make_os_error(int error_number, std::string strerror = {});

/// Python's LookupError: ContextVar::get() on a variable with no value.
class LookupError : public std::out_of_range {
 public:
  using std::out_of_range::out_of_range;
};

/// A base for an exception whose Python repr() is not "TypeName('message')":
/// exception_repr() asks it (stage 08's ExceptionGroup lists its exceptions).
class CustomRepr {
 public:
  virtual std::string repr() const = 0;

 protected:
  CustomRepr() = default;
  CustomRepr(const CustomRepr&) = default;
  CustomRepr(CustomRepr&&) = default;
  CustomRepr& operator=(const CustomRepr&) = default;
  CustomRepr& operator=(CustomRepr&&) = default;
  ~CustomRepr() = default;  // never deleted through this base
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
class SystemExit : public LoopExit, public CustomRepr {
 public:
  /// sys.exit(): no code (Python's None), which exits with status 0.
  SystemExit() = default;
  /// sys.exit(code).
  explicit SystemExit(int code) : code_(code), text_(std::to_string(code)) {}
  int code() const noexcept { return code_; }
  /// str(SystemExit(3)): "3", str(SystemExit(0)): "0"; without a code, nothing.
  const char* what() const noexcept override {
    return text_.empty() ? "SystemExit" : text_.c_str();
  }
  /// repr: SystemExit(3), SystemExit(0), or SystemExit() without a code.
  std::string repr() const override { return "SystemExit(" + text_ + ")"; }

 private:
  int code_ = 0;
  std::string text_;  // empty without a code
};

/// Python's KeyboardInterrupt: escapes the loop instead of being reported.
class KeyboardInterrupt : public LoopExit {
 public:
  const char* what() const noexcept override { return "KeyboardInterrupt"; }
};

// [future_errors]
/// asyncio.CancelledError: what waiting on a cancelled Future raises. Like
/// Python's (a BaseException since 3.8), it is not one of the "ordinary"
/// errors above: catch it by name, and only to clean up or to decide that
/// the cancellation is refused. what() is the message given to cancel(msg),
/// empty when there was none (Python's str(CancelledError())).
class CancelledError : public std::exception {
 public:
  explicit CancelledError(std::string message = {}) : message_(std::move(message)) {}
  /// CancelledError(message) even for an empty message, whose repr is then
  /// CancelledError(''), as gather(return_exceptions=True) makes one. An
  /// empty message otherwise stands for Python's None: CancelledError().
  static CancelledError with_message(std::string message) {
    CancelledError error(std::move(message));
    error.has_message_ = true;
    return error;
  }
  const char* what() const noexcept override { return message_.c_str(); }
  const std::string& message() const noexcept { return message_; }
  bool has_message() const noexcept { return has_message_ || !message_.empty(); }

 private:
  std::string message_;
  bool has_message_ = false;
};

/// asyncio.InvalidStateError: a Future asked for what it does not have yet
/// (result() while pending) or told twice how it ended.
class InvalidStateError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// Python's TimeoutError (asyncio.TimeoutError since 3.11): a timeout()
/// scope or wait_for() ran out of time. Python's is an OSError; this one is
/// not (an OSError here carries an errno): catch TimeoutError itself.
class TimeoutError : public std::runtime_error {
 public:
  TimeoutError() : std::runtime_error("TimeoutError") {}
};
// [future_errors]

/// The readable name of a type, without "looplab::": "ValueError" rather
/// than "N7looplab10ValueErrorE".
std::string type_name(const std::type_info& type);

/// "TypeName: message", the way Python prints an exception; used in reports.
std::string describe_exception(const std::exception_ptr& error);
/// The same as the last line of Python's traceback writes it: asyncio's own
/// types with their module, "asyncio.exceptions.CancelledError: why" (the
/// loop's default exception handler, a worker's report).
std::string traceback_last_line(const std::exception_ptr& error);

/// Python's repr() of an exception, "TypeName('message')" ("TypeName()" if it
/// has none, "TypeName(errno, 'strerror')" for an OSError, its own repr()
/// for a CustomRepr), as a report shows one inside another value's repr.
std::string exception_repr(const std::exception_ptr& error);

/// Python's repr() of a str: in single quotes, or in double quotes if it
/// holds a single quote and no double one; backslashes escaped, and the
/// characters Python does not print (controls, U+00A0, U+200B...) as its
/// hexadecimal escapes. UTF-8 text; other bytes pass through.
std::string python_repr(std::string_view text);

/// Whether `error` holds a CancelledError (Python: isinstance(exc, CancelledError)).
bool is_cancelled_error(const std::exception_ptr& error) noexcept;

/// Whether `error` holds SystemExit or KeyboardInterrupt, which leave the
/// loop (Python: isinstance(exc, (SystemExit, KeyboardInterrupt))).
bool is_loop_exit(const std::exception_ptr& error) noexcept;

}  // namespace looplab
