// A concurrent future without any loop: its states, cancel() that works only
// while pending, done callbacks in the order they were added (at once once it
// is done), and set_running_or_notify_cancel() telling a worker to skip.
#include <string>

#include "looplab/concurrent_future.hpp"
#include "looplab/testing/scenario.hpp"

using looplab::testing::trace;

namespace {

std::string python_bool(bool value) { return value ? "True" : "False"; }

template <typename T>
void show(const std::string& label, const looplab::concurrent::Future<T>& future) {
  trace(label + ": running=" + python_bool(future.running()) +
        " done=" + python_bool(future.done()) + " cancelled=" + python_bool(future.cancelled()));
}

}  // namespace

LOOPLAB_SCENARIO(concurrent_future_states) {
  using Future = looplab::concurrent::Future<int>;
  Future future;
  show("new", future);
  future.add_done_callback([](const Future&) { trace("callback 1"); });
  future.add_done_callback([](const Future&) { trace("callback 2"); });
  trace("set_running_or_notify_cancel(): " + python_bool(future.set_running_or_notify_cancel()));
  show("running", future);
  trace("cancel() while running: " + python_bool(future.cancel()));
  future.set_result(7);
  show("finished", future);
  future.add_done_callback([](const Future& done) {
    trace("callback 3, added late: result " + std::to_string(done.result()));
  });
  trace("cancel() once finished: " + python_bool(future.cancel()));

  future = Future();
  future.add_done_callback([](const Future& done) {
    trace("callback on cancel: cancelled=" + python_bool(done.cancelled()));
  });
  trace("cancel() while pending: " + python_bool(future.cancel()));
  trace("cancel() again: " + python_bool(future.cancel()));
  trace("set_running_or_notify_cancel(): " + python_bool(future.set_running_or_notify_cancel()));
  show("cancelled", future);
  try {
    future.result();
  } catch (const looplab::concurrent::CancelledError&) {
    trace("result(): CancelledError");
  }
}

// expect: new: running=False done=False cancelled=False
// expect: set_running_or_notify_cancel(): True
// expect: running: running=True done=False cancelled=False
// expect: cancel() while running: False
// expect: callback 1
// expect: callback 2
// expect: finished: running=False done=True cancelled=False
// expect: callback 3, added late: result 7
// expect: cancel() once finished: False
// expect: callback on cancel: cancelled=True
// expect: cancel() while pending: True
// expect: cancel() again: True
// expect: set_running_or_notify_cancel(): False
// expect: cancelled: running=False done=True cancelled=True
// expect: result(): CancelledError
