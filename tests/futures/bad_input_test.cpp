// Bad input to futures, sleep and the socket operations: a clear error, and
// the loop (and the future) stay usable.
#include <gtest/gtest.h>

#include <chrono>
#include <cmath>
#include <limits>
#include <string>

#include "futures/support.hpp"
#include "io/socket_pair.hpp"
#include "looplab/event_loop.hpp"
#include "looplab/sleep.hpp"
#include "support/watched.hpp"

namespace looplab {
namespace {

using namespace std::chrono_literals;
using testing::run_one_turn;
using testing::SocketPair;
using testing::thrown_by;

TEST(FuturesBadInput, SetExceptionWithANullExceptionPtrIsATypeErrorAndLeavesItPending) {
  VirtualClock clock;
  EventLoop loop(clock);
  Future<int> future = loop.create_future<int>();
  EXPECT_EQ(thrown_by([&] { future.set_exception(std::exception_ptr()); }),
            "TypeError: invalid exception object");  // asyncio's words
  EXPECT_FALSE(future.done());
  future.set_result(1);  // still usable
  EXPECT_EQ(future.result(), 1);
}

TEST(FuturesBadInput, CompletingAFutureWithCallbacksOnAClosedLoopIsARuntimeError) {
  // As in asyncio: the state changes, then scheduling the callbacks
  // (call_soon) finds the loop closed.
  VirtualClock clock;
  EventLoop loop(clock);
  Future<int> future = loop.create_future<int>();
  int calls = 0;
  future.add_done_callback([&](Future<int>&) { ++calls; });
  loop.close();
  EXPECT_EQ(thrown_by([&] { future.set_result(1); }), "RuntimeError: Event loop is closed");
  EXPECT_TRUE(future.done());
  EXPECT_EQ(calls, 0);
}

TEST(FuturesBadInput, CallbacksAClosedLoopRefusesAreDroppedOutsideTheFuture) {
  // The loop refuses the first callback, and the others are dropped. What
  // one holds may be the last reference to another future, whose end
  // reports to the exception handler, which may touch this future again:
  // by then the future holds no callback to walk or remove.
  VirtualClock clock;
  EventLoop loop(clock);
  Future<int> future = loop.create_future<int>();
  DoneCallbackId third = 0;
  int reports = 0;
  std::size_t removed_in_handler = 99;
  loop.set_exception_handler([&](EventLoop&, const ExceptionContext&) {
    ++reports;
    removed_in_handler = future.remove_done_callback(third);
  });
  {
    Future<int> failed = loop.create_future<int>();
    failed.set_exception(ValueError("never retrieved"));
    future.add_done_callback([](Future<int>&) {});
    future.add_done_callback([failed](Future<int>&) {});  // the last reference to `failed`
  }
  third = future.add_done_callback([](Future<int>&) {});
  loop.close();
  EXPECT_EQ(thrown_by([&] { future.set_result(1); }), "RuntimeError: Event loop is closed");
  EXPECT_EQ(reports, 1);  // "Future exception was never retrieved", as the callback went
  EXPECT_EQ(removed_in_handler, 0U);
}

TEST(FuturesBadInput, AFutureWithoutCallbacksCanBeCompletedAfterItsLoopClosed) {
  VirtualClock clock;
  EventLoop loop(clock);
  Future<int> future = loop.create_future<int>();
  loop.close();
  future.set_result(3);
  EXPECT_EQ(future.result(), 3);
  EXPECT_TRUE(future.cancel() == false);
}

TEST(FuturesBadInput, AddingACallbackToADoneFutureOfAClosedLoopIsARuntimeError) {
  VirtualClock clock;
  EventLoop loop(clock);
  Future<int> future = loop.create_future<int>();
  future.set_result(1);
  loop.close();
  EXPECT_THROW(future.add_done_callback([](Future<int>&) {}), RuntimeError);
}

TEST(FuturesBadInput, SleepOnAClosedLoopIsARuntimeError) {
  VirtualClock clock;
  EventLoop loop(clock);
  loop.close();
  EXPECT_EQ(thrown_by([&] { sleep(loop, 1s); }), "RuntimeError: Event loop is closed");
}

TEST(FuturesBadInput, SleepWithANaNDelayIsAValueErrorAndAnInfiniteOneNeverEnds) {
  VirtualClock clock;
  EventLoop loop(clock);
  using Seconds = std::chrono::duration<double>;
  EXPECT_THROW(sleep(loop, Seconds(std::nan(""))), ValueError);
  EXPECT_EQ(loop.scheduled_count(), 0u);
  Future<> forever = sleep(loop, Seconds(std::numeric_limits<double>::infinity()));
  loop.run_until_complete(sleep(loop, Seconds(0.5)));  // the loop is fine
  EXPECT_DOUBLE_EQ(testing::seconds(loop.time()), 0.5);
  EXPECT_FALSE(forever.done()) << "asyncio.sleep(inf) lasts until cancelled";
  EXPECT_TRUE(forever.cancel());
}

TEST(FuturesBadInput, ANegativeSleepIsDueAtOnce) {
  VirtualClock clock;
  EventLoop loop(clock);
  Future<> done = sleep(loop, -5s);
  run_one_turn(loop);
  EXPECT_TRUE(done.done());
  EXPECT_DOUBLE_EQ(testing::seconds(loop.time()), 0.0);
}

TEST(FuturesBadInput, SockRecvOnANegativeDescriptorFinishesWithEbadf) {
  VirtualClock clock;
  EventLoop loop(clock);
  Future<std::string> received = loop.sock_recv(-1, 10);
  ASSERT_TRUE(received.done());
  EXPECT_EQ(thrown_by([&] { received.result(); }).rfind("OSError", 0), 0u);
  EXPECT_EQ(testing::watched(loop), 0u);
}

TEST(FuturesBadInput, SockSendallOnAClosedDescriptorFinishesWithAnOSError) {
  VirtualClock clock;
  EventLoop loop(clock);
  int fd = -1;
  {
    SocketPair pair;
    fd = pair.left();
  }  // closed
  Future<> sent = loop.sock_sendall(fd, "x");
  ASSERT_TRUE(sent.done());
  try {
    sent.result();
    FAIL() << "no OSError";
  } catch (const OSError& error) {
    EXPECT_EQ(error.code().value(), EBADF);
  }
}

TEST(FuturesBadInput, InDebugModeABlockingSocketIsAValueErrorForEverySocketOperation) {
  VirtualClock clock;
  EventLoop loop(clock);
  loop.set_debug(true);
  int ends[2];
  ASSERT_EQ(::socketpair(AF_UNIX, SOCK_STREAM, 0, ends), 0);  // blocking
  testing::Fd left(ends[0]);
  testing::Fd right(ends[1]);
  // Data waiting and room to send: without the check nothing here would block,
  // so a missing check fails the test instead of hanging it.
  SocketPair::send(right.get(), "waiting");
  const std::string expected = "ValueError: the socket must be non-blocking";
  EXPECT_EQ(thrown_by([&] { loop.sock_recv(left.get(), 10); }), expected);
  EXPECT_EQ(thrown_by([&] { loop.sock_sendall(left.get(), "x"); }), expected);
  EXPECT_EQ(thrown_by([&] { loop.sock_accept(left.get()); }), expected);
  sockaddr_in address = testing::loopback(1);
  EXPECT_EQ(thrown_by([&] {
              loop.sock_connect(left.get(), reinterpret_cast<const sockaddr*>(&address),
                                sizeof address);
            }),
            expected);
  EXPECT_EQ(testing::watched(loop), 0u);
  char buffer[16];  // nothing was sent or received: refused before the system call
  EXPECT_EQ(::recv(right.get(), buffer, sizeof buffer, MSG_DONTWAIT), -1);
  EXPECT_EQ(::recv(left.get(), buffer, sizeof buffer, MSG_DONTWAIT), 7);
}

TEST(FuturesBadInput, OutsideDebugModeABlockingSocketIsNotChecked) {
  VirtualClock clock;
  EventLoop loop(clock);
  int ends[2];
  ASSERT_EQ(::socketpair(AF_UNIX, SOCK_STREAM, 0, ends), 0);  // blocking
  testing::Fd left(ends[0]);
  testing::Fd right(ends[1]);
  SocketPair::send(right.get(), "ok");
  EXPECT_EQ(loop.sock_recv(left.get(), 10).result(), "ok");  // data was there: no block
}

}  // namespace
}  // namespace looplab
