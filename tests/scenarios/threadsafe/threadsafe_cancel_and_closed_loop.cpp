// A posted callback cancelled before its turn never runs; a closed loop
// refuses posts from any thread with RuntimeError, and drops what was
// posted before close() without running it.
#include <exception>
#include <string>
#include <thread>

#include "looplab/event_loop.hpp"
#include "looplab/testing/scenario.hpp"

using looplab::testing::trace;

static const char* yes_no(bool value) { return value ? "True" : "False"; }

LOOPLAB_SCENARIO(threadsafe_cancel_and_closed_loop) {
  looplab::EventLoop loop;
  looplab::Handle handle;
  std::thread poster([&] { handle = loop.call_soon_threadsafe([] { trace("never"); }); });
  poster.join();
  std::thread canceller([&] { handle.cancel(); });
  canceller.join();
  loop.call_soon([] { trace("the turn ran"); });
  loop.stop();
  loop.run_forever();
  trace(std::string("cancelled() = ") + yes_no(handle.cancelled()));

  std::thread late_poster([&] { loop.call_soon_threadsafe([] { trace("dropped by close()"); }); });
  late_poster.join();
  loop.close();
  std::thread refused([&] {
    try {
      loop.call_soon_threadsafe([] { trace("never"); });
    } catch (const looplab::RuntimeError& error) {
      trace(std::string("after close(), from a thread: RuntimeError: ") + error.what());
    }
  });
  refused.join();
}

// expect: the turn ran
// expect: cancelled() = True
// expect: after close(), from a thread: RuntimeError: Event loop is closed
