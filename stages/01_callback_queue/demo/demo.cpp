// demo.cpp: stage 01 in one page. Run it: build/dev/bin/demo_s01
//
// Three callbacks, one that schedules another, one that fails, one that is
// cancelled, and a context variable: everything the chapter explains, with a
// deterministic output that the book includes.
#include <cstdio>
#include <stdexcept>
#include <string>

#include "looplab/event_loop.hpp"

using looplab::ContextVar;
using looplab::EventLoop;
using looplab::ExceptionContext;

// [demo]
ContextVar<std::string> request_id("request_id", "none");

int main() {
  EventLoop loop;
  loop.set_exception_handler([](EventLoop&, const ExceptionContext& context) {
    std::printf("  exception handler: %s\n",
                looplab::describe_exception(context.exception).c_str());
  });

  int turn = 1;
  auto say = [&turn](const char* what) {
    std::printf("turn %d: %s (request_id=%s)\n", turn, what, request_id.get().c_str());
  };

  request_id.set("req-1");
  loop.call_soon([&] {
    say("first callback");
    loop.call_soon([&] { say("scheduled by the first: runs one turn later"); });
  });
  request_id.set("req-2");  // the first callback still sees req-1
  loop.call_soon([&] {
    say("second callback, then it throws");
    throw std::runtime_error("boom");
  });
  looplab::Handle cancelled = loop.call_soon([&] { say("never printed"); });
  cancelled.cancel();
  loop.call_soon([&] { say("third callback: the loop went on after the exception"); });

  // stop() before run_forever() runs exactly one turn: asyncio's "run once" idiom.
  for (; turn <= 2; ++turn) {
    loop.stop();
    loop.run_forever();
  }
  loop.close();
  std::printf("closed: %s\n", loop.is_closed() ? "yes" : "no");
}
// [demo]
