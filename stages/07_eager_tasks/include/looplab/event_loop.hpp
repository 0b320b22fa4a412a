// event_loop.hpp: EventLoop, stage 07: stage 06's loop, plus a task factory.
//
// The turn is stage 04's, the futures stage 05's and the tasks' bookkeeping
// stage 06's. What is new is loop.set_task_factory(): a function that
// create_task() hands every new task to, and that decides how the task
// starts. The one that matters is eager_task_factory (task.hpp), which runs
// a task's first step inside create_task() itself.
#pragma once

#include <sys/socket.h>

#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <exception>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <thread>
#include <type_traits>
#include <utility>
#include <vector>

#include "looplab/clock.hpp"
#include "looplab/context.hpp"
#include "looplab/coro.hpp"
#include "looplab/exceptions.hpp"
#include "looplab/future.hpp"
#include "looplab/handle.hpp"
#include "looplab/plumbing/callback.hpp"
#include "looplab/plumbing/ring_buffer.hpp"
#include "looplab/plumbing/source_location.hpp"
#include "looplab/selector.hpp"
#include "looplab/timer_handle.hpp"
#include "looplab/timer_heap.hpp"

namespace looplab {

/// What call_exception_handler() receives: asyncio's context dict, as a struct.
struct ExceptionContext {
  std::string message{};
  std::exception_ptr exception{};             // may be null
  Handle handle{};                            // may be empty
  FutureBase* future = nullptr;               // the future the report is about, if any
  FutureBase* task = nullptr;                 // the task it is about, as the Future it is
  const ExceptionContext* context = nullptr;  // the original report, when a handler failed
};

class EventLoop;
using ExceptionHandler = std::function<void(EventLoop&, const ExceptionContext&)>;

class TaskBase;
// [task_factory_type]
/// loop.set_task_factory(factory): create_task() makes each task (only it
/// knows the coroutine's result type) and hands it to the factory, not yet
/// started, with the caller's eager_start= (unset: the factory decides).
/// The factory must start it: start_task(loop, task, eager_start), or
/// task.start(eager). asyncio's factory builds the task as well; the part
/// that is the factory's choice, how the task starts, is the same.
using TaskFactory =
    std::function<void(EventLoop& loop, TaskBase& task, std::optional<bool> eager_start)>;
// [task_factory_type]

namespace detail {
template <typename F>
inline constexpr bool is_coro = false;
template <typename T>
inline constexpr bool is_coro<Coro<T>> = true;
}  // namespace detail

class EventLoop {
 public:
  /// A loop on the real monotonic clock and the default selector
  /// (LOOPLAB_SELECTOR if set, else the best available: default_selector.hpp).
  EventLoop();
  /// A loop that reads time from `clock` (tests pass a VirtualClock), with
  /// the default selector.
  explicit EventLoop(Clock& clock);
  /// A loop with the given clock and selector.
  EventLoop(Clock& clock, std::unique_ptr<Selector> selector);
  EventLoop(const EventLoop&) = delete;
  EventLoop& operator=(const EventLoop&) = delete;
  ~EventLoop();

  // ---- scheduling ------------------------------------------------------

  /// loop.call_soon(callback): runs `callback` in a later turn, in FIFO order,
  /// inside a copy of the caller's Context. `where` records the caller's line.
  template <typename F>
  Handle call_soon(F&& callback, SourceLocation where = SourceLocation::current()) {
    require_callback(callback, "call_soon");
    return call_soon_callback(Callback(std::forward<F>(callback)), nullptr, where);
  }
  /// loop.call_soon(callback, context=ctx): the same, run inside `ctx` (a
  /// copy of it: what the callback sets stays in the handle).
  template <typename F>
  Handle call_soon(F&& callback, const Context& context,
                   SourceLocation where = SourceLocation::current()) {
    require_callback(callback, "call_soon");
    return call_soon_callback(Callback(std::forward<F>(callback)), &context, where);
  }

