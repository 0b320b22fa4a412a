// run_coroutine_threadsafe() and wrap_future(): a loop's futures chained to
// other threads' futures, each outcome copied across and a cancellation
// passed back the other way.
#include "looplab/chain_future.hpp"

#include <gtest/gtest.h>

#include <chrono>
#include <string>
#include <thread>

#include "looplab/sleep.hpp"
#include "support/test_loop.hpp"

namespace looplab {
namespace {

using namespace std::chrono_literals;
using testing::thrown_by;

Coro<int> answer(int value) {
  co_await sleep(0s);
  co_return value;
}

Coro<int> fail() {
  co_await sleep(0s);
  throw ValueError("from the coroutine");
}

TEST(RunCoroutineThreadsafe, TheThreadGetsTheResult) {
  EventLoop loop;
  int got = 0;
  std::thread caller([&] {
    concurrent::Future<int> future = run_coroutine_threadsafe(answer(42), loop);
    got = future.result();
    loop.call_soon_threadsafe([&loop] { loop.stop(); });
  });
  loop.run_forever();
  caller.join();
  EXPECT_EQ(got, 42);
}

TEST(RunCoroutineThreadsafe, TheThreadGetsTheException) {
  EventLoop loop;
  std::string got;
  std::thread caller([&] {
    concurrent::Future<int> future = run_coroutine_threadsafe(fail(), loop);
    got = thrown_by([&] { future.result(); });
    loop.call_soon_threadsafe([&loop] { loop.stop(); });
  });
  loop.run_forever();
  caller.join();
  EXPECT_EQ(got, "ValueError: from the coroutine");
}

Coro<int> exits_at_once() {
  throw SystemExit(3);
  co_return 0;
}

// asyncio re-raises SystemExit and KeyboardInterrupt before it would give
// the thread the exception: they leave the loop, the future stays pending.
TEST(RunCoroutineThreadsafe, SystemExitInAnEagerFirstStepLeavesTheFuturePending) {
  EventLoop loop;
  loop.set_task_factory(eager_task_factory);
  concurrent::Future<int> future;
  std::thread caller([&] { future = run_coroutine_threadsafe(exits_at_once(), loop); });
  caller.join();
  EXPECT_THROW(loop.run_forever(), SystemExit);
  EXPECT_FALSE(future.done());
}

Coro<int> wait_forever(std::string* log) {
  try {
    co_await sleep(24h);
  } catch (const CancelledError&) {
    *log = "cancelled at its await";
    throw;
  }
  co_return 0;
}

TEST(RunCoroutineThreadsafe, CancellingTheFutureCancelsTheTask) {
  EventLoop loop;
  std::string log;
  std::string got;
  std::thread caller([&] {
    concurrent::Future<int> future = run_coroutine_threadsafe(wait_forever(&log), loop);
    EXPECT_EQ(thrown_by([&] { future.result(1ms); }), "TimeoutError");
    future.cancel();
    got = thrown_by([&] { future.result(); });
    // The task hears of it on the loop, a turn later; then stop.
    concurrent::Future<int> after = run_coroutine_threadsafe(answer(0), loop);
    after.result();
    loop.call_soon_threadsafe([&loop] { loop.stop(); });
  });
  loop.run_forever();
  caller.join();
  EXPECT_EQ(got, "concurrent::CancelledError");
  EXPECT_EQ(log, "cancelled at its await");
}

TEST(RunCoroutineThreadsafe, AClosedLoopRefusesAndTheCoroutineNeverRuns) {
  EventLoop loop;
  loop.close();
  std::string error;
  std::thread([&] {
    error = thrown_by([&] { (void)run_coroutine_threadsafe(answer(1), loop); });
  }).join();
  EXPECT_EQ(error, "RuntimeError: Event loop is closed");
}

Coro<std::string> await_wrapped(concurrent::Future<int> source) {
  Future<int> wrapped = wrap_future(std::move(source));
  int value = co_await wrapped;
  co_return "awaited " + std::to_string(value);
}

TEST(WrapFuture, ATaskAwaitsWhatAnotherThreadComputes) {
  EventLoop loop;
  concurrent::Future<int> source;
  std::thread worker([source] { source.set_result(7); });
  EXPECT_EQ(loop.run_until_complete(await_wrapped(source)), "awaited 7");
  worker.join();
}

TEST(WrapFuture, CancellingTheLoopsFutureCancelsAPendingSource) {
  testing::TestLoop t;
  concurrent::Future<int> source;
  Future<int> wrapped = wrap_future(source, t.loop);
  wrapped.cancel();
  EXPECT_FALSE(source.cancelled());  // the loop's done callback does it, a turn later
  t.turn();
  EXPECT_TRUE(source.cancelled());
}

TEST(WrapFuture, ARunningSourceRefusesTheCancelAndItsResultIsDroppedLater) {
  testing::TestLoop t;
  concurrent::Future<int> source;
  ASSERT_TRUE(source.set_running_or_notify_cancel());  // a thread has started the work
  Future<int> wrapped = wrap_future(source, t.loop);
  wrapped.cancel();
  t.turn();
  EXPECT_FALSE(source.cancelled());  // a running thread cannot be stopped
  source.set_result(1);
  t.turns(2);
  EXPECT_TRUE(wrapped.cancelled());
}

TEST(WrapFuture, AConcurrentCancelledErrorArrivesAsAsyncios) {
  testing::TestLoop t;
  concurrent::Future<int> source;
  ASSERT_TRUE(source.set_running_or_notify_cancel());
  source.set_exception(std::make_exception_ptr(concurrent::CancelledError()));
  Future<int> wrapped = wrap_future(source, t.loop);
  t.turns(2);
  ASSERT_TRUE(wrapped.done());
  EXPECT_EQ(describe_exception(wrapped.exception()), "CancelledError");
}

TEST(WrapFuture, CloseForgetsWhatWasChained) {
  concurrent::Future<int> source;
  {
    testing::TestLoop t;
    Future<int> wrapped = wrap_future(source, t.loop);
    t.loop.close();
  }
  source.set_result(1);  // the loop is gone: nothing is posted anywhere
  EXPECT_EQ(source.result(), 1);
}

}  // namespace
}  // namespace looplab
