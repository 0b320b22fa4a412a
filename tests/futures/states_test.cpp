// Future states and accessors (asyncio-semantics.md 5.1): pending, then
// exactly one of finished (result or exception) and cancelled.
#include <gtest/gtest.h>

#include <exception>
#include <memory>
#include <stdexcept>
#include <string>
#include <type_traits>

#include "futures/support.hpp"
#include "looplab/event_loop.hpp"

namespace looplab {
namespace {

using testing::thrown_by;

TEST(FutureStates, ANewFutureIsPendingAndBelongsToItsLoop) {
  VirtualClock clock;
  EventLoop loop(clock);
  Future<int> future = loop.create_future<int>();
  EXPECT_FALSE(future.done());
  EXPECT_FALSE(future.cancelled());
  EXPECT_EQ(&future.get_loop(), &loop);
  EXPECT_EQ(future.repr(), "<Future pending>");
}

TEST(FutureStates, ResultWhilePendingIsInvalidStateErrorWithAsyncioMessage) {
  VirtualClock clock;
  EventLoop loop(clock);
  Future<int> future = loop.create_future<int>();
  EXPECT_EQ(thrown_by([&] { future.result(); }), "InvalidStateError: Result is not set.");
  EXPECT_EQ(thrown_by([&] { future.exception(); }), "InvalidStateError: Exception is not set.");
  EXPECT_FALSE(future.done());  // asking changes nothing
}

TEST(FutureStates, VoidFutureWhilePendingHasTheSameMessages) {
  VirtualClock clock;
  EventLoop loop(clock);
  Future<> future = loop.create_future();
  EXPECT_EQ(thrown_by([&] { future.result(); }), "InvalidStateError: Result is not set.");
  EXPECT_EQ(thrown_by([&] { future.exception(); }), "InvalidStateError: Exception is not set.");
}

TEST(FutureStates, FinishedWithAResultGivesTheValueAndANullException) {
  VirtualClock clock;
  EventLoop loop(clock);
  Future<int> future = loop.create_future<int>();
  future.set_result(42);
  EXPECT_TRUE(future.done());
  EXPECT_FALSE(future.cancelled());
  EXPECT_EQ(future.result(), 42);
  EXPECT_EQ(future.result(), 42);  // as often as asked
  EXPECT_EQ(future.exception(), nullptr);
  EXPECT_EQ(future.repr(), "<Future finished result=42>");
}

TEST(FutureStates, FinishedWithAnExceptionRethrowsItAndExceptionReturnsTheSameObject) {
  VirtualClock clock;
  EventLoop loop(clock);
  Future<int> future = loop.create_future<int>();
  std::exception_ptr error = std::make_exception_ptr(ValueError("boom"));
  future.set_exception(error);
  EXPECT_TRUE(future.done());
  EXPECT_FALSE(future.cancelled());
  EXPECT_EQ(future.exception(), error);
  EXPECT_EQ(thrown_by([&] { future.result(); }), "ValueError: boom");
  EXPECT_EQ(future.repr(), "<Future finished exception=ValueError('boom')>");
}

TEST(FutureStates, SetExceptionTakesAnExceptionObjectToo) {
  VirtualClock clock;
  EventLoop loop(clock);
  Future<> future = loop.create_future();
  future.set_exception(RuntimeError("from an object"));
  EXPECT_EQ(thrown_by([&] { future.result(); }), "RuntimeError: from an object");
}

TEST(FutureStates, CancelledRaisesCancelledErrorFromResultAndException) {
  VirtualClock clock;
  EventLoop loop(clock);
  Future<int> future = loop.create_future<int>();
  EXPECT_TRUE(future.cancel());
  EXPECT_TRUE(future.done());
  EXPECT_TRUE(future.cancelled());
  EXPECT_THROW(future.result(), CancelledError);
  EXPECT_THROW(future.exception(), CancelledError);
  EXPECT_EQ(future.repr(), "<Future cancelled>");
}

TEST(FutureStates, SetResultTwiceIsInvalidStateErrorAndKeepsTheFirstValue) {
  VirtualClock clock;
  EventLoop loop(clock);
  Future<int> future = loop.create_future<int>();
  future.set_result(1);
  EXPECT_THROW(future.set_result(2), InvalidStateError);
  EXPECT_THROW(future.set_exception(ValueError("late")), InvalidStateError);
  EXPECT_EQ(future.result(), 1);
  EXPECT_EQ(future.exception(), nullptr);
}

TEST(FutureStates, SetExceptionTwiceIsInvalidStateErrorAndKeepsTheFirstException) {
  VirtualClock clock;
  EventLoop loop(clock);
  Future<int> future = loop.create_future<int>();
  future.set_exception(ValueError("first"));
  EXPECT_THROW(future.set_exception(ValueError("second")), InvalidStateError);
  EXPECT_THROW(future.set_result(3), InvalidStateError);
  EXPECT_EQ(thrown_by([&] { future.result(); }), "ValueError: first");
}

TEST(FutureStates, ACancelledFutureCannotBeResolved) {
  VirtualClock clock;
  EventLoop loop(clock);
  Future<int> future = loop.create_future<int>();
  future.cancel();
  EXPECT_THROW(future.set_result(1), InvalidStateError);
  EXPECT_THROW(future.set_exception(ValueError("x")), InvalidStateError);
  EXPECT_TRUE(future.cancelled());
}

TEST(FutureStates, InvalidStateErrorSaysInvalidStateAsCPythonsCFutureDoes) {
  VirtualClock clock;
  EventLoop loop(clock);
  Future<int> future = loop.create_future<int>();
  future.set_result(1);
  try {
    future.set_result(2);
    FAIL() << "set_result twice did not throw";
  } catch (const InvalidStateError& error) {
    EXPECT_TRUE(std::string(error.what()).starts_with("invalid state")) << error.what();
  }
}

TEST(FutureStates, CopiesShareOneFuture) {
  VirtualClock clock;
  EventLoop loop(clock);
  Future<int> future = loop.create_future<int>();
  Future<int> copy = future;
  EXPECT_TRUE(copy == future);
  EXPECT_FALSE(loop.create_future<int>() == future);
  future.set_result(7);
  EXPECT_TRUE(copy.done());
  EXPECT_EQ(copy.result(), 7);
}

TEST(FutureStates, AMoveOnlyValueIsMovedInAndReadInPlace) {
  VirtualClock clock;
  EventLoop loop(clock);
  auto future = loop.create_future<std::unique_ptr<int>>();
  future.set_result(std::make_unique<int>(5));
  ASSERT_NE(future.result(), nullptr);
  EXPECT_EQ(*future.result(), 5);
  std::unique_ptr<int> taken = std::move(future.result());  // result() is a reference
  EXPECT_EQ(*taken, 5);
}

TEST(FutureStates, TheErrorTypesAreAsyncios) {
  // CancelledError is a BaseException in Python: not one of the ordinary errors.
  static_assert(std::is_base_of_v<std::exception, CancelledError>);
  static_assert(!std::is_base_of_v<std::runtime_error, CancelledError>);
  static_assert(!std::is_base_of_v<std::invalid_argument, CancelledError>);
  static_assert(std::is_base_of_v<std::runtime_error, InvalidStateError>);
  EXPECT_STREQ(CancelledError("why").what(), "why");
  EXPECT_EQ(CancelledError("why").message(), "why");
  EXPECT_STREQ(CancelledError().what(), "");
}

}  // namespace
}  // namespace looplab
