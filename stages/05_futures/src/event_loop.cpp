#include "looplab/event_loop.hpp"

#include <fcntl.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <iostream>
#include <string>
#include <string_view>

#include "looplab/default_selector.hpp"
#include "looplab/exceptions.hpp"
#include "looplab/plumbing/check.hpp"
#include "looplab/plumbing/scope_exit.hpp"
#include "looplab/virtual_time_selector.hpp"

namespace looplab {
namespace {

SteadyClock& steady_clock() {
  static SteadyClock clock;
  return clock;
}

// asyncio's events._running_loop: the loop that run_forever() runs on this thread.
thread_local EventLoop* running_loop = nullptr;

// [timer_constants]
// base_events.py: compact the heap when it holds more than this many timers...
constexpr std::size_t kMinScheduledTimerHandles = 100;
// ...and more than half of them are cancelled (_MIN_CANCELLED_TIMER_HANDLES_FRACTION).
constexpr double kMinCancelledTimerHandlesFraction = 0.5;
// The longest the loop sleeps in one go (MAXIMUM_SELECT_TIMEOUT): one day.
constexpr Clock::duration kMaximumSelectTimeout = std::chrono::hours(24);
// [timer_constants]

}  // namespace

EventLoop::EventLoop() : EventLoop(steady_clock()) {}

EventLoop::EventLoop(Clock& clock) : EventLoop(clock, make_default_selector()) {}

EventLoop::EventLoop(Clock& clock, std::unique_ptr<Selector> selector)
    : selector_(waiting_on(clock, std::move(selector))),
      clock_(&clock),
      clock_resolution_(clock.resolution()) {}

EventLoop::~EventLoop() {
  if (is_running()) std::terminate();  // destroying a loop from inside its own callback
  forget_timers();
  forget_io();
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

// [call_at]
TimerHandle EventLoop::call_at_callback(Clock::time_point when, Callback callback,
                                        const Context* context, SourceLocation where) {
  check_closed();
  if (debug_) check_thread();
  // [call_at_body]
  Ref<TimerHandleState> timer(new TimerHandleState(
      when, std::move(callback), context != nullptr ? *context : Context::copy_current(), where));
  timer->set_scheduled_in(this);
  scheduled_.push(timer);
  return TimerHandle(std::move(timer));
  // [call_at_body]
}
// [call_at]

// [schedule_handle]
void EventLoop::schedule_handle(Ref<HandleState> handle) {
  check_closed();
  if (debug_) check_thread();
  ready_.push_back(std::move(handle));
}
// [schedule_handle]

// [run_until_done]
void EventLoop::run_until_done(FutureBase& future) {
  check_closed();
  if (is_running()) throw RuntimeError("This event loop is already running");
  if (&future.get_loop() != this) {
    // asyncio's words (ensure_future): the loop here is the one run_until_complete() runs.
    throw ValueError(
        "The future belongs to a different loop than the one specified as the loop argument");
  }
  // [run_until_done_body]
  // An id of its own, so that removing it leaves the future's other
  // internal callbacks, added with id 0, alone.
  // asyncio's _run_until_complete_cb: a future that ended with SystemExit or
  // KeyboardInterrupt has ended run_forever() already (the error escaped it),
  // so the callback, queued all the same, must not stop the next run. Asking
  // for the exception marks it retrieved, as asyncio's fut.exception() does.
  DoneCallbackId stop_when_done = future.add_done_callback_erased(
      Callback([this, watched = Ref<FutureBase>(&future)] {
        if (!watched->cancelled() && is_loop_exit(watched->exception())) return;
        stop();
      }),
      FutureBase::new_callback_id());
  try {
    run_forever();
  } catch (...) {
    future.remove_done_callback(stop_when_done);
    throw;
  }
  future.remove_done_callback(stop_when_done);
  if (!future.done()) throw RuntimeError("Event loop stopped before Future completed.");
  // [run_until_done_body]
}
// [run_until_done]

// [add_reader]
void EventLoop::add_io_callback(int fd, unsigned event, Callback callback, SourceLocation where) {
  check_closed();
  if (fd < 0) throw ValueError("Invalid file descriptor: " + std::to_string(fd));
  // [add_io_callback_body]
  Ref<HandleState> handle(new HandleState(std::move(callback), Context::copy_current(), where,
                                          HandleState::Runs::kRepeatedly));
  auto index = static_cast<std::size_t>(fd);
  unsigned old_mask = 0;
  if (index < io_handles_.size()) {
    const IoHandles& io = io_handles_[index];
    old_mask = (io.reader ? kEventRead : 0u) | (io.writer ? kEventWrite : 0u);
  }
  if (old_mask == 0) {
    selector_->register_fd(fd, event);  // throws for a closed or unusable descriptor
  } else if ((old_mask & event) == 0) {
    selector_->modify(fd, old_mask | event);
  } else {
    selector_->renew(fd);  // a replaced callback: the number may belong to a new descriptor
  }
  // Grown only once the selector took the descriptor: a huge bad number
  // is an OSError, not a huge table.
  if (index >= io_handles_.size()) io_handles_.resize(index + 1);
  IoHandles& io = io_handles_[index];
  Ref<HandleState>& slot = event == kEventRead ? io.reader : io.writer;
  if (slot) slot->cancel();  // a replaced reader never runs again
  slot = std::move(handle);
  // [add_io_callback_body]
}
// [add_reader]

// [remove_reader]
bool EventLoop::remove_io_callback(int fd, unsigned event) {
  if (closed_) return false;
  if (fd < 0) throw ValueError("Invalid file descriptor: " + std::to_string(fd));
  if (static_cast<std::size_t>(fd) >= io_handles_.size()) return false;
  // [remove_io_callback_body]
  IoHandles& io = io_handles_[static_cast<std::size_t>(fd)];
  Ref<HandleState>& slot = event == kEventRead ? io.reader : io.writer;
  if (!slot) return false;
  slot->cancel();
  slot.reset();
  unsigned mask = (io.reader ? kEventRead : 0u) | (io.writer ? kEventWrite : 0u);
  if (mask == 0) {
    selector_->unregister(fd);
  } else {
    selector_->modify(fd, mask);
  }
  return true;
  // [remove_io_callback_body]
}
// [remove_reader]

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
// One turn of the loop, asyncio's _run_once: each phase is one call.
void EventLoop::run_once() {
  clean_timer_heap();
  std::span<const SelectorEvent> events = wait_for_events();
  process_events(events);
  queue_due_timers();
  run_ready();
}
// [run_once]

// [queue_due_timers]
// Move the timers that are due onto the ready queue, in deadline order. A
// timer is due up to one clock tick early (asyncio's clock_resolution).
void EventLoop::queue_due_timers() {
  // [queue_due_timers_body]
  if (!scheduled_.empty()) {  // no timers, no need to read the clock
    Clock::time_point end_time = time() + clock_resolution_;
    while (!scheduled_.empty() && scheduled_.top_when() < end_time) {
      Ref<TimerHandleState> timer = scheduled_.pop();
      timer->set_scheduled_in(nullptr);
      ready_.push_back(std::move(timer));
    }
  }
  // [queue_due_timers_body]
}
// [queue_due_timers]

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

// [clean_timer_heap]
// Lazy cancellation: cancelled timers stay in the heap until they reach the
// top, except when they are the majority of a big heap: then the heap is
// rebuilt without them, so cancelled timers can never pile up.
void EventLoop::clean_timer_heap() {
  // [clean_timer_heap_body]
  std::size_t count = scheduled_.size();
  if (count > kMinScheduledTimerHandles &&
      static_cast<double>(timer_cancelled_count_) / static_cast<double>(count) >
          kMinCancelledTimerHandlesFraction) {
    scheduled_.keep_only([](TimerHandleState& timer) {
      if (!timer.cancelled()) return true;
      timer.set_scheduled_in(nullptr);
      return false;
    });
    timer_cancelled_count_ = 0;
  } else {
    while (!scheduled_.empty() && scheduled_.top().cancelled()) {
      --timer_cancelled_count_;
      scheduled_.pop()->set_scheduled_in(nullptr);
    }
  }
  // [clean_timer_heap_body]
}
// [clean_timer_heap]

// [wait_for_events]
// The one place the loop waits: in the selector, until a descriptor is ready
// or the next timer is due (poll_timeout). On a virtual clock the selector
// jumps the clock instead of sleeping (virtual_time_selector.hpp).
std::span<const SelectorEvent> EventLoop::wait_for_events() {
  std::optional<Clock::duration> timeout = poll_timeout();
  if (!timeout && selector_->size() == 0) {
    throw RuntimeError(
        "run_forever(): nothing is scheduled, no timer is pending, no descriptor is watched "
        "and stop() was not called; nothing could ever wake the loop");
  }
  try {
    return selector_->select(timeout);
  } catch (const OSError& error) {
    if (error.code().value() != EBADF) throw;
    drop_closed_descriptors();  // a descriptor closed while still registered
    return {};
  }
}
// [wait_for_events]

// [process_events]
void EventLoop::process_events(std::span<const SelectorEvent> events) {
  for (const SelectorEvent& event : events) {
    check_invariant(event.fd >= 0 && static_cast<std::size_t>(event.fd) < io_handles_.size(),
                    "a selector reported a descriptor the loop never registered");
    IoHandles& io = io_handles_[static_cast<std::size_t>(event.fd)];
    // For one descriptor the reader is queued before the writer, as in asyncio.
    if ((event.events & kEventRead) != 0 && io.reader) {
      ready_.push_back(io.reader);
    }
    if ((event.events & kEventWrite) != 0 && io.writer) {
      ready_.push_back(io.writer);
    }
  }
}
// [process_events]

// [drop_closed_descriptors]
// A descriptor closed while still registered makes select() fail (EBADF)
// for every descriptor. asyncio then raises out of run_forever() until the
// program removes it; looplab removes it itself and reports it, so one
// careless close() does not stop every other callback on the loop.
void EventLoop::drop_closed_descriptors() {
  for (std::size_t fd = 0; fd < io_handles_.size(); ++fd) {
    IoHandles& io = io_handles_[fd];
    if ((!io.reader && !io.writer) || ::fcntl(static_cast<int>(fd), F_GETFD) != -1) continue;
    if (io.reader) io.reader->cancel();
    if (io.writer) io.writer->cancel();
    io = IoHandles{};
    selector_->unregister(static_cast<int>(fd));
    call_exception_handler(
        {.message = "File descriptor " + std::to_string(fd) +
                    " was closed while still registered with add_reader()/add_writer(); "
                    "its callbacks were removed (call remove_reader() before close())"});
  }
}
// [drop_closed_descriptors]

// [poll_timeout]
// How long the loop may wait: not at all if something is ready or stop() was
// requested, until the next deadline if a timer is pending (at most a day),
// and forever (nullopt) otherwise.
std::optional<Clock::duration> EventLoop::poll_timeout() const {
  if (!ready_.empty() || stopping_) return Clock::duration::zero();
  if (scheduled_.empty()) return std::nullopt;
  Clock::duration until_next = scheduled_.top_when() - time();
  return std::clamp(until_next, Clock::duration::zero(), kMaximumSelectTimeout);
}
// [poll_timeout]

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

void EventLoop::close() {
  if (is_running()) throw RuntimeError("Cannot close a running event loop");
  if (closed_) return;
  closed_ = true;
  forget_timers();
  forget_io();
  ready_.clear();  // dropped, not run
}

// Unregisters every descriptor (asyncio's close() closes the selector).
void EventLoop::forget_io() noexcept {
  for (std::size_t fd = 0; fd < io_handles_.size(); ++fd) {
    IoHandles& io = io_handles_[fd];
    if (!io.reader && !io.writer) continue;
    if (io.reader) io.reader->cancel();
    if (io.writer) io.writer->cancel();
    try {
      selector_->unregister(static_cast<int>(fd));
    } catch (...) {  // nothing useful to do about a failure while closing
    }
  }
  io_handles_.clear();
}

// Empties the heap. Timers that leave it forget this loop, so that a
// TimerHandle cancelled later never touches a closed or destroyed loop.
void EventLoop::forget_timers() noexcept {
  scheduled_.for_each([](TimerHandleState& timer) { timer.set_scheduled_in(nullptr); });
  scheduled_.clear();
  timer_cancelled_count_ = 0;
}

// ---- errors -----------------------------------------------------------

// [context_of_failure]
// The Context a custom exception handler runs in (asyncio's
// call_exception_handler, 3.12+): the future's, if the report names one (a
// plain future has none: the handler then runs in the current Context; a
// task, chapter 6, has its own), else the handle's.
Context* EventLoop::context_of_failure(const ExceptionContext& context) {
  if (context.future != nullptr) return context.future->get_context();
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
  if (context.future != nullptr) add("future", context.future->repr());
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
  if (context.future != nullptr) report += "\nfuture: " + context.future->repr();
  if (context.handle) report += "\nhandle: " + context.handle.repr();
  if (context.exception) report += "\n" + traceback_last_line(context.exception);
  report += '\n';
  std::cerr << report << std::flush;
}

}  // namespace looplab
