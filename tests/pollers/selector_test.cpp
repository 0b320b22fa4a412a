// The Selector interface, held to one contract by every backend: select,
// epoll, io_uring, kqueue (asyncio-semantics.md 4). Each test runs once per
// backend compiled into this build.
#include <arpa/inet.h>
#include <fcntl.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "io/socket_pair.hpp"
#include "looplab/default_selector.hpp"
#include "looplab/exceptions.hpp"
#include "pollers/backends.hpp"

namespace looplab {
namespace {

using namespace std::chrono_literals;
using testing::SocketPair;

class SelectorTest : public ::testing::TestWithParam<SelectorKind> {
 protected:
  void SetUp() override {
    if (std::string why = testing::why_refused(GetParam()); !why.empty()) GTEST_SKIP() << why;
    selector_ = testing::open_exactly(GetParam());
  }
  std::unique_ptr<Selector> selector_;

  // The events select(0) reports for `fd`, merged (kqueue reports read and
  // write as two entries; the others as one).
  unsigned events_for(int fd, Selector::Timeout timeout = std::chrono::nanoseconds::zero()) {
    unsigned events = 0;
    for (const SelectorEvent& event : selector_->select(timeout)) {
      if (event.fd == fd) events |= event.events;
    }
    return events;
  }
};

TEST_P(SelectorTest, ReportsADescriptorOnceItIsReadable) {
  SocketPair pair;
  selector_->register_fd(pair.left(), kEventRead);
  EXPECT_EQ(events_for(pair.left()), 0u);
  SocketPair::send(pair.right(), "x");
  EXPECT_EQ(events_for(pair.left()), kEventRead);
}

TEST_P(SelectorTest, IsLevelTriggeredAnUndrainedDescriptorIsReportedAgain) {
  SocketPair pair;
  selector_->register_fd(pair.left(), kEventRead);
  SocketPair::send(pair.right(), "xy");
  for (int i = 0; i < 3; ++i) EXPECT_EQ(events_for(pair.left()), kEventRead) << "select " << i;
  SocketPair::receive(pair.left());
  EXPECT_EQ(events_for(pair.left()), 0u);
}

TEST_P(SelectorTest, ReportsOnlyTheRegisteredEvents) {
  SocketPair pair;
  selector_->register_fd(pair.left(), kEventWrite);  // writable, and soon readable too
  SocketPair::send(pair.right(), "x");
  EXPECT_EQ(events_for(pair.left()), kEventWrite);
  selector_->modify(pair.left(), kEventRead);
  EXPECT_EQ(events_for(pair.left()), kEventRead);
  selector_->modify(pair.left(), kEventRead | kEventWrite);
  EXPECT_EQ(events_for(pair.left()), kEventRead | kEventWrite);
}

TEST_P(SelectorTest, AWaitWithATimeoutEndsWithNothingReported) {
  SocketPair pair;
  selector_->register_fd(pair.left(), kEventRead);
  EXPECT_TRUE(selector_->select(2ms).empty());
}

// epoll counts in milliseconds: 1.5 ms must not become 1 ms, or a timer
// would be found not yet due and the loop would spin until it is.
TEST_P(SelectorTest, ATimeoutIsNeverCutShort) {
  SocketPair pair;
  selector_->register_fd(pair.left(), kEventRead);
  auto start = std::chrono::steady_clock::now();
  selector_->select(1500us);
  EXPECT_GE(std::chrono::steady_clock::now() - start, 1500us);
}

TEST_P(SelectorTest, AWaitEndsWhenADescriptorBecomesReady) {
  SocketPair pair;
  selector_->register_fd(pair.left(), kEventRead);
  std::thread writer([&] { SocketPair::send(pair.right(), "x"); });
  unsigned events = 0;
  while (events == 0) events = events_for(pair.left(), std::nullopt);  // no timeout
  writer.join();
  EXPECT_EQ(events, kEventRead);
}

TEST_P(SelectorTest, ManyDescriptorsAreAllReported) {
  // More than io_uring's submission queue holds (256) and a CQ's worth.
  std::vector<std::unique_ptr<SocketPair>> pairs;
  for (int i = 0; i < 400; ++i) {
    pairs.push_back(std::make_unique<SocketPair>());
    selector_->register_fd(pairs.back()->left(), kEventRead);
    SocketPair::send(pairs.back()->right(), "x");
  }
  std::vector<int> reported;
  for (const SelectorEvent& event : selector_->select(std::chrono::nanoseconds::zero())) {
    reported.push_back(event.fd);
  }
  std::sort(reported.begin(), reported.end());
  EXPECT_EQ(reported.size(), 400u);
  EXPECT_EQ(std::unique(reported.begin(), reported.end()), reported.end());
  EXPECT_EQ(selector_->size(), 400u);
  for (auto& pair : pairs) selector_->unregister(pair->left());
  EXPECT_EQ(selector_->size(), 0u);
}

// asyncio's translation: an error or hang-up wakes the reader and the writer,
// so each meets it in its own recv() or send().
TEST_P(SelectorTest, AnErrorWakesTheReaderAndTheWriter) {
  // A connection refused: the socket has a pending error (EPOLLERR|EPOLLHUP).
  int listener = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t length = sizeof address;
  ASSERT_EQ(::bind(listener, reinterpret_cast<sockaddr*>(&address), length), 0);
  ASSERT_EQ(::getsockname(listener, reinterpret_cast<sockaddr*>(&address), &length), 0);
  ::close(listener);  // nobody listens on that port any more
  for (unsigned watched : {kEventRead, kEventWrite}) {
    int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    bool in_progress =
        ::connect(fd, reinterpret_cast<sockaddr*>(&address), length) != 0 && errno == EINPROGRESS;
    selector_->register_fd(fd, watched);
    unsigned events = 0;
    for (int i = 0; i < 100 && events == 0; ++i) events = events_for(fd, 100ms);
    EXPECT_EQ(events, watched) << "watched " << watched;
    // The error stays for the callback to read, as sock_connect() does: a
    // kernel's kqueue copies it into the event without clearing it. libkqueue
    // reads it with getsockopt(SO_ERROR), which on Linux clears it, so there
    // the callback finds none and a refused connect looks made.
    int error = -1;
    socklen_t size = sizeof error;
    ASSERT_EQ(::getsockopt(fd, SOL_SOCKET, SO_ERROR, &error, &size), 0);
    if (in_progress) {
      EXPECT_EQ(error, testing::on_libkqueue(GetParam()) ? 0 : ECONNREFUSED)
          << "watched " << watched;
    }
    selector_->unregister(fd);
    ::close(fd);
  }
}

TEST_P(SelectorTest, MistakesAreClearErrorsAndTheSelectorStillWorks) {
  SocketPair pair;
  EXPECT_THROW(selector_->register_fd(-1, kEventRead), ValueError);
  EXPECT_THROW(selector_->unregister(pair.left()), ValueError);  // never registered
  EXPECT_THROW(selector_->modify(pair.left(), kEventRead), ValueError);
  selector_->register_fd(pair.left(), kEventRead);
  EXPECT_THROW(selector_->register_fd(pair.left(), kEventWrite), ValueError);
  selector_->unregister(pair.left());
  try {
    selector_->unregister(pair.left());  // twice
    FAIL() << "no error";
  } catch (const ValueError& error) {
    EXPECT_NE(std::string(error.what()).find("is not registered"), std::string::npos);
  }
  int closed = ::dup(pair.left());
  ::close(closed);
  try {
    selector_->register_fd(closed, kEventRead);
    FAIL() << "no error";
  } catch (const OSError& error) {
    EXPECT_EQ(error.code().value(), EBADF);
    EXPECT_NE(std::string(error.what()).find("is not open"), std::string::npos) << error.what();
  }
  EXPECT_EQ(selector_->size(), 0u);
  selector_->register_fd(pair.left(), kEventRead);  // still works
  SocketPair::send(pair.right(), "x");
  EXPECT_EQ(events_for(pair.left()), kEventRead);
}

// A regular file is always ready. select() and poll requests say so (kqueue
// too, while the file position is not at its end); epoll refuses it (EPERM),
// as asyncio's epoll loop does (PermissionError).
TEST_P(SelectorTest, ARegularFileIsAlwaysReadyOrRefusedWithEperm) {
  char path[] = "/tmp/looplab-regular-XXXXXX";
  int fd = ::mkstemp(path);
  ASSERT_GE(fd, 0);
  ::unlink(path);
  ASSERT_EQ(::pwrite(fd, "x", 1, 0), 1);  // kqueue: readable while not at the end of the file
  bool refused = false;
  try {
    selector_->register_fd(fd, kEventRead);
  } catch (const OSError& error) {
    refused = true;
    EXPECT_EQ(error.code().value(), EPERM);
    EXPECT_NE(std::string(error.what()).find("regular files"), std::string::npos) << error.what();
  }
  std::string name = selector_->name();
  if (name == "epoll" || name == "kqueue-shim") {
    EXPECT_TRUE(refused);
    EXPECT_EQ(selector_->size(), 0u);
  } else {
    EXPECT_FALSE(refused);
    EXPECT_EQ(events_for(fd), kEventRead);
    selector_->unregister(fd);
  }
  ::close(fd);
}

// io_uring's poll request holds the file: unregister() must cancel it before
// returning, or closing the descriptor would not close the socket.
TEST_P(SelectorTest, AfterUnregisterClosingTheDescriptorClosesTheSocket) {
  SocketPair pair;
  selector_->register_fd(pair.left(), kEventRead);
  selector_->select(std::chrono::nanoseconds::zero());  // armed now, where that applies
  selector_->unregister(pair.left());
  pair.close_left();
  char byte = 0;
  EXPECT_EQ(::read(pair.right(), &byte, 1), 0) << "the peer should see end of file";
}

// A loop may be made on one thread and run on another.
TEST_P(SelectorTest, WorksFromAnotherThreadThanTheOneThatMadeIt) {
  SocketPair pair;
  selector_->register_fd(pair.left(), kEventRead);
  selector_->select(std::chrono::nanoseconds::zero());
  unsigned events = 0;
  std::thread other([&] {
    SocketPair::send(pair.right(), "x");
    events = events_for(pair.left());
    selector_->unregister(pair.left());
  });
  other.join();
  EXPECT_EQ(events, kEventRead);
  EXPECT_EQ(selector_->size(), 0u);
}

INSTANTIATE_TEST_SUITE_P(Backends, SelectorTest, ::testing::ValuesIn(compiled_selectors()),
                         testing::backend_name);

}  // namespace
}  // namespace looplab
