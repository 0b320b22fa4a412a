// A Runner keeps one loop and one Context across run() calls: a task the
// first call left pending goes on during the second, what the first main
// task set the second one sees (a token from one call resets in the next),
// and close() ends as run() does: it cancels what is left. A closed Runner
// refuses run() and get_loop().
#include <optional>
#include <string>

#include "looplab/context.hpp"
#include "looplab/runner.hpp"
#include "looplab/sleep.hpp"
#include "looplab/task.hpp"
#include "scenarios/executor/executor_trace.hpp"

using looplab::testing::trace;
using looplab::testing::executor::show;
using namespace std::chrono_literals;

namespace {

looplab::ContextVar<std::string> request_id("request_id", "none");
std::optional<looplab::Token<std::string>> first_token;

looplab::Coro<void> ticker() {
  try {
    for (int n = 0; n < 100; ++n) {
      show("ticker: tick ", n);
      co_await looplab::sleep(0s);
    }
  } catch (const looplab::CancelledError&) {
    trace("ticker: cancelled");
    throw;
  }
}

looplab::Coro<void> first() {
  (void)looplab::create_task(looplab::get_running_loop(), ticker());
  first_token.emplace(request_id.set("r-1"));
  show("first: request_id=", request_id.get());
  co_return;
}

looplab::Coro<int> second() {
  show("second: request_id=", request_id.get());
  co_await looplab::sleep(0s);
  request_id.reset(*first_token);
  show("second: after reset request_id=", request_id.get());
  co_return 2;
}

void show_error(const std::string& call, const std::exception& error) {
  trace(call + ": RuntimeError: " + error.what());
}

}  // namespace

LOOPLAB_SCENARIO(runner_keeps_loop_and_context) {
  {
    looplab::Runner runner;
    runner.run(first());
    trace("between the calls");
    show("second returned ", runner.run(second()));
    show("outside: request_id=", request_id.get());
    runner.close();  // the end of Python's `with` block
    trace("closed");
    try {
      runner.run(second());
    } catch (const looplab::RuntimeError& error) {
      show_error("run", error);
    }
    try {
      (void)runner.get_loop();
    } catch (const looplab::RuntimeError& error) {
      show_error("get_loop", error);
    }
  }
}

// expect: first: request_id=r-1
// expect: ticker: tick 0
// expect: between the calls
// expect: ticker: tick 1
// expect: second: request_id=r-1
// expect: ticker: tick 2
// expect: second: after reset request_id=none
// expect: ticker: tick 3
// expect: second returned 2
// expect: outside: request_id=none
// expect: ticker: cancelled
// expect: closed
// expect: run: RuntimeError: Runner is closed
// expect: get_loop: RuntimeError: Runner is closed
