// Extension lab 04: registering with the edge-triggered selector. Mistakes
// are clear errors, modify() and renew() re-arm (rule 6), unregister()
// forgets (rule 7), one select() collects every edge, and a zero timeout
// does not block. Socket pairs and zero timeouts only.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

#include "edge_helpers.hpp"
#include "io/socket_pair.hpp"
#include "looplab/exceptions.hpp"
#include "looplab/lab/edge_epoll_selector.hpp"

namespace looplab::lab {
namespace {

using namespace std::chrono_literals;
using edge_testing::events_for;
using edge_testing::kNoWait;
using testing::SocketPair;

template <typename F>
std::string value_error_of(F&& call) {
  try {
    call();
  } catch (const ValueError& error) {
    return error.what();
  }
  return "(no ValueError)";
}

bool mentions(const std::string& message, const std::string& part) {
  return message.find(part) != std::string::npos;
}

TEST(EdgeEpollRegistration, MistakesAreClearErrorsAndChangeNothing) {
  EdgeEpollSelector selector;
  SocketPair pair;
  EXPECT_TRUE(mentions(value_error_of([&] { selector.register_fd(-1, kEventRead); }),
                       "Invalid file descriptor"));
  for (unsigned events : {0u, kEventPeerClosed, 8u, kEventWrite | 16u}) {
    EXPECT_TRUE(mentions(value_error_of([&] { selector.register_fd(pair.left(), events); }),
                         "Invalid events"))
        << "events " << events;
  }
  EXPECT_TRUE(mentions(value_error_of([&] { selector.modify(pair.left(), kEventRead); }),
                       "is not registered"));
  EXPECT_TRUE(
      mentions(value_error_of([&] { selector.unregister(pair.left()); }), "is not registered"));
  EXPECT_TRUE(mentions(value_error_of([&] { selector.renew(pair.left()); }), "is not registered"));
  EXPECT_EQ(selector.size(), 0u);
  selector.register_fd(pair.left(), kEventRead);
  EXPECT_TRUE(mentions(value_error_of([&] { selector.register_fd(pair.left(), kEventWrite); }),
                       "is already registered"));
  EXPECT_TRUE(mentions(value_error_of([&] { selector.modify(pair.left(), 0); }), "Invalid events"));
  EXPECT_EQ(selector.size(), 1u);
  SocketPair::send(pair.right(), "x");
  EXPECT_EQ(events_for(selector, pair.left()), kEventRead) << "still watched for reading only";
}

TEST(EdgeEpollRegistration, DescriptorsEpollCannotWatchAreAnOSError) {
  EdgeEpollSelector selector;
  SocketPair pair;
  int closed = ::dup(pair.left());
  ::close(closed);
  try {
    selector.register_fd(closed, kEventRead);
    FAIL() << "a closed descriptor was registered";
  } catch (const OSError& error) {
    EXPECT_EQ(error.code().value(), EBADF);
    EXPECT_TRUE(mentions(error.what(), "is not open")) << error.what();
  }
  char path[] = "/tmp/looplab-lab04-XXXXXX";
  int file = ::mkstemp(path);
  ASSERT_GE(file, 0);
  ::unlink(path);
  try {
    selector.register_fd(file, kEventRead);
    FAIL() << "a regular file was registered";
  } catch (const OSError& error) {
    EXPECT_EQ(error.code().value(), EPERM);
  }
  ::close(file);
  EXPECT_EQ(selector.size(), 0u);
}

// Rule 6: EpollSelector::modify() makes no system call for unchanged events;
// here the call is the point.
TEST(EdgeEpollRegistration, ModifyReArmsEvenWithTheSameEvents) {
  SocketPair pair;
  EdgeEpollSelector selector;
  selector.register_fd(pair.left(), kEventRead);
  SocketPair::send(pair.right(), "x");
  EXPECT_EQ(events_for(selector, pair.left()), kEventRead);
  EXPECT_EQ(events_for(selector, pair.left()), 0u);
  selector.modify(pair.left(), kEventRead);  // "tell me again"
  EXPECT_EQ(events_for(selector, pair.left()), kEventRead) << "the unread byte, reported again";
  EXPECT_EQ(events_for(selector, pair.left()), 0u) << "once";
}

// Rule 6 with other events: everything ready at the modify() is reported.
TEST(EdgeEpollRegistration, ModifyToOtherEventsReportsWhatIsReadyThen) {
  SocketPair pair;
  EdgeEpollSelector selector;
  selector.register_fd(pair.left(), kEventWrite);
  EXPECT_EQ(events_for(selector, pair.left()), kEventWrite);
  SocketPair::send(pair.right(), "x");
  EXPECT_EQ(events_for(selector, pair.left()), 0u);
  selector.modify(pair.left(), kEventRead | kEventWrite);
  EXPECT_EQ(events_for(selector, pair.left()), kEventRead | kEventWrite);
  selector.modify(pair.left(), kEventRead);
  EXPECT_EQ(events_for(selector, pair.left()), kEventRead);
  EXPECT_EQ(events_for(selector, pair.left()), 0u);
}

// Rule 7.
TEST(EdgeEpollRegistration, UnregisterForgetsAndRegisteringAgainArms) {
  SocketPair pair;
  EdgeEpollSelector selector;
  selector.register_fd(pair.left(), kEventRead);
  SocketPair::send(pair.right(), "x");
  selector.unregister(pair.left());
  EXPECT_EQ(selector.size(), 0u);
  EXPECT_TRUE(selector.select(kNoWait).empty()) << "a pending edge is lost";
  EXPECT_TRUE(
      mentions(value_error_of([&] { selector.unregister(pair.left()); }), "is not registered"))
      << "twice is a mistake";
  selector.register_fd(pair.left(), kEventRead);
  EXPECT_EQ(events_for(selector, pair.left()), kEventRead) << "registering again arms";
}

TEST(EdgeEpollRegistration, UnregisteringADescriptorClosedFirstIsNotAnError) {
  SocketPair pair;
  EdgeEpollSelector selector;
  int doomed = ::dup(pair.left());
  selector.register_fd(doomed, kEventRead);
  ::close(doomed);
  EXPECT_NO_THROW(selector.unregister(doomed));
  EXPECT_EQ(selector.size(), 0u);
}

// Rule 6 for renew(), which the loop calls when a callback replaces another
// on a registered descriptor: its number may have been closed and given to
// a new descriptor, which the kernel's set does not hold.
TEST(EdgeEpollRegistration, RenewWatchesANewDescriptorOnAReusedNumber) {
  int old_fds[2];
  ASSERT_EQ(::socketpair(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0, old_fds), 0);
  int number = old_fds[0];
  EdgeEpollSelector selector;
  selector.register_fd(number, kEventRead);
  SocketPair new_pair;
  ASSERT_EQ(::dup2(new_pair.left(), number), number);  // closes the old socket, reuses its number
  SocketPair::send(new_pair.right(), "x");
  EXPECT_EQ(events_for(selector, number), 0u) << "closing took the old socket out of the set";
  selector.renew(number);
  EXPECT_EQ(events_for(selector, number), kEventRead);
  selector.unregister(number);
  ::close(number);
  ::close(old_fds[1]);
}

// One select() collects every pending edge; the next has none to collect.
TEST(EdgeEpollRegistration, OneSelectReportsEveryEdgeThenNone) {
  std::vector<std::unique_ptr<SocketPair>> pairs;
  EdgeEpollSelector selector;
  for (int i = 0; i < 300; ++i) {
    pairs.push_back(std::make_unique<SocketPair>());
    selector.register_fd(pairs.back()->left(), kEventRead);
    SocketPair::send(pairs.back()->right(), "x");
  }
  std::vector<int> reported;
  for (const SelectorEvent& event : selector.select(kNoWait)) reported.push_back(event.fd);
  std::sort(reported.begin(), reported.end());
  EXPECT_EQ(reported.size(), 300u);
  EXPECT_EQ(std::unique(reported.begin(), reported.end()), reported.end());
  EXPECT_TRUE(selector.select(kNoWait).empty());
}

// Something already ready ends any wait at once; zero never blocks. These
// return without waiting on any machine, and hang (the grader's limit) if the
// timeout reaches epoll_wait() wrongly.
TEST(EdgeEpollRegistration, ZeroDoesNotBlockAndAnEdgeEndsAnyWait) {
  EdgeEpollSelector selector;
  EXPECT_TRUE(selector.select(kNoWait).empty()) << "nothing registered";
  SocketPair pair;
  selector.register_fd(pair.left(), kEventRead);
  EXPECT_TRUE(selector.select(kNoWait).empty());
  SocketPair::send(pair.right(), "a");
  EXPECT_EQ(events_for(selector, pair.left(), std::nullopt), kEventRead);
  SocketPair::send(pair.right(), "b");
  EXPECT_EQ(events_for(selector, pair.left(), 1ns), kEventRead);
  SocketPair::send(pair.right(), "c");
  EXPECT_EQ(events_for(selector, pair.left(), std::chrono::hours(24 * 365 * 100)), kEventRead);
}

}  // namespace
}  // namespace looplab::lab
