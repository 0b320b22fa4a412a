// The loop under system calls that fail (common/faults): a signal's EINTR is
// retried where it is met, as Python does since PEP 475, so it never shows;
// a real error reaches the future that asked, as asyncio's OSError, and the
// loop goes on serving the next call. Built and run only in faults_sNN.
#include <gtest/gtest.h>
#include <sys/socket.h>

#include <cerrno>
#include <string>

#include "futures/support.hpp"
#include "io/socket_pair.hpp"
#include "looplab/event_loop.hpp"
#include "looplab/testing/faults.hpp"

namespace looplab {
namespace {

using namespace std::chrono_literals;
using testing::Fd;
using testing::os_error_of;
using testing::SocketPair;
using testing::TcpListener;
namespace faults = testing::faults;

// A client whose connection waits in the listener's backlog.
Fd connected_client(EventLoop& loop, const TcpListener& listener) {
  Fd client = testing::tcp_socket();
  loop.run_until_complete(
      loop.sock_connect(client.get(), listener.addr(), sizeof listener.address));
  return client;
}

TEST(SystemCallErrors, AnInterruptedRecvIsRetriedAtOnce) {
  faults::AskedOnly only_asked;
  VirtualClock clock;
  EventLoop loop(clock);
  SocketPair pair;
  SocketPair::send(pair.right(), "ping");
  faults::fail_next(faults::Call::kRecv, EINTR, 3);
  Future<std::string> received = loop.sock_recv(pair.left(), 100);
  ASSERT_TRUE(received.done());  // no turn of the loop, as when recv() is not interrupted
  EXPECT_EQ(received.result(), "ping");
}

TEST(SystemCallErrors, AnInterruptedSendIsRetriedAtOnce) {
  faults::AskedOnly only_asked;
  VirtualClock clock;
  EventLoop loop(clock);
  SocketPair pair;
  faults::fail_next(faults::Call::kSend, EINTR, 2);
  Future<void> sent = loop.sock_sendall(pair.left(), "pong");
  ASSERT_TRUE(sent.done());
  sent.result();
  EXPECT_EQ(SocketPair::receive(pair.right()), "pong");
}

TEST(SystemCallErrors, AnInterruptedAcceptIsRetriedAtOnce) {
  faults::AskedOnly only_asked;
  VirtualClock clock;
  EventLoop loop(clock);
  TcpListener listener;
  Fd client = connected_client(loop, listener);
  faults::fail_next(faults::Call::kAccept, EINTR);
  Future<int> accepted = loop.sock_accept(listener.fd.get());
  ASSERT_TRUE(accepted.done());
  Fd connection(accepted.result());
  EXPECT_GE(connection.get(), 0);
}

TEST(SystemCallErrors, AnInterruptedWaitKeepsTheTimersDeadline) {
  faults::AskedOnly only_asked;
  VirtualClock clock;
  EventLoop loop(clock);
  bool fired = false;
  loop.call_later(250ms, [&] { fired = true; });
  faults::fail_next(faults::Call::kEpollWait, EINTR, 5);
  faults::fail_next(faults::Call::kSelect, EINTR, 5);
  loop.call_later(250ms, [&] { loop.stop(); });
  loop.run_forever();
  EXPECT_TRUE(fired);
  EXPECT_DOUBLE_EQ(testing::seconds(loop.time()), 0.25);
}

TEST(SystemCallErrors, AResetConnectionFailsTheRecvAndTheLoopGoesOn) {
  faults::AskedOnly only_asked;
  VirtualClock clock;
  EventLoop loop(clock);
  SocketPair pair;
  SocketPair::send(pair.right(), "late");
  faults::fail_next(faults::Call::kRecv, ECONNRESET);
  Future<std::string> failed = loop.sock_recv(pair.left(), 100);
  ASSERT_TRUE(failed.done());
  EXPECT_EQ(os_error_of(failed), ECONNRESET);
  EXPECT_FALSE(loop.remove_reader(pair.left()));  // nothing left behind
  EXPECT_EQ(loop.run_until_complete(loop.sock_recv(pair.left(), 100)), "late");
}

TEST(SystemCallErrors, ABrokenPipeFailsTheSendallAndTheLoopGoesOn) {
  faults::AskedOnly only_asked;
  VirtualClock clock;
  EventLoop loop(clock);
  SocketPair pair;
  faults::fail_next(faults::Call::kSend, EPIPE);
  Future<void> failed = loop.sock_sendall(pair.left(), "lost");
  ASSERT_TRUE(failed.done());
  EXPECT_EQ(os_error_of(failed), EPIPE);
  loop.run_until_complete(loop.sock_sendall(pair.left(), "kept"));
  EXPECT_EQ(SocketPair::receive(pair.right()), "kept");
}

TEST(SystemCallErrors, RunningOutOfDescriptorsFailsTheAcceptAndTheNextOneSucceeds) {
  faults::AskedOnly only_asked;
  VirtualClock clock;
  EventLoop loop(clock);
  TcpListener listener;
  Fd client = connected_client(loop, listener);
  faults::fail_next(faults::Call::kAccept, EMFILE);
  Future<int> failed = loop.sock_accept(listener.fd.get());
  ASSERT_TRUE(failed.done());
  EXPECT_EQ(os_error_of(failed), EMFILE);
  Fd connection(loop.run_until_complete(loop.sock_accept(listener.fd.get())));
  EXPECT_GE(connection.get(), 0);  // the client still waited in the backlog
}

TEST(SystemCallErrors, AnAbortedConnectionFailsTheAcceptWithItsOwnError) {
  faults::AskedOnly only_asked;
  VirtualClock clock;
  EventLoop loop(clock);
  TcpListener listener;
  faults::fail_next(faults::Call::kAccept, ECONNABORTED);
  Future<int> failed = loop.sock_accept(listener.fd.get());
  ASSERT_TRUE(failed.done());
  EXPECT_EQ(os_error_of(failed), ECONNABORTED);
}

}  // namespace
}  // namespace looplab
