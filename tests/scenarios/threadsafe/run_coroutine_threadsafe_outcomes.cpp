// Another thread starts coroutines on the loop with
// run_coroutine_threadsafe() and blocks on the concurrent future it gets: the
// result, the coroutine's exception, a timeout that cancels nothing, and a
// cancellation that reaches the task at its await.
#include <chrono>
#include <string>
#include <thread>
#include <vector>

#include "looplab/chain_future.hpp"
#include "looplab/event_loop.hpp"
#include "looplab/sleep.hpp"
#include "looplab/testing/scenario.hpp"

using looplab::testing::trace;
using namespace std::chrono_literals;

namespace {

looplab::Coro<int> answer(int value) {
  co_await looplab::sleep(0s);
  co_return value;
}

looplab::Coro<int> fail() {
  co_await looplab::sleep(0s);
  throw looplab::ValueError("from the coroutine");
}

looplab::Coro<int> wait_forever(std::vector<std::string>* log) {
  try {
    co_await looplab::sleep(3600s);
  } catch (const looplab::CancelledError&) {
    log->push_back("the task: cancelled at its await");
    throw;
  }
  co_return 0;
}

void caller(looplab::EventLoop* loop) {
  looplab::concurrent::Future<int> future = looplab::run_coroutine_threadsafe(answer(42), *loop);
  trace("result: " + std::to_string(future.result()));
  future = looplab::run_coroutine_threadsafe(fail(), *loop);
  try {
    future.result();
  } catch (const looplab::ValueError& error) {
    trace(std::string("ValueError: ") + error.what());
  }
  std::vector<std::string> log;
  future = looplab::run_coroutine_threadsafe(wait_forever(&log), *loop);
  try {
    future.result(1ms);
  } catch (const looplab::TimeoutError&) {
    trace("result(timeout): TimeoutError, and the task runs on");
  }
  trace(std::string("cancel(): ") + (future.cancel() ? "True" : "False"));
  try {
    future.result();
  } catch (const looplab::concurrent::CancelledError&) {
    trace("result(): concurrent CancelledError");
  }
  looplab::run_coroutine_threadsafe(answer(0), *loop).result();  // a turn for the task to hear it
  trace(log.at(0));
  loop->call_soon_threadsafe([loop] { loop->stop(); });
}

}  // namespace

LOOPLAB_SCENARIO(run_coroutine_threadsafe_outcomes) {
  looplab::EventLoop loop;
  std::thread thread;
  loop.call_soon([&] { thread = std::thread(caller, &loop); });
  loop.run_forever();
  thread.join();
  loop.close();
}

// expect: result: 42
// expect: ValueError: from the coroutine
// expect: result(timeout): TimeoutError, and the task runs on
// expect: cancel(): True
// expect: result(): concurrent CancelledError
// expect: the task: cancelled at its await
