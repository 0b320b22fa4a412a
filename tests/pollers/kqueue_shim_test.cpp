// kqueue_shim_test.cpp: the kqueue API that looplab's kqueue selector relies on.
//
// On Linux these tests run against common/kqueue_shim, a TEST DOUBLE of kqueue over epoll; on
// macOS and the BSDs the same tests run against the kernel's kqueue, so they check the shim
// against the real thing. Expectations that hold only for the shim (its documented differences,
// common/kqueue_shim/README.md) are under #ifdef LOOPLAB_KQUEUE_SHIM; FreeBSD-only behaviour is
// under __FreeBSD__ as well. EV_ERROR is tested as a bit: FreeBSD sets flags to EV_ERROR, macOS
// ORs it into the change's flags.
#include <arpa/inet.h>
#include <fcntl.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <sys/event.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <ctime>
#include <memory>
#include <set>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "io/socket_pair.hpp"

// libkqueue (Linux, found by pkg-config) departs from BSD's kqueue in ways
// these tests would flag (error reporting, EV_RECEIPT, closed descriptors):
// they check the shim, and the kernel's kqueue where there is one.
#if defined(LOOPLAB_KQUEUE_SHIM) || !defined(__linux__)

namespace {

using looplab::testing::SocketPair;
using Event = struct kevent;

struct Result {
  int rc;                     // kevent()'s return value
  int error;                  // errno when rc == -1
  std::vector<Event> events;  // the first rc entries of the eventlist
};

class Kqueue {
 public:
  Kqueue() : fd_(::kqueue()) {
    if (fd_ < 0) throw std::runtime_error("kqueue() failed");
  }
  Kqueue(const Kqueue&) = delete;
  Kqueue& operator=(const Kqueue&) = delete;
  ~Kqueue() { close(); }

  int fd() const { return fd_; }
  void close() {
    if (fd_ >= 0) ::close(fd_);
    fd_ = -1;
  }

  // One kevent() call: `changes`, then room for `room` events, waiting `timeout_ms` (< 0: forever).
  Result call(const std::vector<Event>& changes, int room, long timeout_ms = 0) const {
    std::vector<Event> events(static_cast<std::size_t>(room) + 1);
    timespec timeout{timeout_ms / 1000, (timeout_ms % 1000) * 1'000'000};
    errno = 0;
    int rc = ::kevent(fd_, changes.data(), static_cast<int>(changes.size()), events.data(), room,
                      timeout_ms < 0 ? nullptr : &timeout);
    // A wait interrupted (EINTR: a signal, or io_uring work for this thread
    // from an earlier test) is waited again, as every caller of kevent() does.
    while (rc < 0 && errno == EINTR && changes.empty()) {
      rc = ::kevent(fd_, nullptr, 0, events.data(), room, timeout_ms < 0 ? nullptr : &timeout);
    }
    const int error = errno;
    events.resize(rc > 0 ? static_cast<std::size_t>(rc) : 0);
    return {rc, error, events};
  }
  // Applies changes with no room for events: 0, or -1 with Result::error.
  Result apply(const std::vector<Event>& changes) const { return call(changes, 0); }
  // Collects the ready events without waiting.
  std::vector<Event> poll(int room = 16) const { return call({}, room).events; }