  // [call_later]
  /// loop.call_later(delay, callback): runs `callback` once `delay` has passed.
  /// A zero or negative delay means "due now"; one beyond 100 years
  /// (infinity included) never comes. NaN is a ValueError (checked_delay()).
  template <typename Rep, typename Period, typename F>
  TimerHandle call_later(std::chrono::duration<Rep, Period> delay, F&& callback,
                         SourceLocation where = SourceLocation::current()) {
    check_closed();  // before time(), as asyncio's call_at checks first
    return call_at(deadline_after(delay), std::forward<F>(callback), where);
  }
  /// loop.call_later(delay, callback, context=ctx): run inside a copy of `ctx`.
  template <typename Rep, typename Period, typename F>
  TimerHandle call_later(std::chrono::duration<Rep, Period> delay, F&& callback,
                         const Context& context, SourceLocation where = SourceLocation::current()) {
    check_closed();  // before time(), as asyncio's call_at checks first
    return call_at(deadline_after(delay), std::forward<F>(callback), context, where);
  }

  /// loop.call_at(when, callback): runs `callback` once time() reaches `when`.
  template <typename F>
  TimerHandle call_at(Clock::time_point when, F&& callback,
                      SourceLocation where = SourceLocation::current()) {
    require_callback(callback, "call_at");
    return call_at_callback(when, Callback(std::forward<F>(callback)), nullptr, where);
  }
  /// loop.call_at(when, callback, context=ctx): run inside a copy of `ctx`.
  template <typename F>
  TimerHandle call_at(Clock::time_point when, F&& callback, const Context& context,
                      SourceLocation where = SourceLocation::current()) {
    require_callback(callback, "call_at");
    return call_at_callback(when, Callback(std::forward<F>(callback)), &context, where);
  }

  /// loop.time(): the loop's clock, monotonic.
  Clock::time_point time() const { return clock_->now(); }
  // [call_later]

  // ---- futures -----------------------------------------------------------

  // [run_until_complete]
  /// loop.create_future(): a new pending Future of this loop.
  template <typename T = void>
  Future<T> create_future() {
    return Future<T>(*this);
  }

  /// loop.run_until_complete(future): runs turns until `future` is done,
  /// then returns its result (or throws its exception, or CancelledError).
  /// The loop stops one turn after the future completes: its done callback
  /// calls stop(), and that callback is queued like any other, so the
  /// callbacks the completion scheduled before it still run. The result is
  /// returned by value: the future may be a temporary that dies with the
  /// statement, and a reference into it would dangle.
  template <typename T>
  T run_until_complete(const Future<T>& future) {
    run_until_done(future.state());
    return future.result();
  }
  // [run_until_complete]
  /// loop.run_until_complete(coro): the same for a coroutine, wrapped in a
  /// task first, as asyncio's ensure_future() does (defined in task.hpp).
  template <typename T>
  T run_until_complete(Coro<T> coro);

  // ---- tasks -------------------------------------------------------------

  /// loop.set_task_factory(factory): what create_task() does with each new
  /// task (task.hpp). An empty factory restores the default: lazy tasks.
  void set_task_factory(TaskFactory factory) {
    // The one replaced may be running: an eager step inside it can call
    // this. It is kept until the next replacement, so it outlives its call.
    replaced_task_factory_ = std::exchange(task_factory_, std::move(factory));
  }
  /// loop.get_task_factory(): empty when the default is in use (asyncio's None).
  const TaskFactory& get_task_factory() const noexcept { return task_factory_; }

  // ---- I/O readiness ----------------------------------------------------

  // [add_reader_api]
  /// loop.add_reader(fd, callback): runs `callback` in every turn in which
  /// `fd` is readable, until remove_reader(fd). A second add_reader for the
  /// same descriptor replaces (and cancels) the first.
  template <typename F>
  void add_reader(int fd, F&& callback, SourceLocation where = SourceLocation::current()) {
    require_callback(callback, "add_reader");
    add_io_callback(fd, kEventRead, Callback(std::forward<F>(callback)), where);
  }
  /// loop.add_writer(fd, callback): the same for "writable".
  template <typename F>
  void add_writer(int fd, F&& callback, SourceLocation where = SourceLocation::current()) {
    require_callback(callback, "add_writer");
    add_io_callback(fd, kEventWrite, Callback(std::forward<F>(callback)), where);
  }
  /// Stops watching `fd` for reading. Returns whether a reader was registered
  /// (false on a closed loop); ValueError for a negative descriptor.
  bool remove_reader(int fd) { return remove_io_callback(fd, kEventRead); }
  /// Stops watching `fd` for writing. Returns whether a writer was registered.
  bool remove_writer(int fd) { return remove_io_callback(fd, kEventWrite); }
  // [add_reader_api]

