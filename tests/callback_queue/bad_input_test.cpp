// Bad input: a clear error named as asyncio names it, and a loop that still works.
#include <gtest/gtest.h>

#include <functional>
#include <string>

#include "looplab/event_loop.hpp"
#include "support/run_one_turn.hpp"

namespace looplab {
namespace {

template <typename Error, typename F>
std::string error_message(F&& call) {
  try {
    call();
  } catch (const Error& e) {
    return e.what();
  }
  return "(no error)";
}

TEST(BadInput, CallSoonOnAClosedLoop) {
  EventLoop loop;
  loop.close();
  EXPECT_EQ(error_message<RuntimeError>([&] { loop.call_soon([] {}); }), "Event loop is closed");
}

TEST(BadInput, RunForeverOnAClosedLoop) {
  EventLoop loop;
  loop.close();
  EXPECT_EQ(error_message<RuntimeError>([&] { loop.run_forever(); }), "Event loop is closed");
}

TEST(BadInput, CloseTwiceIsANoOp) {
  EventLoop loop;
  loop.close();
  EXPECT_NO_THROW(loop.close());
  EXPECT_TRUE(loop.is_closed());
}

TEST(BadInput, CloseWhileRunningIsRefusedAndTheLoopGoesOn) {
  EventLoop loop;
  std::string error;
  bool next_ran = false;
  loop.call_soon([&] { error = error_message<RuntimeError>([&] { loop.close(); }); });
  loop.call_soon([&] { next_ran = true; });
  testing::run_one_turn(loop);
  EXPECT_EQ(error, "Cannot close a running event loop");
  EXPECT_TRUE(next_ran);
  EXPECT_FALSE(loop.is_closed());
}

TEST(BadInput, RunForeverFromInsideItsOwnCallback) {
  EventLoop loop;
  std::string error;
  bool running_after = false;
  bool next_ran = false;
  loop.call_soon([&] {
    error = error_message<RuntimeError>([&] { loop.run_forever(); });
    running_after = loop.is_running();  // the refused call must not tear down the outer run
  });
  loop.call_soon([&] { next_ran = true; });
  testing::run_one_turn(loop);
  EXPECT_EQ(error, "This event loop is already running");
  EXPECT_TRUE(running_after);
  EXPECT_TRUE(next_ran);
}

TEST(BadInput, RunningASecondLoopInsideTheFirst) {
  EventLoop outer;
  EventLoop inner;
  std::string error;
  inner.call_soon([] {});
  outer.call_soon(
      [&] { error = error_message<RuntimeError>([&] { testing::run_one_turn(inner); }); });
  testing::run_one_turn(outer);
  EXPECT_EQ(error, "Cannot run the event loop while another loop is running");
  testing::run_one_turn(inner);  // both loops still work afterwards
}

TEST(BadInput, AnEmptyCallbackIsATypeError) {
  EventLoop loop;
  std::function<void()> empty;
  void (*null_function)() = nullptr;
  EXPECT_THROW(loop.call_soon(empty), TypeError);
  EXPECT_THROW(loop.call_soon(null_function), TypeError);
  EXPECT_THROW(loop.call_soon(Callback{}), TypeError);
  bool ran = false;
  loop.call_soon([&] { ran = true; });
  testing::run_one_turn(loop);
  EXPECT_TRUE(ran);
}

// asyncio's call_soon() checks the loop before the callback: on a closed loop
// even an empty callback is "Event loop is closed".
TEST(BadInput, AClosedLoopIsReportedBeforeAnEmptyCallback) {
  EventLoop loop;
  loop.close();
  std::function<void()> empty;
  EXPECT_EQ(error_message<RuntimeError>([&] { loop.call_soon(empty); }), "Event loop is closed");
}

}  // namespace
}  // namespace looplab
