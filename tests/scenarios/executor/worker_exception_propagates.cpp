// An exception the function throws in the worker reaches the awaiting
// coroutine with its own type and message, through run_in_executor() and
// to_thread() alike; the future keeps it as its exception().
#include <exception>
#include <string>

#include "looplab/event_loop.hpp"
#include "looplab/run.hpp"
#include "looplab/to_thread.hpp"
#include "scenarios/executor/executor_trace.hpp"

using looplab::testing::trace;
using looplab::testing::executor::show;

namespace {

class ParseError : public looplab::ValueError {
 public:
  using ValueError::ValueError;
};

std::string parse_failure(const std::string& text) { return "cannot parse '" + text + "'"; }

std::string parse(const std::string& text) { throw ParseError(parse_failure(text)); }

int divide(int a, int b) {
  if (b == 0) throw looplab::RuntimeError("division by zero");
  return a / b;
}

// type(error).__name__
const char* type_name(const std::exception& error) {
  if (dynamic_cast<const ParseError*>(&error) != nullptr) return "ParseError";
  if (dynamic_cast<const looplab::ValueError*>(&error) != nullptr) return "ValueError";
  if (dynamic_cast<const looplab::RuntimeError*>(&error) != nullptr) return "RuntimeError";
  return "?";
}

void show_error(const std::string& label, const std::exception& error) {
  trace(label + type_name(error) + ": " + error.what());
}

looplab::Coro<void> main_coroutine() {
  looplab::EventLoop& loop = looplab::get_running_loop();
  looplab::Future<std::string> parsed = loop.run_in_executor(nullptr, parse, std::string("x1"));
  try {
    co_await parsed;
  } catch (const looplab::ValueError& error) {
    show_error("run_in_executor: ", error);
  }
  looplab::Coro<std::string> in_thread = looplab::to_thread(parse, std::string("y2"));
  try {
    co_await std::move(in_thread);
  } catch (const looplab::ValueError& error) {
    show_error("to_thread: ", error);
  }
  looplab::Future<int> future = loop.run_in_executor(nullptr, divide, 1, 0);
  try {
    co_await future;
  } catch (const looplab::RuntimeError&) {
  }
  try {
    std::rethrow_exception(future.exception());
  } catch (const std::exception& error) {
    show_error("exception(): ", error);
  }
  looplab::Coro<int> next = looplab::to_thread(divide, 7, 2);
  int quotient = co_await std::move(next);
  show("the next call works: ", quotient);
}

}  // namespace

LOOPLAB_SCENARIO(worker_exception_propagates) { looplab::run(main_coroutine()); }

// expect: run_in_executor: ParseError: cannot parse 'x1'
// expect: to_thread: ParseError: cannot parse 'y2'
// expect: exception(): RuntimeError: division by zero
// expect: the next call works: 3
