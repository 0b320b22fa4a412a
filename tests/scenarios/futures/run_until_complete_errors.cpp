// What run_until_complete() raises: the future's exception, CancelledError, and its own errors.
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
    trace(label + ": " + looplab::describe_exception(std::current_exception()));
  }
}

}  // namespace

LOOPLAB_SCENARIO(run_until_complete_errors) {
  looplab::VirtualClock clock;
  looplab::EventLoop loop(clock);
  looplab::EventLoop other(clock);
  show("future of another loop",
       [&] { return std::to_string(loop.run_until_complete(other.create_future<int>())); });

  Future<std::string> pending = loop.create_future<std::string>();
  loop.call_soon([&] { loop.stop(); });
  show("loop stopped first", [&] { return loop.run_until_complete(pending); });
  trace(std::string("pending done() -> ") + py_bool(pending.done()));

  Future<std::string> failed = loop.create_future<std::string>();
  loop.call_soon([&] { failed.set_exception(looplab::ValueError("failed")); });
  show("failed future", [&] { return loop.run_until_complete(failed); });

  Future<std::string> cancelled = loop.create_future<std::string>();
  loop.call_soon([&] { cancelled.cancel("enough"); });
  show("cancelled future", [&] { return loop.run_until_complete(cancelled); });

  loop.call_soon([&] { pending.set_result("late"); });
  show("the first future, completed now", [&] { return loop.run_until_complete(pending); });

  loop.close();
  show("closed loop",
       [&] { return std::to_string(loop.run_until_complete(loop.create_future<int>())); });
  other.close();
}

// The first line is longer than clang-format's 100 columns: keep it whole.
// clang-format off
// expect: future of another loop: ValueError: The future belongs to a different loop than the one specified as the loop argument
// expect: loop stopped first: RuntimeError: Event loop stopped before Future completed.
// expect: pending done() -> False
// expect: failed future: ValueError: failed
// expect: cancelled future: CancelledError: enough
// expect: the first future, completed now -> late
// expect: closed loop: RuntimeError: Event loop is closed
// clang-format on
