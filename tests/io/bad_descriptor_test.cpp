// Bad descriptors: a clear error, and a loop that still works.
#include <gtest/gtest.h>
#include <unistd.h>

#include <chrono>
#include <functional>
#include <limits>
#include <string>

#include "io/socket_pair.hpp"
#include "looplab/event_loop.hpp"
#include "support/run_one_turn.hpp"
#include "support/watched.hpp"

namespace looplab {
namespace {

using namespace std::chrono_literals;
using testing::SocketPair;

TEST(BadDescriptor, ANegativeDescriptorIsAValueError) {
  VirtualClock clock;
  EventLoop loop(clock);
  EXPECT_THROW(loop.add_reader(-1, [] {}), ValueError);
  EXPECT_THROW(loop.add_writer(-5, [] {}), ValueError);
  EXPECT_THROW(loop.remove_reader(-1), ValueError) << "asyncio's selector refuses it too";
  EXPECT_THROW(loop.remove_writer(-5), ValueError);
  loop.close();
  EXPECT_FALSE(loop.remove_reader(-1)) << "a closed loop has nothing to remove";
}

TEST(BadDescriptor, AClosedDescriptorIsAnOSErrorAndNothingIsRegistered) {
  VirtualClock clock;
  EventLoop loop(clock);
  int fd = -1;
  {
    SocketPair pair;
    fd = pair.left();
  }  // closed here
  try {
    loop.add_reader(fd, [] {});
    FAIL() << "no error";
  } catch (const OSError& e) {
    EXPECT_EQ(e.code().value(), EBADF);
    EXPECT_NE(std::string(e.what()).find("is not open"), std::string::npos) << e.what();
  }
  EXPECT_EQ(testing::watched(loop), 0u);
  EXPECT_FALSE(loop.remove_reader(fd));
}

TEST(BadDescriptor, AHugeDescriptorNumberIsRefusedWithoutGrowingTheLoopsTable) {
  // The loop's table, indexed by descriptor, grows only once the selector
  // has taken the descriptor: INT_MAX is an error (EBADF, or select()'s
  // range), not a table of two billion entries.
  VirtualClock clock;
  EventLoop loop(clock);
  constexpr int kHuge = std::numeric_limits<int>::max();
  EXPECT_THROW(loop.add_reader(kHuge, [] {}), std::exception);
  EXPECT_THROW(loop.add_writer(kHuge, [] {}), std::exception);
  EXPECT_EQ(testing::watched(loop), 0u);
  EXPECT_FALSE(loop.remove_reader(kHuge));
  bool ran = false;
  loop.call_soon([&] { ran = true; });
  testing::run_one_turn(loop);
  EXPECT_TRUE(ran);
}

#if LOOPLAB_STAGE == 3
TEST(BadDescriptor, SelectRejectsDescriptorsAboveFdSetsize) {
  VirtualClock clock;
  EventLoop loop(clock);
  try {
    loop.add_reader(FD_SETSIZE, [] {});
    FAIL() << "no error";
  } catch (const ValueError& e) {
    EXPECT_NE(std::string(e.what()).find("too large for select()"), std::string::npos) << e.what();
  }
  EXPECT_EQ(testing::watched(loop), 0u);
}
#endif

// A descriptor closed without remove_reader(): the loop goes on. select()
// fails (EBADF) for the whole set, so the loop finds the closed descriptor,
// reports it and drops it. A kernel-side set (stage 04: epoll and kqueue
// forget a closed descriptor; io_uring's poll request keeps watching the
// file) never fails, so, as in asyncio, there is nothing to report, and
// remove_reader() still cleans up.
TEST(BadDescriptor, ADescriptorClosedWhileRegisteredDoesNotStopTheLoop) {
  VirtualClock clock;
  EventLoop loop(clock);
  SocketPair healthy;
  int doomed_fd = ::dup(healthy.left());
  std::string report;
  loop.set_exception_handler([&](EventLoop&, const ExceptionContext& c) { report = c.message; });
  loop.add_reader(doomed_fd, [] {});
  ::close(doomed_fd);  // without remove_reader(): the mistake
  bool timer_ran = false;
  loop.call_later(1s, [&] {
    timer_ran = true;
    loop.stop();
  });
  loop.run_forever();  // the loop goes on
  EXPECT_TRUE(timer_ran);
  if (std::string(loop.selector().name()) == "select") {
    EXPECT_NE(report.find("File descriptor " + std::to_string(doomed_fd) + " was closed"),
              std::string::npos)
        << report;
  } else {
    EXPECT_EQ(report, "");
    EXPECT_TRUE(loop.remove_reader(doomed_fd));
  }
  EXPECT_EQ(testing::watched(loop), 0u);
}

TEST(BadDescriptor, AnEmptyCallbackIsATypeError) {
  VirtualClock clock;
  EventLoop loop(clock);
  SocketPair pair;
  std::function<void()> empty;
  EXPECT_THROW(loop.add_reader(pair.left(), empty), TypeError);
  EXPECT_THROW(loop.add_writer(pair.left(), empty), TypeError);
  EXPECT_EQ(testing::watched(loop), 0u);
}

TEST(BadDescriptor, NothingToWaitForIsStillAnErrorWhenNoDescriptorIsWatched) {
  VirtualClock clock;
  EventLoop loop(clock);
  EXPECT_THROW(loop.run_forever(), RuntimeError);
  EXPECT_FALSE(loop.is_running());
}

}  // namespace
}  // namespace looplab
