// Extension lab 03: chapter 3's loop waiting in the poll(2) backend. The loop
// takes any Selector; these tests hand it a PollSelector. They need part 1
// (add_reader() and remove_reader()) as well as the lab.
//
// The loop runs on a VirtualClock, so it asks its selector with a zero
// timeout only (virtual_time_selector.hpp) and never waits for real: a guard
// timer an hour away stops a loop whose reader never runs, at once.
#include <gtest/gtest.h>

#include <chrono>
#include <memory>
#include <string>
#include <utility>

#include "io/socket_pair.hpp"
#include "looplab/event_loop.hpp"
#include "looplab/lab/poll_selector.hpp"

namespace looplab::lab {
namespace {

using namespace std::chrono_literals;
using testing::SocketPair;

struct PollLoop {
  VirtualClock clock;
  EventLoop loop{clock, std::make_unique<PollSelector>()};
  bool gave_up = false;

  PollLoop() {
    loop.call_later(1h, [this] {
      gave_up = true;
      loop.stop();
    });
  }
};

TEST(PollSelectorLoop, AReaderRunsWhenItsDescriptorIsReadableAndIsRemoved) {
  PollLoop poll;
  EXPECT_STREQ(poll.loop.selector().name(), "poll");
  SocketPair pair;
  std::string received;
  poll.loop.add_reader(pair.left(), [&] {
    received += SocketPair::receive(pair.left());
    EXPECT_TRUE(poll.loop.remove_reader(pair.left()));
    poll.loop.stop();
  });
  EXPECT_EQ(poll.loop.selector().size(), 1u);
  SocketPair::send(pair.right(), "ping");
  poll.loop.run_forever();
  EXPECT_FALSE(poll.gave_up) << "the reader never ran";
  EXPECT_EQ(received, "ping");
  EXPECT_EQ(poll.loop.selector().size(), 0u);
}

TEST(PollSelectorLoop, AReaderAndAWriterShareOneRegistration) {
  PollLoop poll;
  SocketPair pair;
  std::string order;
  poll.loop.add_reader(pair.left(), [&] {
    order += "r";
    SocketPair::receive(pair.left());
    poll.loop.remove_reader(pair.left());
  });
  poll.loop.add_writer(pair.left(), [&] {
    order += "w";
    poll.loop.remove_writer(pair.left());
    poll.loop.stop();
  });
  EXPECT_EQ(poll.loop.selector().size(), 1u) << "one descriptor, one registration";
  SocketPair::send(pair.right(), "x");
  poll.loop.run_forever();
  EXPECT_FALSE(poll.gave_up);
  EXPECT_EQ(order, "rw") << "for one descriptor the reader runs before the writer";
  EXPECT_EQ(poll.loop.selector().size(), 0u);
}

// The loop's answer to select()'s EBADF works for poll's POLLNVAL too: the
// closed descriptor's reader is dropped and reported, the others go on.
TEST(PollSelectorLoop, ADescriptorClosedWhileRegisteredDoesNotStopTheLoop) {
  PollLoop poll;
  std::string report;
  poll.loop.set_exception_handler(
      [&](EventLoop&, const ExceptionContext& context) { report = context.message; });
  SocketPair careless;
  SocketPair careful;
  poll.loop.add_reader(careless.left(), [] {});
  bool ran = false;
  poll.loop.add_reader(careful.left(), [&] {
    ran = true;
    SocketPair::receive(careful.left());
    poll.loop.remove_reader(careful.left());
    poll.loop.stop();
  });
  careless.close_left();  // without remove_reader()
  SocketPair::send(careful.right(), "x");
  poll.loop.run_forever();
  EXPECT_FALSE(poll.gave_up);
  EXPECT_TRUE(ran);
  EXPECT_NE(report.find("was closed while still registered"), std::string::npos) << report;
  EXPECT_EQ(poll.loop.selector().size(), 0u);
}

}  // namespace
}  // namespace looplab::lab