  // [sock_api]
  // ---- socket operations on futures (asyncio's loop.sock_*) -------------
  // Each tries the system call first and waits for readiness only if the
  // socket would block (EAGAIN). Like asyncio, one waiter per descriptor and
  // direction: a second operation of the same kind on a descriptor replaces
  // the first one's reader (or writer), and the first never completes.
  // The descriptor must be non-blocking (in debug mode a blocking one is a
  // ValueError, as in asyncio).

  /// Receives up to `max_bytes`; "" at end of file.
  Future<std::string> sock_recv(int fd, std::size_t max_bytes);
  /// Sends all of `data`, waiting for room as often as needed.
  Future<void> sock_sendall(int fd, std::string data);
  /// Accepts a connection on a listening socket: the new, non-blocking descriptor.
  Future<int> sock_accept(int fd);
  /// Connects a socket to `address`; an OSError if the connection fails.
  Future<void> sock_connect(int fd, const sockaddr* address, socklen_t length);
  // [sock_api]

  /// The selector this loop waits in.
  const Selector& selector() const noexcept { return *selector_; }

  /// Timers in the heap, cancelled ones included (len(loop._scheduled)).
  std::size_t scheduled_count() const noexcept { return scheduled_.size(); }
  /// Cancelled timers the loop knows are still in the heap (loop._timer_cancelled_count).
  std::size_t timer_cancelled_count() const noexcept { return timer_cancelled_count_; }

  // ---- running and stopping --------------------------------------------

  /// Runs turns until stop() is called. Throws RuntimeError if the loop is
  /// closed or already running, and when nothing is queued, no timer is
  /// pending, no descriptor is watched and stop() was not called: nothing
  /// could ever wake it (asyncio would block forever on its self-pipe).
  void run_forever();

  /// Asks run_forever() to return after the current turn. Called while the
  /// loop is not running, the next run_forever() runs exactly one turn.
  void stop() noexcept { stopping_ = true; }

  bool is_running() const noexcept {
    return running_thread_.load(std::memory_order_relaxed) != std::thread::id{};
  }
  bool is_closed() const noexcept { return closed_; }
  /// A number no other loop of this process had or will have: what knows a
  /// loop when its address may be a later loop's (loop_bound.hpp).
  std::uint64_t serial() const noexcept { return serial_; }

  /// Drops every queued callback, timer and reader/writer without running it.
  /// RuntimeError while running.
  void close();
  /// What close() and the destructor run first, while the loop still has its
  /// timers and readers: how the code built on the loop that keeps state of
  /// its own per loop hears of the end. The tasks' registry (task.cpp) adds
  /// one, which destroys the loop's pending tasks.
  using CloseHook = void (*)(EventLoop& loop) noexcept;
  static void add_close_hook(CloseHook hook);

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
  /// A task's step says which task it runs (task.cpp): in debug mode, a slow
  /// step is reported by the task's repr, not by the handle that ran it, as
  /// asyncio's _format_handle() does.
  void note_task_step(FutureBase& task) noexcept {
    if (debug_) stepped_task_ = Ref<FutureBase>(&task);
  }

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
  /// require_callable() for a callback the loop calls with no arguments,
  /// which must not be a coroutine function: asyncio's debug mode refuses
  /// one ("coroutines cannot be used with call_soon()"); here its type does.
  template <typename F>
  void require_callback(const F& callback, const char* method) const {
    if constexpr (std::is_invocable_v<std::decay_t<F>&>) {  // else Callback says what is wrong
      static_assert(!detail::is_coro<std::invoke_result_t<std::decay_t<F>&>>,
                    "coroutines cannot be used as callbacks: calling this one would make a "
                    "coroutine and never run it; create_task() runs a coroutine");
    }
    require_callable(callback, method);
  }

  friend class TimerHandleState;
  friend class FutureBase;
  /// Queues a handle made elsewhere: a future's done callback, which runs in
  /// the Context it was added in and keeps its future alive.
  void schedule_handle(Ref<HandleState> handle);
  /// The handle now registered for `fd` and `event` (empty if none).
  Handle io_handle(int fd, unsigned event) const;
  /// Removes the reader (or writer) once `future` is done, unless another
  /// callback has replaced it meanwhile (asyncio's _sock_read_done).
  template <typename T>
  void remove_io_when_done(const Future<T>& future, int fd, unsigned event);
  void run_until_done(FutureBase& future);
  /// Called by TimerHandle::cancel() for a timer still in the heap.
  void timer_handle_cancelled() noexcept { ++timer_cancelled_count_; }

