// result() and exception() in each state, and resolving a future twice.
#include "scenarios/futures/futures_trace.hpp"

using looplab::Future;
using looplab::testing::py_bool;
using looplab::testing::trace;

namespace {

template <typename F>
void show(const std::string& label, F&& call) {
  try {
    trace(label + " -> " + call());
  } catch (...) {
    trace(label + " raises " + looplab::describe_exception(std::current_exception()));
  }
}

std::string exception_of(const Future<int>& future) {
  std::exception_ptr error = future.exception();
  return error ? looplab::describe_exception(error) : "None";
}

}  // namespace

LOOPLAB_SCENARIO(result_and_exception_in_each_state) {
  looplab::VirtualClock clock;
  looplab::EventLoop loop(clock);
  Future<int> pending = loop.create_future<int>();
  show("pending: result()", [&] { return std::to_string(pending.result()); });
  show("pending: exception()", [&] { return exception_of(pending); });
  Future<int> finished = loop.create_future<int>();
  finished.set_result(42);
  show("finished: result()", [&] { return std::to_string(finished.result()); });
  show("finished: exception()", [&] { return exception_of(finished); });
  Future<int> failed = loop.create_future<int>();
  failed.set_exception(looplab::ValueError("boom"));
  show("failed: result()", [&] { return std::to_string(failed.result()); });
  show("failed: exception()", [&] { return exception_of(failed); });
  Future<int> cancelled = loop.create_future<int>();
  cancelled.cancel();
  show("cancelled: result()", [&] { return std::to_string(cancelled.result()); });
  show("cancelled: exception()", [&] { return exception_of(cancelled); });
  for (auto [label, future] : {std::pair<const char*, Future<int>>{"finished", finished},
                               {"failed", failed},
                               {"cancelled", cancelled}}) {
    try {
      future.set_result(1);
    } catch (const looplab::InvalidStateError&) {
      trace(std::string(label) + ": set_result() raises InvalidStateError");
    }
    try {
      future.set_exception(looplab::ValueError("late"));
    } catch (const looplab::InvalidStateError&) {
      trace(std::string(label) + ": set_exception() raises InvalidStateError");
    }
  }
  trace(std::string("done(): ") + py_bool(pending.done()) + " " + py_bool(finished.done()) + " " +
        py_bool(failed.done()) + " " + py_bool(cancelled.done()));
  trace(std::string("cancelled(): ") + py_bool(pending.cancelled()) + " " +
        py_bool(finished.cancelled()) + " " + py_bool(failed.cancelled()) + " " +
        py_bool(cancelled.cancelled()));
  loop.close();
}

// expect: pending: result() raises InvalidStateError: Result is not set.
// expect: pending: exception() raises InvalidStateError: Exception is not set.
// expect: finished: result() -> 42
// expect: finished: exception() -> None
// expect: failed: result() raises ValueError: boom
// expect: failed: exception() -> ValueError: boom
// expect: cancelled: result() raises CancelledError
// expect: cancelled: exception() raises CancelledError
// expect: finished: set_result() raises InvalidStateError
// expect: finished: set_exception() raises InvalidStateError
// expect: failed: set_result() raises InvalidStateError
// expect: failed: set_exception() raises InvalidStateError
// expect: cancelled: set_result() raises InvalidStateError
// expect: cancelled: set_exception() raises InvalidStateError
// expect: done(): False True True True
// expect: cancelled(): False False False True
