#include "looplab/event_loop.hpp"

#include <cstdio>
#include <iostream>
#include <string>
#include <string_view>

#include "looplab/plumbing/scope_exit.hpp"

namespace looplab {
namespace {

SteadyClock& steady_clock() {
  static SteadyClock clock;
  return clock;
}

// asyncio's events._running_loop: the loop that run_forever() runs on this thread.
thread_local EventLoop* running_loop = nullptr;

}  // namespace

EventLoop::EventLoop() : EventLoop(steady_clock()) {}

EventLoop::EventLoop(Clock& clock) : clock_(&clock) {}

EventLoop::~EventLoop() {
  if (is_running()) std::terminate();  // destroying a loop from inside its own callback
  ready_.clear();
}

EventLoop& get_running_loop() {
  if (running_loop == nullptr) throw RuntimeError("no running event loop");
  return *running_loop;
}

// ---- scheduling -------------------------------------------------------

// [call_soon]
Handle EventLoop::call_soon_callback(Callback callback, const Context* context,
                                     SourceLocation where) {
  check_closed();
  if (debug_) check_thread();
  // [call_soon_body]
  Ref<HandleState> handle(new HandleState(
      std::move(callback), context != nullptr ? *context : Context::copy_current(), where));
  ready_.push_back(handle);
  return Handle(std::move(handle));
  // [call_soon_body]
}
// [call_soon]

void EventLoop::check_closed() const {
  if (closed_) throw RuntimeError("Event loop is closed");
}

void EventLoop::check_thread() const {
  // Only checked in debug mode and only while the loop runs, as asyncio does:
  // the ready queue is not thread-safe (stage 09 adds call_soon_threadsafe).
  std::thread::id owner = running_thread_.load(std::memory_order_relaxed);
  if (owner != std::thread::id{} && owner != std::this_thread::get_id()) {
    throw RuntimeError(
        "Non-thread-safe operation invoked on an event loop other than the current one");
  }
}

// ---- running ----------------------------------------------------------

// [run_forever]
void EventLoop::run_forever() {
  check_closed();
  if (is_running()) throw RuntimeError("This event loop is already running");
  if (running_loop != nullptr) {
    throw RuntimeError("Cannot run the event loop while another loop is running");
  }
  // Set up before the guarded region, so that a refused nested call above
  // leaves the running loop untouched (CPython 3.13.0 got this wrong: gh-130145).
  running_thread_.store(std::this_thread::get_id(), std::memory_order_relaxed);
  running_loop = this;
  ScopeExit cleanup([this] {
    stopping_ = false;
    running_thread_.store(std::thread::id{}, std::memory_order_relaxed);
    running_loop = nullptr;
  });

  // [run_forever_body]
  for (;;) {
    run_once();
    if (stopping_) break;
  }
  // [run_forever_body]
}
// [run_forever]

// [run_once]
void EventLoop::run_once() {
  // asyncio would now wait in the selector for something to happen. Stage 01
  // has nothing that could happen: an empty queue stays empty.
  if (ready_.empty() && !stopping_) {
    throw RuntimeError(
        "run_forever(): nothing is scheduled and stop() was not called; "
        "with nothing to wait for, the loop would wait forever");
  }

  run_ready();
}
// [run_once]

// [run_ready]
// Run exactly the handles that are queued now. Handles they schedule wait
// for the next turn, so a callback that reschedules itself cannot starve
// the others.
void EventLoop::run_ready() {
  // [run_ready_body]
  std::size_t ntodo = ready_.size();
  for (std::size_t i = 0; i < ntodo; ++i) {
    Ref<HandleState> handle = ready_.pop_front();
    if (handle->cancelled()) continue;
    run_handle(*handle);
  }
  // [run_ready_body]
}
// [run_ready]

// [run_handle]
void EventLoop::run_handle(HandleState& handle) {
  if (!debug_) {
    handle.run(*this);
    return;
  }
  Clock::time_point start = clock_->now();
  handle.run(*this);
  Clock::duration took = clock_->now() - start;
  if (took >= slow_callback_duration) {
    std::fprintf(stderr, "Executing %s took %.3f seconds\n", handle.repr().c_str(),
                 std::chrono::duration<double>(took).count());
  }
}
// [run_handle]

void EventLoop::close() {
  if (is_running()) throw RuntimeError("Cannot close a running event loop");
  if (closed_) return;
  closed_ = true;
  ready_.clear();  // dropped, not run
}

// ---- errors -----------------------------------------------------------

// [context_of_failure]
// The Context a custom exception handler runs in (asyncio's
// call_exception_handler, 3.12+): the handle's, if the report names one.
Context* EventLoop::context_of_failure(const ExceptionContext& context) {
  return context.handle ? &context.handle.get_context() : nullptr;
}
// [context_of_failure]

// [call_exception_handler]
void EventLoop::call_exception_handler(const ExceptionContext& context) {
  // [call_exception_handler_body]
  if (exception_handler_) {
    // A copy runs: the handler may replace itself (set_exception_handler()).
    ExceptionHandler handler = exception_handler_;
    try {
      // asyncio 3.12+: in the Context of what failed, so that a handler that
      // reads a context variable (a request id) sees the failing request's.
      if (Context* failed_in = context_of_failure(context)) {
        failed_in->run([&] { handler(*this, context); });
      } else {
        handler(*this, context);
      }
      return;
    } catch (const LoopExit&) {
      throw;
    } catch (...) {
      // A broken handler must not lose the original report: hand both to the default.
      ExceptionContext failure{.message = "Unhandled error in exception handler",
                               .exception = std::current_exception(),
                               .context = &context};
      try {
        default_exception_handler(failure);
      } catch (...) {
        std::fputs("Exception in default exception handler\n", stderr);
      }
      return;
    }
  }
  try {
    default_exception_handler(context);
  } catch (...) {
    std::fputs("Exception in default exception handler\n", stderr);
  }
  // [call_exception_handler_body]
}
// [call_exception_handler]

namespace {

// The report a failing handler was given, as Python's repr() of its dict
// shows it: the keys in the order asyncio fills them.
std::string context_repr(const ExceptionContext& context) {
  std::string text = "{";
  auto add = [&text](std::string_view key, const std::string& value) {
    if (text.size() > 1) text += ", ";
    text.append("'").append(key).append("': ").append(value);
  };
  add("message", python_repr(context.message));
  if (context.exception) add("exception", exception_repr(context.exception));
  if (context.handle) add("handle", context.handle.repr());
  return text + "}";
}

}  // namespace

void EventLoop::default_exception_handler(const ExceptionContext& context) {
  std::string report =
      context.message.empty() ? "Unhandled exception in event loop" : context.message;
  // asyncio's keys in sorted order, each as "key: repr(value)", then the
  // exception as Python prints one without a traceback: "ValueError: boom".
  if (context.context != nullptr) report += "\ncontext: " + context_repr(*context.context);
  if (context.handle) report += "\nhandle: " + context.handle.repr();
  if (context.exception) report += "\n" + describe_exception(context.exception);
  report += '\n';
  std::cerr << report << std::flush;
}

}  // namespace looplab
