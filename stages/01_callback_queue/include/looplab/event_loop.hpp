// event_loop.hpp: EventLoop, stage 01: a queue of callbacks and a loop that runs it.
//
// This is asyncio's BaseEventLoop with everything but the ready queue taken
// out: no timers, no I/O, no futures yet. What is left is the heart of every
// later stage: call_soon() appends a Handle to the ready queue; one turn of the
// loop (run_once, asyncio's _run_once) runs exactly the handles that were
// queued when the turn began; run_forever() repeats turns until stop().
#pragma once

#include <atomic>
#include <chrono>
#include <exception>
#include <functional>
#include <string>
#include <thread>
#include <type_traits>
#include <utility>

#include "looplab/clock.hpp"
#include "looplab/context.hpp"
#include "looplab/exceptions.hpp"
#include "looplab/handle.hpp"
#include "looplab/plumbing/callback.hpp"
#include "looplab/plumbing/ring_buffer.hpp"
#include "looplab/plumbing/source_location.hpp"

namespace looplab {

/// What call_exception_handler() receives: asyncio's context dict, as a struct.
struct ExceptionContext {
  std::string message{};
  std::exception_ptr exception{};             // may be null
  Handle handle{};                            // may be empty
  const ExceptionContext* context = nullptr;  // the original report, when a handler failed
};

class EventLoop;
using ExceptionHandler = std::function<void(EventLoop&, const ExceptionContext&)>;

class EventLoop {
 public:
  /// A loop that reads time from the real monotonic clock.
  EventLoop();
  /// A loop that reads time from `clock` (tests pass a clock they move by hand).
  explicit EventLoop(Clock& clock);
  EventLoop(const EventLoop&) = delete;
  EventLoop& operator=(const EventLoop&) = delete;
  ~EventLoop();

  // ---- scheduling ------------------------------------------------------

  // [call_soon_template]
  /// loop.call_soon(callback): runs `callback` in a later turn, in FIFO order,
  /// inside a copy of the caller's Context. `where` records the caller's line.
  template <typename F>
  Handle call_soon(F&& callback, SourceLocation where = SourceLocation::current()) {
    require_callable(callback, "call_soon");
    return call_soon_callback(Callback(std::forward<F>(callback)), nullptr, where);
  }
  /// loop.call_soon(callback, context=ctx): the same, run inside `ctx` (a
  /// copy of it: what the callback sets stays in the handle).
  template <typename F>
  Handle call_soon(F&& callback, const Context& context,
                   SourceLocation where = SourceLocation::current()) {
    require_callable(callback, "call_soon");
    return call_soon_callback(Callback(std::forward<F>(callback)), &context, where);
  }
  // [call_soon_template]

  // ---- running and stopping --------------------------------------------

  /// Runs turns until stop() is called. Throws RuntimeError if the loop is
  /// closed or already running, and, in this stage, when nothing is queued
  /// and stop() was not called: with nothing to wait for, it would hang.
  void run_forever();

  // [stop]
  /// Asks run_forever() to return after the current turn. Called while the
  /// loop is not running, the next run_forever() runs exactly one turn.
  void stop() noexcept { stopping_ = true; }
  // [stop]

  bool is_running() const noexcept {
    return running_thread_.load(std::memory_order_relaxed) != std::thread::id{};
  }
  bool is_closed() const noexcept { return closed_; }

  /// Drops every queued callback without running it. RuntimeError while running.
  void close();

  // ---- errors ----------------------------------------------------------

  /// Reports an error to the exception handler (the default one if none is set).
  void call_exception_handler(const ExceptionContext& context);
  /// The default handler: writes the report to standard error.
  void default_exception_handler(const ExceptionContext& context);
  /// An empty handler restores the default.
  void set_exception_handler(ExceptionHandler handler) { exception_handler_ = std::move(handler); }
  const ExceptionHandler& get_exception_handler() const noexcept { return exception_handler_; }

  // ---- debug mode (asyncio's loop.set_debug) ---------------------------

  void set_debug(bool enabled) noexcept { debug_ = enabled; }
  bool get_debug() const noexcept { return debug_; }
  /// In debug mode, callbacks that run at least this long are reported.
  std::chrono::nanoseconds slow_callback_duration = std::chrono::milliseconds(100);

 private:
  // A null function pointer, an empty std::function or an empty Callback
  // cannot be called: a TypeError now, rather than a failure when it runs.
  // A closed loop is reported first, as asyncio checks it before the callback.
  template <typename F>
  void require_callable(const F& callback, const char* method) const {
    if constexpr (std::is_constructible_v<bool, const F&>) {
      if (!static_cast<bool>(callback)) {
        check_closed();
        throw TypeError(std::string("a callable object was expected by ") + method +
                        "(), got an empty callback");
      }
    }
  }

  // `context` null: a copy of the current one (a Context passed by value here
  // would cost every call_soon() a move and a destruction).
  Handle call_soon_callback(Callback callback, const Context* context, SourceLocation where);
  static Context* context_of_failure(const ExceptionContext& context);
  void run_once();
  void run_ready();
  void run_handle(HandleState& handle);
  void check_closed() const;
  void check_thread() const;

  // [loop_state]
  RingBuffer<Ref<HandleState>> ready_;  // asyncio's _ready
  bool stopping_ = false;               // asyncio's _stopping
  bool closed_ = false;
  bool debug_ = false;
  std::atomic<std::thread::id>
      running_thread_{};  // asyncio's _thread_id; read by other threads in debug checks
  ExceptionHandler exception_handler_;
  Clock* clock_;
  // [loop_state]
};

/// asyncio.get_running_loop(): the loop running in this thread; RuntimeError if none.
EventLoop& get_running_loop();

}  // namespace looplab
