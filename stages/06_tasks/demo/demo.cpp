// demo.cpp: stage 04 in one page. Run it: build/dev/bin/demo_s04
//
// Stage 03's demo, once on every selector this build has: a reader on one
// end of a socket pair, timers that write to and close the other end. The
// loop's code is the same for all of them; only the selector changes, and
// the output shows that what the program sees does not. The clock is
// virtual, so the output is the same on every machine.
#include <sys/socket.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <string>

#include "looplab/default_selector.hpp"
#include "looplab/event_loop.hpp"

using namespace std::chrono_literals;
using looplab::EventLoop;
using looplab::SelectorKind;
using looplab::VirtualClock;

// [demo]
void run_on(SelectorKind kind) {
  int ends[2];
  if (::socketpair(AF_UNIX, SOCK_STREAM, 0, ends) != 0) return;
  VirtualClock clock;
  EventLoop loop(clock, looplab::make_selector(kind));
  std::printf("-- %s\n", loop.selector().name());
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

int main() {
  for (SelectorKind kind : looplab::compiled_selectors()) run_on(kind);
}
// [demo]
