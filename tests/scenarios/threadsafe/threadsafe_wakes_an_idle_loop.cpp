// A loop with nothing to do sleeps in its selector, watching only its
// self-pipe; a thread's post wakes it, and the callback runs on the loop's
// thread, in a Context copied from the posting thread.
#include <string>
#include <thread>

#include "looplab/context.hpp"
#include "looplab/event_loop.hpp"
#include "looplab/future.hpp"
#include "looplab/testing/scenario.hpp"

using looplab::testing::trace;

static looplab::ContextVar<std::string> request_id("request_id", "none");

static const char* yes_no(bool value) { return value ? "True" : "False"; }

LOOPLAB_SCENARIO(threadsafe_wakes_an_idle_loop) {
  looplab::EventLoop loop;
  looplab::Future<std::string> result = loop.create_future<std::string>();
  std::thread::id loop_thread = std::this_thread::get_id();
  std::thread worker([&] {
    request_id.set("set by the thread");
    loop.call_soon_threadsafe([&] {
      trace(std::string("on the loop's thread: ") +
            yes_no(std::this_thread::get_id() == loop_thread));
      trace("request_id in the callback: " + request_id.get());
      result.set_result("posted by a thread");
    });
  });
  // Nothing else is scheduled: only the post can wake the loop.
  trace(loop.run_until_complete(result));
  worker.join();
  trace("request_id in the main thread: " + request_id.get());
  loop.close();
}

// expect: on the loop's thread: True
// expect: request_id in the callback: set by the thread
// expect: posted by a thread
// expect: request_id in the main thread: none