 private:
  int fd_;
};

Event change(int fd, short filter, unsigned short flags, void* udata = nullptr) {
  Event event;
  EV_SET(&event, fd, filter, flags, 0, 0, udata);
  return event;
}

const Event* find(const std::vector<Event>& events, int fd, short filter) {
  for (const Event& event : events) {
    if (event.ident == static_cast<std::uintptr_t>(fd) && event.filter == filter) return &event;
  }
  return nullptr;
}

// A descriptor number that is not open.
int closed_descriptor() {
  int fds[2];
  if (::pipe(fds) != 0) throw std::runtime_error("pipe() failed");
  ::close(fds[0]);
  ::close(fds[1]);
  return fds[1];
}

TEST(KqueueShim, AReadableSocketIsReportedWithTheBytesAvailable) {
  Kqueue kq;
  SocketPair pair;
  int tag = 0;
  ASSERT_EQ(kq.apply({change(pair.left(), EVFILT_READ, EV_ADD, &tag)}).rc, 0);
  EXPECT_TRUE(kq.poll().empty());  // nothing written yet
  SocketPair::send(pair.right(), "hello");
  const std::vector<Event> events = kq.poll();
  ASSERT_EQ(events.size(), 1u);
  EXPECT_EQ(events[0].ident, static_cast<std::uintptr_t>(pair.left()));
  EXPECT_EQ(events[0].filter, EVFILT_READ);
  EXPECT_EQ(events[0].data, 5);
  EXPECT_EQ(events[0].flags & (EV_EOF | EV_ERROR), 0);
  EXPECT_EQ(events[0].udata, &tag);
}

TEST(KqueueShim, AChangeAndTheWaitCanBeOneCall) {
  Kqueue kq;
  SocketPair pair;
  SocketPair::send(pair.right(), "abc");
  const Result result = kq.call({change(pair.left(), EVFILT_READ, EV_ADD)}, 4);
  ASSERT_EQ(result.rc, 1);
  EXPECT_EQ(result.events[0].filter, EVFILT_READ);
  EXPECT_EQ(result.events[0].data, 3);
}

TEST(KqueueShim, TheChangelistAndTheEventlistMayBeTheSameArray) {
  Kqueue kq;
  SocketPair pair;
  SocketPair::send(pair.right(), "abc");
  Event list[2] = {change(pair.left(), EVFILT_READ, EV_ADD),
                   change(pair.left(), EVFILT_WRITE, EV_ADD)};
  timespec zero{0, 0};
  ASSERT_EQ(::kevent(kq.fd(), list, 2, list, 2, &zero), 2);
  const std::vector<Event> events(list, list + 2);
  EXPECT_NE(find(events, pair.left(), EVFILT_READ), nullptr);
  EXPECT_NE(find(events, pair.left(), EVFILT_WRITE), nullptr);
}

TEST(KqueueShim, ReadAndWriteReadinessAreTwoSeparateEvents) {
  Kqueue kq;
  SocketPair pair;
  int read_tag = 0;
  int write_tag = 0;
  ASSERT_EQ(kq.apply({change(pair.left(), EVFILT_READ, EV_ADD, &read_tag),
                      change(pair.left(), EVFILT_WRITE, EV_ADD, &write_tag)})
                .rc,
            0);
  SocketPair::send(pair.right(), "ping");
  const std::vector<Event> events = kq.poll();
  ASSERT_EQ(events.size(), 2u);
  const Event* read = find(events, pair.left(), EVFILT_READ);
  const Event* write = find(events, pair.left(), EVFILT_WRITE);
  ASSERT_NE(read, nullptr);
  ASSERT_NE(write, nullptr);
  EXPECT_EQ(read->udata, &read_tag);
  EXPECT_EQ(write->udata, &write_tag);
  EXPECT_EQ(read->data, 4);
  EXPECT_GT(write->data, 0);  // room in the send buffer
}

TEST(KqueueShim, ReadinessIsLevelTriggeredUntilDrained) {
  Kqueue kq;
  SocketPair pair;
  ASSERT_EQ(kq.apply({change(pair.left(), EVFILT_READ, EV_ADD)}).rc, 0);
  SocketPair::send(pair.right(), "x");
  for (int i = 0; i < 3; ++i) {
    const std::vector<Event> events = kq.poll();
    ASSERT_EQ(events.size(), 1u) << "call " << i;
    EXPECT_EQ(events[0].data, 1);
  }
  EXPECT_EQ(SocketPair::receive(pair.left()), "x");
  EXPECT_TRUE(kq.poll().empty());
}

TEST(KqueueShim, DeleteStopsReportsAndDeletingTwiceIsENOENT) {
  Kqueue kq;
  SocketPair pair;
  ASSERT_EQ(kq.apply({change(pair.left(), EVFILT_READ, EV_ADD)}).rc, 0);
  SocketPair::send(pair.right(), "x");
  ASSERT_EQ(kq.poll().size(), 1u);
  ASSERT_EQ(kq.apply({change(pair.left(), EVFILT_READ, EV_DELETE)}).rc, 0);
  EXPECT_TRUE(kq.poll().empty());

  const Result no_room = kq.apply({change(pair.left(), EVFILT_READ, EV_DELETE)});
  EXPECT_EQ(no_room.rc, -1);
  EXPECT_EQ(no_room.error, ENOENT);

  int tag = 0;
  const Result with_room = kq.call({change(pair.left(), EVFILT_READ, EV_DELETE, &tag)}, 4);
  ASSERT_EQ(with_room.rc, 1);
  EXPECT_NE(with_room.events[0].flags & EV_ERROR, 0);
  EXPECT_EQ(with_room.events[0].data, ENOENT);
  EXPECT_EQ(with_room.events[0].ident, static_cast<std::uintptr_t>(pair.left()));
  EXPECT_EQ(with_room.events[0].filter, EVFILT_READ);
  EXPECT_EQ(with_room.events[0].udata, &tag);
}

TEST(KqueueShim, DeletingOneFilterKeepsTheOther) {
  Kqueue kq;
  SocketPair pair;
  ASSERT_EQ(kq.apply({change(pair.left(), EVFILT_READ, EV_ADD),
                      change(pair.left(), EVFILT_WRITE, EV_ADD)})
                .rc,
            0);
  SocketPair::send(pair.right(), "x");
  ASSERT_EQ(kq.apply({change(pair.left(), EVFILT_WRITE, EV_DELETE)}).rc, 0);
  const std::vector<Event> events = kq.poll();
  ASSERT_EQ(events.size(), 1u);
  EXPECT_EQ(events[0].filter, EVFILT_READ);
}

TEST(KqueueShim, AddingAClosedDescriptorIsEBADF) {
  Kqueue kq;
  const int fd = closed_descriptor();
  const Result no_room = kq.apply({change(fd, EVFILT_READ, EV_ADD)});
  EXPECT_EQ(no_room.rc, -1);
  EXPECT_EQ(no_room.error, EBADF);

  const Result with_room = kq.call({change(fd, EVFILT_READ, EV_ADD)}, 4);
  ASSERT_EQ(with_room.rc, 1);
  EXPECT_NE(with_room.events[0].flags & EV_ERROR, 0);
  EXPECT_EQ(with_room.events[0].data, EBADF);
  EXPECT_EQ(with_room.events[0].ident, static_cast<std::uintptr_t>(fd));
}

TEST(KqueueShim, AnUnknownFilterIsEINVAL) {
  Kqueue kq;
  SocketPair pair;
  const Result result = kq.apply({change(pair.left(), -99, EV_ADD)});
  EXPECT_EQ(result.rc, -1);
  EXPECT_EQ(result.error, EINVAL);
}

TEST(KqueueShim, ErrorsComeBackAsEventsAndTheChangesAfterThemAreStillApplied) {
  Kqueue kq;
  SocketPair pair;
  SocketPair::send(pair.right(), "x");
  const Result result = kq.call(
      {change(closed_descriptor(), EVFILT_READ, EV_ADD), change(pair.left(), EVFILT_READ, EV_ADD)},
      4);
  ASSERT_EQ(result.rc, 1);  // the error only: no waiting when the changes produced events
  EXPECT_EQ(result.events[0].data, EBADF);
  const std::vector<Event> events = kq.poll();
  ASSERT_EQ(events.size(), 1u);  // the second change was applied
  EXPECT_EQ(events[0].filter, EVFILT_READ);
}

TEST(KqueueShim, WithNoRoomAnErrorStopsTheChangelist) {
  Kqueue kq;
  SocketPair pair;
  const Result result = kq.apply({change(pair.left(), EVFILT_WRITE, EV_ADD),
                                  change(closed_descriptor(), EVFILT_READ, EV_ADD),
                                  change(pair.left(), EVFILT_READ, EV_ADD)});
  EXPECT_EQ(result.rc, -1);
  EXPECT_EQ(result.error, EBADF);
  SocketPair::send(pair.right(), "x");
  const std::vector<Event> events = kq.poll();
  ASSERT_EQ(events.size(), 1u);  // the change before the error was applied, the one after not
  EXPECT_EQ(events[0].filter, EVFILT_WRITE);
}

#if defined(LOOPLAB_KQUEUE_SHIM) || defined(__FreeBSD__)
TEST(KqueueShim, OnceTheRoomIsUsedUpTheNextErrorFailsTheCall) {
  Kqueue kq;
  SocketPair pair;
  const Result result = kq.call({change(pair.left(), EVFILT_READ, EV_DELETE),  // ENOENT: event
                                 change(closed_descriptor(), EVFILT_READ, EV_ADD)},  // no room
                                1);
  EXPECT_EQ(result.rc, -1);
  EXPECT_EQ(result.error, EBADF);
}

TEST(KqueueShim, AReceiptWithNoRoomEndsTheCallWithZero) {
  Kqueue kq;
  SocketPair pair;
  const Result result = kq.apply({change(pair.left(), EVFILT_WRITE, EV_ADD | EV_RECEIPT),
                                  change(pair.left(), EVFILT_READ, EV_ADD)});
  EXPECT_EQ(result.rc, 0);
  SocketPair::send(pair.right(), "x");
  const std::vector<Event> events = kq.poll();
  ASSERT_EQ(events.size(), 1u);  // FreeBSD does not apply the changes after it
  EXPECT_EQ(events[0].filter, EVFILT_WRITE);
}
#endif

TEST(KqueueShim, AReceiptReportsEachChangeAndDoesNotWait) {
  Kqueue kq;
  SocketPair pair;
  int tag = 0;
  const Result result =
      kq.call({change(pair.left(), EVFILT_WRITE, EV_ADD | EV_RECEIPT, &tag),
               change(pair.left(), EVFILT_READ, EV_DELETE | EV_RECEIPT)},  // not there: ENOENT
              4, 1000);
  ASSERT_EQ(result.rc, 2);  // the receipts, not the socket's writability
  EXPECT_NE(result.events[0].flags & EV_ERROR, 0);
  EXPECT_EQ(result.events[0].data, 0);
  EXPECT_EQ(result.events[0].filter, EVFILT_WRITE);
  EXPECT_EQ(result.events[0].udata, &tag);
  EXPECT_NE(result.events[1].flags & EV_ERROR, 0);
  EXPECT_EQ(result.events[1].data, ENOENT);
  const std::vector<Event> events = kq.poll();
  ASSERT_EQ(events.size(), 1u);  // the writability, now
  EXPECT_EQ(events[0].filter, EVFILT_WRITE);
  EXPECT_EQ(events[0].flags & EV_ERROR, 0);
}

TEST(KqueueShim, AOneshotFilterFiresOnceAndIsThenGone) {
  Kqueue kq;
  SocketPair pair;
  ASSERT_EQ(kq.apply({change(pair.left(), EVFILT_WRITE, EV_ADD | EV_ONESHOT)}).rc, 0);
  const std::vector<Event> first = kq.poll();
  ASSERT_EQ(first.size(), 1u);
  EXPECT_NE(first[0].flags & EV_ONESHOT, 0);
  EXPECT_TRUE(kq.poll().empty());  // still writable, but deleted
  const Result deleted = kq.apply({change(pair.left(), EVFILT_WRITE, EV_DELETE)});
  EXPECT_EQ(deleted.rc, -1);
  EXPECT_EQ(deleted.error, ENOENT);
}

TEST(KqueueShim, AOneshotFilterLeavesTheOtherFilterOfItsDescriptor) {
  Kqueue kq;
  SocketPair pair;
  ASSERT_EQ(kq.apply({change(pair.left(), EVFILT_WRITE, EV_ADD | EV_ONESHOT),
                      change(pair.left(), EVFILT_READ, EV_ADD)})
                .rc,
            0);
  ASSERT_EQ(kq.poll().size(), 1u);  // the write
  EXPECT_TRUE(kq.poll().empty());
  SocketPair::send(pair.right(), "x");
  const std::vector<Event> events = kq.poll();
  ASSERT_EQ(events.size(), 1u);
  EXPECT_EQ(events[0].filter, EVFILT_READ);
}

TEST(KqueueShim, DisableSilencesAFilterAndEnableBringsItBack) {
  Kqueue kq;
  SocketPair pair;
  int tag = 0;
  ASSERT_EQ(kq.apply({change(pair.left(), EVFILT_READ, EV_ADD, &tag)}).rc, 0);
  SocketPair::send(pair.right(), "x");
  ASSERT_EQ(kq.poll().size(), 1u);
  ASSERT_EQ(kq.apply({change(pair.left(), EVFILT_READ, EV_DISABLE, &tag)}).rc, 0);
  EXPECT_TRUE(kq.poll().empty());
  ASSERT_EQ(kq.apply({change(pair.left(), EVFILT_READ, EV_ENABLE, &tag)}).rc, 0);
  const std::vector<Event> events = kq.poll();
  ASSERT_EQ(events.size(), 1u);
  EXPECT_EQ(events[0].udata, &tag);
  // Neither touches a filter that is not there.
  const Result missing = kq.apply({change(pair.left(), EVFILT_WRITE, EV_ENABLE)});
  EXPECT_EQ(missing.rc, -1);
  EXPECT_EQ(missing.error, ENOENT);
}

TEST(KqueueShim, AddWithDisableRegistersAFilterThatIsNotReported) {
  Kqueue kq;
  SocketPair pair;
  ASSERT_EQ(kq.apply({change(pair.left(), EVFILT_WRITE, EV_ADD | EV_DISABLE)}).rc, 0);
  EXPECT_TRUE(kq.poll().empty());
  ASSERT_EQ(kq.apply({change(pair.left(), EVFILT_WRITE, EV_ENABLE)}).rc, 0);
  EXPECT_EQ(kq.poll().size(), 1u);
}

TEST(KqueueShim, APeerHangUpIsEofWithTheBytesStillToRead) {
  Kqueue kq;
  SocketPair pair;
  ASSERT_EQ(kq.apply({change(pair.left(), EVFILT_READ, EV_ADD)}).rc, 0);
  SocketPair::send(pair.right(), "bye");
  pair.close_right();
  std::vector<Event> events = kq.poll();
  ASSERT_EQ(events.size(), 1u);
  EXPECT_NE(events[0].flags & EV_EOF, 0);
  EXPECT_EQ(events[0].data, 3);
  EXPECT_EQ(SocketPair::receive(pair.left()), "bye");
  events = kq.poll();  // drained, still at end of file: still reported
  ASSERT_EQ(events.size(), 1u);
  EXPECT_NE(events[0].flags & EV_EOF, 0);
  EXPECT_EQ(events[0].data, 0);
}

TEST(KqueueShim, APeerHangUpIsEofForWritingToo) {
  Kqueue kq;
  SocketPair pair;
  ASSERT_EQ(kq.apply({change(pair.left(), EVFILT_WRITE, EV_ADD)}).rc, 0);
  std::vector<Event> events = kq.poll();
  ASSERT_EQ(events.size(), 1u);
  EXPECT_EQ(events[0].flags & EV_EOF, 0);
  pair.close_right();
  events = kq.poll();
  ASSERT_EQ(events.size(), 1u);
  EXPECT_NE(events[0].flags & EV_EOF, 0);
}

TEST(KqueueShim, AHalfCloseIsEofForReadingOnly) {
  Kqueue kq;
  SocketPair pair;
  ASSERT_EQ(kq.apply({change(pair.left(), EVFILT_READ, EV_ADD),
                      change(pair.left(), EVFILT_WRITE, EV_ADD)})
                .rc,
            0);
  ASSERT_EQ(::shutdown(pair.right(), SHUT_WR), 0);
  const std::vector<Event> events = kq.poll();
  const Event* read = find(events, pair.left(), EVFILT_READ);
  const Event* write = find(events, pair.left(), EVFILT_WRITE);
  ASSERT_NE(read, nullptr);
  ASSERT_NE(write, nullptr);
  EXPECT_NE(read->flags & EV_EOF, 0);
  EXPECT_EQ(write->flags & EV_EOF, 0);  // the left end can still write
}

TEST(KqueueShim, AWritePipeWhoseReaderIsGoneIsEof) {
  Kqueue kq;
  int fds[2];
  ASSERT_EQ(::pipe(fds), 0);
  ::close(fds[0]);
  ASSERT_EQ(kq.apply({change(fds[1], EVFILT_WRITE, EV_ADD)}).rc, 0);
  const std::vector<Event> events = kq.poll();
  ASSERT_EQ(events.size(), 1u);
  EXPECT_NE(events[0].flags & EV_EOF, 0);
  ::close(fds[1]);
}

TEST(KqueueShim, ARefusedConnectionLeavesTheSocketErrorToTheApplication) {
  // A port nobody listens on: bind one, note it, close it.
  const int probe = ::socket(AF_INET, SOCK_STREAM, 0);
  ASSERT_GE(probe, 0);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t length = sizeof address;
  ASSERT_EQ(::bind(probe, reinterpret_cast<sockaddr*>(&address), sizeof address), 0);
  ASSERT_EQ(::getsockname(probe, reinterpret_cast<sockaddr*>(&address), &length), 0);
  ::close(probe);

  const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  ASSERT_GE(fd, 0);
  ASSERT_EQ(::fcntl(fd, F_SETFL, O_NONBLOCK), 0);
  if (::connect(fd, reinterpret_cast<sockaddr*>(&address), sizeof address) == 0 ||
      errno != EINPROGRESS) {
    ::close(fd);
    GTEST_SKIP() << "connect() did not complete asynchronously";
  }
  Kqueue kq;
  const Result result = kq.call({change(fd, EVFILT_WRITE, EV_ADD)}, 4, 5000);
  ASSERT_EQ(result.rc, 1);
  EXPECT_NE(result.events[0].flags & EV_EOF, 0);
#ifdef LOOPLAB_KQUEUE_SHIM
  EXPECT_EQ(result.events[0].fflags, 0u);  // reading SO_ERROR on Linux would clear it
#else
  EXPECT_EQ(result.events[0].fflags, static_cast<unsigned>(ECONNREFUSED));
#endif
  int error = 0;
  socklen_t size = sizeof error;
  ASSERT_EQ(::getsockopt(fd, SOL_SOCKET, SO_ERROR, &error, &size), 0);
  EXPECT_EQ(error, ECONNREFUSED);  // still there for the application
  ::close(fd);
}

TEST(KqueueShim, AListeningSocketIsReadableWhenAConnectionWaits) {
  const int listener = ::socket(AF_INET, SOCK_STREAM, 0);
  ASSERT_GE(listener, 0);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t length = sizeof address;
  ASSERT_EQ(::bind(listener, reinterpret_cast<sockaddr*>(&address), sizeof address), 0);
  ASSERT_EQ(::getsockname(listener, reinterpret_cast<sockaddr*>(&address), &length), 0);
  ASSERT_EQ(::listen(listener, 8), 0);
  Kqueue kq;
  ASSERT_EQ(kq.apply({change(listener, EVFILT_READ, EV_ADD)}).rc, 0);
  EXPECT_TRUE(kq.poll().empty());
  const int client = ::socket(AF_INET, SOCK_STREAM, 0);
  ASSERT_GE(client, 0);
  ASSERT_EQ(::connect(client, reinterpret_cast<sockaddr*>(&address), sizeof address), 0);
  const Result result = kq.call({}, 4, 5000);
  ASSERT_EQ(result.rc, 1);
  EXPECT_EQ(result.events[0].data, 1);  // one connection to accept
  EXPECT_EQ(result.events[0].flags & EV_EOF, 0);
  ::close(client);
  ::close(listener);
}

TEST(KqueueShim, ATimeoutWithNothingReadyReturnsZeroEvents) {
  Kqueue kq;
  SocketPair pair;
  ASSERT_EQ(kq.apply({change(pair.left(), EVFILT_READ, EV_ADD)}).rc, 0);
  const Result result = kq.call({}, 4, 20);
  EXPECT_EQ(result.rc, 0);
}

TEST(KqueueShim, AnInvalidTimeoutIsEINVAL) {
  Kqueue kq;
  Event event;
  timespec bad{0, 1'000'000'000};
  errno = 0;
  EXPECT_EQ(::kevent(kq.fd(), nullptr, 0, &event, 1, &bad), -1);
  EXPECT_EQ(errno, EINVAL);
}

TEST(KqueueShim, ADescriptorClosedWhileRegisteredIsNotReported) {
  Kqueue kq;
  SocketPair pair;
  const int fd = pair.left();
  ASSERT_EQ(kq.apply({change(fd, EVFILT_READ, EV_ADD), change(fd, EVFILT_WRITE, EV_ADD)}).rc, 0);
  SocketPair::send(pair.right(), "x");
  pair.close_left();
  EXPECT_TRUE(kq.poll().empty());
  const Result deleted = kq.apply({change(fd, EVFILT_READ, EV_DELETE)});
  EXPECT_EQ(deleted.rc, -1);
  EXPECT_EQ(deleted.error, EBADF);  // as BSD: the number is not open
}

TEST(KqueueShim, ADescriptorClosedWhileADuplicateIsOpenIsNotReported) {
  // epoll keeps reporting a registered descriptor that was closed while a dup() of it is open;
  // the kernel's kqueue drops the knotes of a descriptor when it is closed.
  Kqueue kq;
  SocketPair pair;
  const int fd = pair.left();
  ASSERT_EQ(kq.apply({change(fd, EVFILT_READ, EV_ADD), change(fd, EVFILT_WRITE, EV_ADD)}).rc, 0);
  const int duplicate = ::dup(fd);
  ASSERT_GE(duplicate, 0);
  SocketPair::send(pair.right(), "x");
  pair.close_left();
  EXPECT_TRUE(kq.poll().empty());
  EXPECT_TRUE(kq.poll().empty());
  ::close(duplicate);
}

TEST(KqueueShim, ANumberClosedAndReusedStartsWithoutFilters) {
  Kqueue kq;
  auto old_pair = std::make_unique<SocketPair>();
  const int fd = old_pair->left();
  ASSERT_EQ(kq.apply({change(fd, EVFILT_WRITE, EV_ADD)}).rc, 0);
  old_pair->close_left();
  SocketPair reused;  // takes the lowest free numbers: fd again
  if (reused.left() != fd && reused.right() != fd) GTEST_SKIP() << "the number was not reused";
  EXPECT_TRUE(kq.poll().empty());  // writable, but never added
  const Result deleted = kq.apply({change(fd, EVFILT_WRITE, EV_DELETE)});
  EXPECT_EQ(deleted.rc, -1);
  EXPECT_EQ(deleted.error, ENOENT);  // open, but without that filter
  ASSERT_EQ(kq.apply({change(fd, EVFILT_WRITE, EV_ADD)}).rc, 0);
  EXPECT_EQ(kq.poll().size(), 1u);
}

TEST(KqueueShim, AKqueueNumberReusedAfterCloseStartsEmpty) {
  SocketPair pair;
  auto first = std::make_unique<Kqueue>();
  const int number = first->fd();
  ASSERT_EQ(first->apply({change(pair.left(), EVFILT_WRITE, EV_ADD)}).rc, 0);
  first->close();
  Kqueue second;
  if (second.fd() != number) GTEST_SKIP() << "the number was not reused";
  EXPECT_TRUE(second.poll().empty());
  const Result deleted = second.apply({change(pair.left(), EVFILT_WRITE, EV_DELETE)});
  EXPECT_EQ(deleted.rc, -1);
  EXPECT_EQ(deleted.error, ENOENT);
}

TEST(KqueueShim, KeventOnAClosedKqueueIsEBADF) {
  auto kq = std::make_unique<Kqueue>();
  const int number = kq->fd();
  kq->close();
  Event event;
  errno = 0;
  EXPECT_EQ(::kevent(number, nullptr, 0, &event, 1, nullptr), -1);
  EXPECT_EQ(errno, EBADF);
}

TEST(KqueueShim, KeventOnAKqueueNumberReusedByASocketIsEBADF) {
  auto kq = std::make_unique<Kqueue>();
  const int number = kq->fd();
  kq->close();
  SocketPair pair;  // takes the lowest free numbers
  if (pair.left() != number && pair.right() != number) GTEST_SKIP() << "the number was not reused";
  Event event;
  errno = 0;
  EXPECT_EQ(::kevent(number, nullptr, 0, &event, 1, nullptr), -1);
  EXPECT_EQ(errno, EBADF);
}

TEST(KqueueShim, KeventOnADescriptorThatIsNotAKqueueIsEBADF) {
  SocketPair pair;
  Event event;
  errno = 0;
  EXPECT_EQ(::kevent(pair.left(), nullptr, 0, &event, 1, nullptr), -1);
  EXPECT_EQ(errno, EBADF);
}

TEST(KqueueShim, UdataRoundTripsAndAnotherAddReplacesIt) {
  Kqueue kq;
  SocketPair pair;
  int first = 0;
  int second = 0;
  ASSERT_EQ(kq.apply({change(pair.left(), EVFILT_WRITE, EV_ADD, &first)}).rc, 0);
  std::vector<Event> events = kq.poll();
  ASSERT_EQ(events.size(), 1u);
  EXPECT_EQ(events[0].udata, &first);
  ASSERT_EQ(kq.apply({change(pair.left(), EVFILT_WRITE, EV_ADD, &second)}).rc, 0);
  events = kq.poll();
  ASSERT_EQ(events.size(), 1u);  // updated, not added twice
  EXPECT_EQ(events[0].udata, &second);
}

TEST(KqueueShim, ReadyEventsBeyondTheRoomComeInTheNextCalls) {
  Kqueue kq;
  SocketPair a;
  SocketPair b;
  SocketPair c;
  std::set<std::uintptr_t> registered;
  for (const SocketPair* pair : {&a, &b, &c}) {
    ASSERT_EQ(kq.apply({change(pair->left(), EVFILT_READ, EV_ADD)}).rc, 0);
    SocketPair::send(pair->right(), "x");
    registered.insert(static_cast<std::uintptr_t>(pair->left()));
  }
  std::set<std::uintptr_t> seen;
  for (int i = 0; i < 3; ++i) {
    const std::vector<Event> events = kq.poll(1);
    ASSERT_EQ(events.size(), 1u) << "call " << i;
    seen.insert(events[0].ident);
  }
  EXPECT_EQ(seen, registered);
  EXPECT_EQ(kq.poll(8).size(), 3u);
}

TEST(KqueueShim, BothFiltersOfOneDescriptorGetTheirTurnWhenThereIsRoomForOne) {
  Kqueue kq;
  SocketPair pair;
  ASSERT_EQ(kq.apply({change(pair.left(), EVFILT_READ, EV_ADD),
                      change(pair.left(), EVFILT_WRITE, EV_ADD)})
                .rc,
            0);
  SocketPair::send(pair.right(), "x");
  std::set<short> seen;
  for (int i = 0; i < 2; ++i) {
    const std::vector<Event> events = kq.poll(1);
    ASSERT_EQ(events.size(), 1u);
    seen.insert(events[0].filter);
  }
  EXPECT_EQ(seen, (std::set<short>{EVFILT_READ, EVFILT_WRITE}));
}

TEST(KqueueShim, AClearFilterIsReportedOnlyOnNewActivity) {
  Kqueue kq;
  SocketPair pair;
  ASSERT_EQ(kq.apply({change(pair.left(), EVFILT_READ, EV_ADD | EV_CLEAR)}).rc, 0);
  SocketPair::send(pair.right(), "ab");
  std::vector<Event> events = kq.poll();
  ASSERT_EQ(events.size(), 1u);
  EXPECT_EQ(events[0].data, 2);
  EXPECT_TRUE(kq.poll().empty());  // not drained, but nothing new
  SocketPair::send(pair.right(), "c");
  events = kq.poll();
  ASSERT_EQ(events.size(), 1u);
  EXPECT_EQ(events[0].data, 3);
}

TEST(KqueueShim, ARegularFile) {
  std::FILE* file = std::tmpfile();
  ASSERT_NE(file, nullptr);
  ASSERT_GE(std::fputs("data", file), 0);
  ASSERT_EQ(std::fflush(file), 0);
  std::rewind(file);
  Kqueue kq;
  const Result result = kq.apply({change(::fileno(file), EVFILT_READ, EV_ADD)});
#ifdef LOOPLAB_KQUEUE_SHIM
  EXPECT_EQ(result.rc, -1);  // epoll cannot watch a regular file
  EXPECT_EQ(result.error, EPERM);
  const Result deleted = kq.apply({change(::fileno(file), EVFILT_READ, EV_DELETE)});
  EXPECT_EQ(deleted.rc, -1);
  EXPECT_EQ(deleted.error, ENOENT);  // the failed EV_ADD left nothing behind
#else
  EXPECT_EQ(result.rc, 0);  // always readable
  const std::vector<Event> events = kq.poll();
  ASSERT_EQ(events.size(), 1u);
  EXPECT_EQ(events[0].data, 4);
#endif
  std::fclose(file);
}

#ifdef LOOPLAB_KQUEUE_SHIM
TEST(KqueueShim, TheShimRejectsWhatItDoesNotImplement) {
  Kqueue kq;
  SocketPair pair;
  const int timer_filter = -7;  // EVFILT_TIMER on the BSDs and macOS
  Result result = kq.apply({change(pair.left(), timer_filter, EV_ADD)});
  EXPECT_EQ(result.rc, -1);
  EXPECT_EQ(result.error, EINVAL);
  const int dispatch = 0x0080;  // EV_DISPATCH
  result = kq.apply({change(pair.left(), EVFILT_READ, EV_ADD | dispatch)});
  EXPECT_EQ(result.rc, -1);
  EXPECT_EQ(result.error, EINVAL);
  Event low_water = change(pair.left(), EVFILT_READ, EV_ADD);
  low_water.fflags = 1;  // NOTE_LOWAT
  result = kq.apply({low_water});
  EXPECT_EQ(result.rc, -1);
  EXPECT_EQ(result.error, EINVAL);
}
#endif

TEST(KqueueShim, EachThreadCanUseItsOwnKqueue) {
  auto worker = [](int rounds, int* reported) {
    Kqueue kq;
    SocketPair pair;
    if (kq.apply({change(pair.left(), EVFILT_READ, EV_ADD)}).rc != 0) return;
    for (int i = 0; i < rounds; ++i) {
      SocketPair::send(pair.right(), "x");
      const Result result = kq.call({}, 4, 5000);
      if (result.rc == 1 && result.events[0].data == 1) ++*reported;
      SocketPair::receive(pair.left());
    }
  };
  int reported[4] = {};
  std::vector<std::thread> threads;
  for (int& count : reported) threads.emplace_back(worker, 200, &count);
  for (std::thread& thread : threads) thread.join();
  for (int count : reported) EXPECT_EQ(count, 200);
}

}  // namespace

#endif  // LOOPLAB_KQUEUE_SHIM || !__linux__
