// demo.cpp: stage 03 in one page. Run it: build/dev/bin/demo_s03
//
// A reader on one end of a socket pair, a timer that writes to the other end:
// the loop waits in select() for whichever comes first. The clock is virtual,
// so the output is the same on every machine, and the book includes it.
#include <sys/socket.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>

#include "looplab/event_loop.hpp"

using namespace std::chrono_literals;
using looplab::EventLoop;
using looplab::VirtualClock;

// [demo]
int main() {
  int ends[2];
  if (::socketpair(AF_UNIX, SOCK_STREAM, 0, ends) != 0) return 1;
  VirtualClock clock;
  EventLoop loop(clock);
  auto say = [&loop](const char* what) {
    double now = std::chrono::duration<double>(loop.time().time_since_epoch()).count();
    std::printf("t=%.3f s  %s\n", now, what);
  };

  loop.add_reader(ends[0], [&] {
    char byte = 0;
    ssize_t n = ::read(ends[0], &byte, 1);
    say(n == 1 ? "reader: got a byte" : "reader: the other end closed");
    if (n <= 0) {
      loop.remove_reader(ends[0]);
      loop.stop();
    }
  });
  loop.call_later(500ms, [&] {
    say("timer: writes one byte");
    (void)::write(ends[1], "x", 1);
  });
  loop.call_later(1s, [&] {
    say("timer: closes the other end");
    ::close(ends[1]);
  });
  loop.run_forever();
  loop.close();
  ::close(ends[0]);
}
// [demo]
