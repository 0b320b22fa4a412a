// add_reader/add_writer/remove_*: asyncio's semantics (asyncio-semantics.md 3.1-3.2).
#include <gtest/gtest.h>

#include <chrono>
#include <string>
#include <vector>

#include "io/socket_pair.hpp"
#include "looplab/event_loop.hpp"
#include "support/run_one_turn.hpp"
#include "support/watched.hpp"

namespace looplab {
namespace {

using namespace std::chrono_literals;
using testing::SocketPair;

TEST(Readers, AReaderRunsWhenItsDescriptorIsReadable) {
  VirtualClock clock;
  EventLoop loop(clock);
  SocketPair pair;
  std::string received;
  loop.add_reader(pair.left(), [&] { received += SocketPair::receive(pair.left()); });
  testing::run_one_turn(loop);
  EXPECT_EQ(received, "");  // nothing written yet
  SocketPair::send(pair.right(), "ping");
  testing::run_one_turn(loop);
  EXPECT_EQ(received, "ping");
}

TEST(Readers, ReadinessIsLevelTriggeredAReaderThatDoesNotDrainRunsEveryTurn) {
  VirtualClock clock;
  EventLoop loop(clock);
  SocketPair pair;
  int calls = 0;
  loop.add_reader(pair.left(), [&] { ++calls; });  // never reads
  SocketPair::send(pair.right(), "x");
  for (int i = 0; i < 3; ++i) testing::run_one_turn(loop);
  EXPECT_EQ(calls, 3);
}

TEST(Readers, ASecondAddReaderReplacesTheFirst) {
  VirtualClock clock;
  EventLoop loop(clock);
  SocketPair pair;
  std::vector<std::string> ran;
  loop.add_reader(pair.left(), [&] { ran.push_back("first"); });
  loop.add_reader(pair.left(), [&] {
    ran.push_back("second");
    SocketPair::receive(pair.left());
  });
  SocketPair::send(pair.right(), "x");
  testing::run_one_turn(loop);
  EXPECT_EQ(ran, (std::vector<std::string>{"second"}));
  EXPECT_EQ(testing::watched(loop), 1u);
}

TEST(Readers, RemoveReaderReturnsWhetherOneWasRegistered) {
  VirtualClock clock;
  EventLoop loop(clock);
  SocketPair pair;
  int calls = 0;
  loop.add_reader(pair.left(), [&] { ++calls; });
  EXPECT_TRUE(loop.remove_reader(pair.left()));
  EXPECT_FALSE(loop.remove_reader(pair.left()));
  EXPECT_FALSE(loop.remove_writer(pair.left()));
  EXPECT_FALSE(loop.remove_reader(999));
  EXPECT_EQ(testing::watched(loop), 0u);
  SocketPair::send(pair.right(), "x");
  loop.call_soon([] {});
  testing::run_one_turn(loop);
  EXPECT_EQ(calls, 0);
}

TEST(Readers, AReaderRemovedByAnEarlierCallbackOfTheSameTurnDoesNotRun) {
  VirtualClock clock;
  EventLoop loop(clock);
  SocketPair first;
  SocketPair second;
  std::vector<std::string> ran;
  loop.add_reader(first.left(), [&] {
    ran.push_back("first");
    SocketPair::receive(first.left());
    loop.remove_reader(second.left());
  });
  loop.add_reader(second.left(), [&] { ran.push_back("second"); });
  SocketPair::send(first.right(), "x");
  SocketPair::send(second.right(), "y");
  testing::run_one_turn(
      loop);  // both queued (ascending fds), the second is cancelled before its run
  EXPECT_EQ(ran, (std::vector<std::string>{"first"}));
}

TEST(Readers, AWriterRunsWhileItsDescriptorIsWritable) {
  VirtualClock clock;
  EventLoop loop(clock);
  SocketPair pair;
  int calls = 0;
  loop.add_writer(pair.left(), [&] {
    if (++calls == 2) loop.remove_writer(pair.left());
  });
  for (int i = 0; i < 4; ++i) testing::run_one_turn(loop);
  EXPECT_EQ(calls, 2);
}

TEST(Readers, ForOneDescriptorTheReaderRunsBeforeTheWriter) {
  VirtualClock clock;
  EventLoop loop(clock);
  SocketPair pair;
  std::vector<std::string> ran;
  loop.add_writer(pair.left(), [&] { ran.push_back("writer"); });
  loop.add_reader(pair.left(), [&] { ran.push_back("reader"); });
  SocketPair::send(pair.right(), "x");
  testing::run_one_turn(loop);
  EXPECT_EQ(ran, (std::vector<std::string>{"reader", "writer"}));
  EXPECT_EQ(testing::watched(loop), 1u);  // one registration holding both interests
  EXPECT_TRUE(loop.remove_writer(pair.left()));
  EXPECT_EQ(testing::watched(loop), 1u);
  EXPECT_TRUE(loop.remove_reader(pair.left()));
  EXPECT_EQ(testing::watched(loop), 0u);
}

TEST(Readers, PeerCloseMakesTheDescriptorReadableWithEndOfFile) {
  VirtualClock clock;
  EventLoop loop(clock);
  SocketPair pair;
  std::vector<std::string> reads;
  loop.add_reader(pair.left(), [&] {
    reads.push_back(SocketPair::receive(pair.left()));
    loop.remove_reader(pair.left());
  });
  pair.close_right();
  testing::run_one_turn(loop);
  EXPECT_EQ(reads, (std::vector<std::string>{""}));
}

TEST(Readers, AnExceptionInAReaderGoesToTheHandlerAndTheReaderStays) {
  VirtualClock clock;
  EventLoop loop(clock);
  SocketPair pair;
  int reports = 0;
  int calls = 0;
  loop.set_exception_handler([&](EventLoop&, const ExceptionContext&) { ++reports; });
  loop.add_reader(pair.left(), [&] {
    ++calls;
    throw ValueError("reader failed");
  });
  SocketPair::send(pair.right(), "x");
  testing::run_one_turn(loop);
  testing::run_one_turn(loop);
  EXPECT_EQ(calls, 2);
  EXPECT_EQ(reports, 2);
}

TEST(Readers, ATimerAndAReaderInterleaveThroughOneWait) {
  VirtualClock clock;
  EventLoop loop(clock);
  SocketPair pair;
  std::vector<std::string> events;
  loop.add_reader(pair.left(), [&] {
    events.push_back("read " + SocketPair::receive(pair.left()) + " at " +
                     std::to_string(std::chrono::duration_cast<std::chrono::milliseconds>(
                                        loop.time().time_since_epoch())
                                        .count()));
    loop.stop();
  });
  loop.call_later(250ms, [&] { SocketPair::send(pair.right(), "tick"); });
  loop.run_forever();
  EXPECT_EQ(events, (std::vector<std::string>{"read tick at 250"}));
}

TEST(Readers, CloseUnregistersEverything) {
  VirtualClock clock;
  EventLoop loop(clock);
  SocketPair pair;
  loop.add_reader(pair.left(), [] {});
  loop.add_writer(pair.right(), [] {});
  loop.close();
  EXPECT_EQ(testing::watched(loop), 0u);
  EXPECT_FALSE(loop.remove_reader(pair.left()));  // asyncio: False on a closed loop
  EXPECT_THROW(loop.add_reader(pair.left(), [] {}), RuntimeError);
}

}  // namespace
}  // namespace looplab
