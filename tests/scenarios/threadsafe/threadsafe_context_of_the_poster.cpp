// call_soon_threadsafe() copies the posting thread's Context when it is
// called, as call_soon() does on the loop's thread: the callback sees the
// thread's values, not the loop thread's; with a Context it runs in that one.
#include <string>
#include <thread>

#include "looplab/event_loop.hpp"
#include "looplab/testing/scenario.hpp"

using looplab::testing::trace;

namespace {

looplab::ContextVar<std::string> request_id("request_id", "none");

void show(const std::string& label) { trace(label + ": request_id = " + request_id.get()); }

}  // namespace

LOOPLAB_SCENARIO(threadsafe_context_of_the_poster) {
  looplab::Context::current() = looplab::Context();
  looplab::EventLoop loop;
  request_id.set("loop thread");
  looplab::Context chosen;
  chosen.run([] { request_id.set("chosen context"); });
  std::thread thread([&] {
    request_id.set("worker");
    loop.call_soon_threadsafe([] { show("posted by the worker"); });
    request_id.set("worker, later");
    loop.call_soon_threadsafe([] { show("posted with context=chosen"); }, chosen);
    loop.call_soon_threadsafe([&loop] { loop.stop(); });
  });
  thread.join();
  loop.run_forever();
  show("the loop thread afterwards");
  loop.close();
}

// expect: posted by the worker: request_id = worker
// expect: posted with context=chosen: request_id = chosen context
// expect: the loop thread afterwards: request_id = loop thread
