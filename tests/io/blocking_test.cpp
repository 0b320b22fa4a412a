// The loop waits in the selector: it blocks until I/O arrives, and survives signals.
#include <gtest/gtest.h>
#include <pthread.h>

#include <csignal>
#include <string>
#include <thread>

#include "io/socket_pair.hpp"
#include "looplab/event_loop.hpp"
#include "support/run_one_turn.hpp"

namespace looplab {
namespace {

using testing::SocketPair;

TEST(BlockingThreads, WithNothingReadyAndNoTimerTheLoopBlocksUntilIoArrives) {
  EventLoop loop;  // the real clock: the wait is a real select() with no timeout
  SocketPair pair;
  std::string received;
  loop.add_reader(pair.left(), [&] {
    received = SocketPair::receive(pair.left());
    loop.stop();
  });
  // Whenever this thread gets to write, the loop must be waiting or about to wait.
  std::thread writer([&] { SocketPair::send(pair.right(), "wake up"); });
  loop.run_forever();
  writer.join();
  EXPECT_EQ(received, "wake up");
}

extern "C" void ignore_signal(int /*signal*/) {}

TEST(BlockingThreads, ASignalDuringTheWaitIsNotAnError) {
  struct sigaction action {};
  action.sa_handler = ignore_signal;  // no SA_RESTART: select() fails with EINTR
  struct sigaction previous {};
  ASSERT_EQ(::sigaction(SIGUSR1, &action, &previous), 0);
  EventLoop loop;
  SocketPair pair;
  bool read = false;
  loop.add_reader(pair.left(), [&] {
    read = !SocketPair::receive(pair.left()).empty();
    loop.stop();
  });
  pthread_t loop_thread = ::pthread_self();
  std::thread interrupter([&] {
    for (int i = 0; i < 3; ++i) ::pthread_kill(loop_thread, SIGUSR1);
    SocketPair::send(pair.right(), "x");
  });
  loop.run_forever();  // an EINTR escaping as OSError would fail the test here
  interrupter.join();
  ::sigaction(SIGUSR1, &previous, nullptr);
  EXPECT_TRUE(read);
}

}  // namespace
}  // namespace looplab