 public:
  // [checked_delay]
  /// A delay as the loop's clock counts it (what call_later() adds to
  /// time()). Python's float can hold any delay; a Clock::duration holds
  /// 292 years. ValueError for NaN. A delay longer than 100 years (infinity
  /// included) is kNever: the timer never comes, as asyncio's at `inf`. One
  /// shorter than -100 years (minus infinity included) is -100 years: due now.
  template <typename Rep, typename Period>
  static Clock::duration checked_delay(std::chrono::duration<Rep, Period> delay) {
    double seconds = std::chrono::duration<double>(delay).count();
    if (std::isnan(seconds)) throw ValueError("Invalid delay: NaN (not a number)");
    if (seconds > kMaxDelaySeconds) return kNever;
    if (seconds < -kMaxDelaySeconds) return -kMaxDelay;
    if constexpr (std::is_floating_point_v<Rep>) {
      return std::chrono::round<Clock::duration>(delay);
    } else {
      return std::chrono::duration_cast<Clock::duration>(delay);
    }
  }
  static constexpr Clock::duration kMaxDelay = std::chrono::hours(24 * 365 * 100);
  static constexpr double kMaxDelaySeconds = std::chrono::duration<double>(kMaxDelay).count();
  static constexpr Clock::duration kNever = Clock::duration::max();

  /// time() + delay, the deadline call_later() sets; kNever's never comes.
  template <typename Rep, typename Period>
  Clock::time_point deadline_after(std::chrono::duration<Rep, Period> delay) const {
    Clock::duration checked = checked_delay(delay);
    return checked == kNever ? Clock::time_point::max() : time() + checked;
  }
  // [checked_delay]

 private:
  // `context` null: a copy of the current one (a Context passed by value here
  // would cost every call_soon() a move and a destruction).
  Handle call_soon_callback(Callback callback, const Context* context, SourceLocation where);
  static Context* context_of_failure(const ExceptionContext& context);
  void add_io_callback(int fd, unsigned event, Callback callback, SourceLocation where);
  bool remove_io_callback(int fd, unsigned event);
  std::span<const SelectorEvent> wait_for_events();
  void process_events(std::span<const SelectorEvent> events);
  void drop_closed_descriptors();
  void forget_io() noexcept;
  TimerHandle call_at_callback(Clock::time_point when, Callback callback, const Context* context,
                               SourceLocation where);
  void clean_timer_heap();
  std::optional<Clock::duration> poll_timeout() const;
  void forget_timers() noexcept;
  void run_once();
  void queue_due_timers();
  void run_ready();
  void run_handle(HandleState& handle);
  void check_closed() const;
  void check_running() const;
  void check_thread() const;
  void run_close_hooks() noexcept;

  // [loop_state]
  RingBuffer<Ref<HandleState>> ready_;  // asyncio's _ready
  TimerHeap scheduled_;                 // asyncio's _scheduled
  std::size_t timer_cancelled_count_ = 0;
  // What asyncio keeps in each selector key's `data`: the reader and writer
  // handles of a descriptor, indexed here by the descriptor's number.
  struct IoHandles {
    Ref<HandleState> reader;
    Ref<HandleState> writer;
  };
  std::vector<IoHandles> io_handles_;
  std::unique_ptr<Selector> selector_;
  bool stopping_ = false;  // asyncio's _stopping
  bool closed_ = false;
  std::uint64_t serial_ = next_serial();
  static std::uint64_t next_serial() noexcept {
    static std::atomic<std::uint64_t> last{0};
    return last.fetch_add(1, std::memory_order_relaxed) + 1;
  }
  bool debug_ = false;
  Ref<FutureBase> stepped_task_;  // debug mode: the task the running handle stepped, until reported
  std::atomic<std::thread::id>
      running_thread_{};  // asyncio's _thread_id; read by other threads in debug checks
  ExceptionHandler exception_handler_;
  TaskFactory task_factory_;  // asyncio's _task_factory; empty: None
  TaskFactory replaced_task_factory_;
  Clock* clock_;
  Clock::duration clock_resolution_;  // asyncio's _clock_resolution, read once
  // [loop_state]
};

/// asyncio.get_running_loop(): the loop running in this thread; RuntimeError if none.
EventLoop& get_running_loop();

/// asyncio's events._get_running_loop(): the loop running in this thread, or nullptr.
EventLoop* get_running_loop_or_null() noexcept;

}  // namespace looplab
