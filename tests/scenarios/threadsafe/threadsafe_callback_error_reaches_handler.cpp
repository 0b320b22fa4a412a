// A callback posted from another thread that raises goes to the loop's
// exception handler, like any callback, and the loop goes on: the next
// posted callback runs in the same turn.
#include <sstream>
#include <string>
#include <thread>

#include "looplab/event_loop.hpp"
#include "looplab/testing/scenario.hpp"

using looplab::testing::trace;

namespace {

std::string first_words(const std::string& text, int count) {
  std::istringstream words(text);
  std::string word;
  std::string out;
  for (int i = 0; i < count && words >> word; ++i) out += (i ? " " : "") + word;
  return out;
}

}  // namespace

LOOPLAB_SCENARIO(threadsafe_callback_error_reaches_handler) {
  looplab::EventLoop loop;
  loop.set_exception_handler([](looplab::EventLoop&, const looplab::ExceptionContext& context) {
    try {
      std::rethrow_exception(context.exception);
    } catch (const looplab::ValueError& error) {
      trace("handler: " + first_words(context.message, 3) + " ...: ValueError: " + error.what());
    }
  });
  std::thread thread([&loop] {
    loop.call_soon_threadsafe([] { throw looplab::ValueError("posted and failed"); });
    loop.call_soon_threadsafe([] { trace("the next posted callback runs"); });
    loop.call_soon_threadsafe([&loop] { loop.stop(); });
  });
  thread.join();
  loop.run_forever();
  loop.close();
}

// expect: handler: Exception in callback ...: ValueError: posted and failed
// expect: the next posted callback runs
