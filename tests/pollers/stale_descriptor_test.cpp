// A descriptor closed without remove_reader() and its number reused
// (asyncio-semantics.md 4, "stale-fd gotcha"). asyncio's epoll loop then
// never reports the new descriptor: add_reader() sees the number already
// registered with the same events and only swaps the callback, while the
// kernel forgot the old descriptor when it was closed. looplab's choice: the
// loop tells the selector when it replaces a callback (Selector::renew), and
// a kernel-side backend checks that it still watches that descriptor, adding
// it again if not. So on every backend the new descriptor is reported.
#include <gtest/gtest.h>
#include <unistd.h>

#include <string>

#include "io/socket_pair.hpp"
#include "looplab/event_loop.hpp"
#include "pollers/backends.hpp"
#include "support/run_one_turn.hpp"
#include "support/watched.hpp"

namespace looplab {
namespace {

using testing::SocketPair;

class StaleDescriptorTest : public ::testing::TestWithParam<SelectorKind> {
 protected:
  void SetUp() override {
    if (std::string why = testing::why_refused(GetParam()); !why.empty()) GTEST_SKIP() << why;
  }
};

TEST_P(StaleDescriptorTest, ANewDescriptorOnAReusedNumberIsReported) {
  if (testing::on_libkqueue(GetParam())) GTEST_SKIP() << testing::kLibkqueueCannotSeeClose;
  VirtualClock clock;
  EventLoop loop(clock, testing::open_exactly(GetParam()));
  SocketPair old_pair;
  std::string ran;
  int number = old_pair.left();
  loop.add_reader(number, [&] { ran += "old;"; });
  testing::run_one_turn(loop);  // the backend now watches the old descriptor
  old_pair.close_left();        // the mistake: no remove_reader() first

  SocketPair new_pair;  // put the new socket on the old number
  ASSERT_EQ(::dup2(new_pair.left(), number), number);
  loop.add_reader(number, [&] {
    ran += "new;";
    SocketPair::receive(number);
  });
  SocketPair::send(new_pair.right(), "x");
  testing::run_one_turn(loop);
  EXPECT_EQ(ran, "new;");
  EXPECT_TRUE(loop.remove_reader(number));
  ::close(number);
}

TEST_P(StaleDescriptorTest, AddingAWriterOnAReusedNumberAlsoWatchesTheReader) {
  if (testing::on_libkqueue(GetParam())) GTEST_SKIP() << testing::kLibkqueueCannotSeeClose;
  VirtualClock clock;
  EventLoop loop(clock, testing::open_exactly(GetParam()));
  SocketPair old_pair;
  std::string ran;
  int number = old_pair.left();
  loop.add_reader(number, [&] { ran += "old reader;"; });
  testing::run_one_turn(loop);
  old_pair.close_left();

  SocketPair new_pair;
  ASSERT_EQ(::dup2(new_pair.left(), number), number);
  loop.add_reader(number, [&] {
    ran += "reader;";
    SocketPair::receive(number);
  });
  loop.add_writer(number, [&] {
    ran += "writer;";
    loop.remove_writer(number);
  });
  SocketPair::send(new_pair.right(), "x");
  testing::run_one_turn(loop);
  EXPECT_EQ(ran, "reader;writer;");
  loop.remove_reader(number);
  ::close(number);
}

// The other path: no callback replaced, only a writer added, so the
// selector's modify() sees the reused number (and must watch its reader too).
TEST_P(StaleDescriptorTest, AddingOnlyAWriterOnAReusedNumberWatchesTheReaderToo) {
  if (testing::on_libkqueue(GetParam())) GTEST_SKIP() << testing::kLibkqueueCannotSeeClose;
  VirtualClock clock;
  EventLoop loop(clock, testing::open_exactly(GetParam()));
  SocketPair old_pair;
  std::string ran;
  int number = old_pair.left();
  loop.add_reader(number, [&] {
    ran += "reader;";
    SocketPair::receive(number);
  });
  testing::run_one_turn(loop);
  old_pair.close_left();

  SocketPair new_pair;
  ASSERT_EQ(::dup2(new_pair.left(), number), number);
  loop.add_writer(number, [&] {
    ran += "writer;";
    loop.remove_writer(number);
  });
  SocketPair::send(new_pair.right(), "x");
  testing::run_one_turn(loop);
  EXPECT_EQ(ran, "reader;writer;");
  loop.remove_reader(number);
  ::close(number);
}

TEST_P(StaleDescriptorTest, ReplacingTheCallbackOfAClosedDescriptorIsAnOSError) {
  VirtualClock clock;
  EventLoop loop(clock, testing::open_exactly(GetParam()));
  SocketPair pair;
  int number = ::dup(pair.left());
  loop.add_reader(number, [] {});
  testing::run_one_turn(loop);
  ::close(number);
  if (std::string(loop.selector().name()) == "select") {
    // select() keeps no set in the kernel, so nothing is checked here; its
    // next wait fails with EBADF and the loop drops the descriptor then.
    EXPECT_NO_THROW(loop.add_reader(number, [] {}));
  } else {
    EXPECT_THROW(loop.add_reader(number, [] {}), OSError);
  }
  EXPECT_TRUE(loop.remove_reader(number));  // still registered with the loop: remove it
  EXPECT_EQ(testing::watched(loop), 0u);
}

INSTANTIATE_TEST_SUITE_P(Backends, StaleDescriptorTest, ::testing::ValuesIn(compiled_selectors()),
                         testing::backend_name);

}  // namespace
}  // namespace looplab
