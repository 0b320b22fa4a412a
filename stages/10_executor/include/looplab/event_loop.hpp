// event_loop.hpp: EventLoop, stage 10: stage 09's loop, plus the doors to
// a pool of threads.
//
// The loop runs on one thread and must never block. A call that would
// (a file read, a DNS lookup, a library without an asynchronous API) goes
// to an executor instead, a concurrent::ThreadPoolExecutor
// (thread_pool_executor.hpp): run_in_executor() submits it there and
// returns a loop's Future that completes, on the loop's thread, when the
// call returns, through stage 09's one thread-safe door. The loop has a
// default executor of its own, made on first use and shut down with the
// loop; getaddrinfo() and sock_connect() to a host name use it, as
// asyncio's do.
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
#include <unordered_map>
#include <utility>
#include <vector>

#include "looplab/addr_info.hpp"
#include "looplab/clock.hpp"
#include "looplab/concurrent_future.hpp"
#include "looplab/context.hpp"
#include "looplab/coro.hpp"
#include "looplab/exceptions.hpp"
#include "looplab/future.hpp"
#include "looplab/handle.hpp"
#include "looplab/plumbing/callback.hpp"
#include "looplab/plumbing/ring_buffer.hpp"
#include "looplab/plumbing/source_location.hpp"
#include "looplab/selector.hpp"
#include "looplab/self_pipe.hpp"
#include "looplab/thread_pool_executor.hpp"
#include "looplab/threadsafe_queue.hpp"
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

// [convert_future_exc]
/// asyncio's _convert_future_exc: a concurrent future's CancelledError or
/// InvalidStateError becomes asyncio's, for a loop's future to hold.
inline std::exception_ptr convert_future_exc(std::exception_ptr error) {
  try {
    std::rethrow_exception(error);
  } catch (const concurrent::CancelledError&) {
    return std::make_exception_ptr(CancelledError());
  } catch (const concurrent::InvalidStateError& e) {
    return std::make_exception_ptr(InvalidStateError(e.what()));
  } catch (...) {
    return error;
  }
}
// [convert_future_exc]
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
  /// ...and the given self-pipe and wake-up rule (the defaults read
  /// LOOPLAB_SELF_PIPE and LOOPLAB_WAKE: chapter 9 measures each).
  EventLoop(Clock& clock, std::unique_ptr<Selector> selector, SelfPipe::Kind self_pipe,
            ThreadsafeQueue::WakeRule wake_rule);
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

  // [call_soon_threadsafe_api]
  /// loop.call_soon_threadsafe(callback): like call_soon(), from any thread.
  /// The callback runs on the loop's thread in a later turn, after what each
  /// thread posted before it; a loop asleep in its selector wakes for it.
  /// RuntimeError("Event loop is closed") once the loop is closed. The
  /// Context is the calling thread's, copied now.
  template <typename F>
  Handle call_soon_threadsafe(F&& callback, SourceLocation where = SourceLocation::current()) {
    require_callback(callback, "call_soon_threadsafe");
    return call_soon_threadsafe_callback(Callback(std::forward<F>(callback)), nullptr, where);
  }
  /// loop.call_soon_threadsafe(callback, context=ctx): run inside a copy of `ctx`.
  template <typename F>
  Handle call_soon_threadsafe(F&& callback, const Context& context,
                              SourceLocation where = SourceLocation::current()) {
    require_callback(callback, "call_soon_threadsafe");
    return call_soon_threadsafe_callback(Callback(std::forward<F>(callback)), &context, where);
  }
  // [call_soon_threadsafe_api]

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

  // [signal_api]
  // ---- Unix signals (asyncio's loop.add_signal_handler) -----------------
  /// Runs `callback` as a normal callback, in a later turn, each time the
  /// process receives `sig`. A second handler for the same signal replaces
  /// the first. Main thread only; one loop at a time receives signals (the
  /// last to add a handler, as with asyncio's signal.set_wakeup_fd). Errors,
  /// as asyncio's: ValueError("invalid signal number N"), RuntimeError for a
  /// closed loop, for another thread ("set_wakeup_fd only works in main
  /// thread of the main interpreter") and for SIGKILL and SIGSTOP ("sig 9
  /// cannot be caught").
  template <typename F>
  void add_signal_handler(int sig, F&& callback, SourceLocation where = SourceLocation::current()) {
    static_assert(!detail::is_coro<std::remove_cvref_t<F>>,
                  "coroutines cannot be used with add_signal_handler(): pass a function");
    check_signal(sig);  // asyncio checks the number first, then the loop
    require_callback(callback, "add_signal_handler");
    add_signal_callback(sig, Callback(std::forward<F>(callback)), where);
  }
  /// Removes the handler of `sig` and restores the default action. Returns
  /// false if there was none. ValueError for an invalid signal number.
  bool remove_signal_handler(int sig);
  // [signal_api]

  // [executor_api]
  // ---- executors (asyncio's loop.run_in_executor) -----------------------

  /// loop.run_in_executor(executor, fn, *args): fn(args...) runs on one of
  /// `executor`'s threads (nullptr: the loop's default executor, made on
  /// first use); the returned future completes on the loop's thread with
  /// its result or exception. Submitted at once. Cancelling the future
  /// cancels the call if it is still queued; a call already running runs
  /// on, and its result is dropped. RuntimeError("Event loop is closed"),
  /// and RuntimeError("Executor shutdown has been called") for the default
  /// executor after shutdown_default_executor(). fn runs in the worker's
  /// own Context, not the caller's (to_thread() copies the caller's).
  template <typename F, typename... Args>
  auto run_in_executor(concurrent::ThreadPoolExecutor* executor, F fn, Args... args)
      -> Future<concurrent::call_result_t<F, Args...>> {
    using R = concurrent::call_result_t<F, Args...>;
    static_assert(!detail::is_coro<R>,
                  "coroutines cannot be used with run_in_executor(): a thread cannot await; "
                  "create_task() runs a coroutine on the loop");
    // [run_in_executor_body]
    check_closed();
    require_callable(fn, "run_in_executor");
    if (executor == nullptr) executor = &default_executor();
    concurrent::Future<R> work = executor->submit(std::move(fn), std::move(args)...);
    return wrap_executor_future(std::move(work));
    // [run_in_executor_body]
  }

  /// loop.set_default_executor(executor): what run_in_executor(nullptr, ...)
  /// uses from now on. TypeError for a null executor. The one it replaces
  /// is not shut down (asyncio's is not either); the loop keeps it until
  /// it is destroyed, which waits for its threads.
  void set_default_executor(std::shared_ptr<concurrent::ThreadPoolExecutor> executor);
  /// The default executor, or null if none was made yet (or after close()).
  concurrent::ThreadPoolExecutor* default_executor_if_any() const noexcept {
    return default_executor_.get();
  }

  /// loop.shutdown_default_executor(timeout): no more work for the default
  /// executor (run_in_executor(nullptr, ...) is refused from now on); then,
  /// if one exists, waits until its threads have finished what is queued
  /// and ended, without blocking the loop: a helper thread does the
  /// joining. After `timeout_seconds` it stops waiting and warns (3.13's
  /// RuntimeWarning, on stderr: not a report for the exception handler).
  Coro<void> shutdown_default_executor(std::optional<double> timeout_seconds = std::nullopt);

  /// loop.getaddrinfo(host, port, family, type, proto, flags): the system's
  /// blocking getaddrinfo(3) on the default executor (GaiError if it fails),
  /// for a numeric address too, as asyncio's. An empty host or port is
  /// Python's None.
  Future<std::vector<AddrInfo>> getaddrinfo(std::string host, std::string port, int family = 0,
                                            int type = 0, int proto = 0, int flags = 0);
  /// loop.sock_connect(sock, (host, port)) for an AF_INET or AF_INET6
  /// socket: resolves `host` for the socket's family, type and protocol
  /// (getaddrinfo(), or at once for a numeric address: asyncio's
  /// _ipaddr_info()), then connects to the first address.
  Coro<void> sock_connect(int fd, std::string host, std::uint16_t port);
  // [executor_api]

  // ---- futures other threads wait for (chain_future.hpp) -----------------
  /// The loop's thread: holds `future` for code on other threads, which may
  /// only hold a number for it (a future's count is not atomic).
  std::uint64_t keep(Ref<FutureBase> future);
  /// The loop's thread: gives back the future kept under `id`, and forgets
  /// it; null if it was taken already, or the loop closed meanwhile.
  Ref<FutureBase> take_kept(std::uint64_t id);

  /// The selector this loop waits in.
  const Selector& selector() const noexcept { return *selector_; }
  /// Descriptors the loop watches for itself (asyncio's _internal_fds): the
  /// self-pipe's. selector().size() counts them too, as len(get_map()) does.
  static constexpr std::size_t internal_fds() noexcept { return 1; }
  /// The callbacks other threads posted, and the self-pipe that wakes the loop.
  const ThreadsafeQueue& threadsafe_queue() const noexcept { return *threadsafe_; }
  /// The same queue, shared: for code on other threads that may outlive the loop.
  std::shared_ptr<ThreadsafeQueue> share_threadsafe_queue() const { return threadsafe_; }

  /// Timers in the heap, cancelled ones included (len(loop._scheduled)).
  std::size_t scheduled_count() const noexcept { return scheduled_.size(); }
  /// Cancelled timers the loop knows are still in the heap (loop._timer_cancelled_count).
  std::size_t timer_cancelled_count() const noexcept { return timer_cancelled_count_; }

  // ---- running and stopping --------------------------------------------

  /// Runs turns until stop() is called. Throws RuntimeError if the loop is
  /// closed or already running. With nothing to do it sleeps until another
  /// thread posts (or a signal, a descriptor, a timer wakes it), as asyncio's
  /// does; on a virtual clock, where only another thread could wake it and
  /// the tests have none, it raises RuntimeError instead of sleeping forever.
  void run_forever();

  /// Asks run_forever() to return after the current turn. Called while the
  /// loop is not running, the next run_forever() runs exactly one turn.
  void stop() noexcept { stopping_ = true; }

  bool is_running() const noexcept {
    return running_thread_.load(std::memory_order_relaxed) != std::thread::id{};
  }
  /// Any thread may ask (a thread about to post, for one).
  bool is_closed() const noexcept { return closed_.load(std::memory_order_relaxed); }
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

  // [wrap_executor_future]
  /// run_in_executor()'s half of wrap_future() (chain_future.hpp): the
  /// outcome hops to the loop's thread with a post; a cancelled loop's
  /// future cancels the work. The concurrent future is run_in_executor()'s
  /// alone, so the loop may take its outcome out instead of copying it.
  template <typename R>
  Future<R> wrap_executor_future(concurrent::Future<R> source) {
    Future<R> destination = create_future<R>();
    std::uint64_t id = keep(Ref<FutureBase>(&destination.state()));
    destination.add_done_callback([this, id, source](Future<R>& done) {
      take_kept(id);
      if (done.cancelled()) source.cancel();
    });
    source.add_done_callback([queue = threadsafe_, this, id](const concurrent::Future<R>& done) {
      try {
        queue->post([this, id, done] { take_executor_outcome(id, done); }, nullptr,
                    SourceLocation::current());
      } catch (const RuntimeError&) {
        // the loop closed: nobody to tell
      }
    });
    return destination;
  }

  /// On the loop's thread. The exception is taken out of the worker's
  /// future even if nobody waits for it any more: a worker must never be
  /// the thread that frees an exception (libstdc++ counts an exception_ptr's
  /// owners in code ThreadSanitizer cannot see, so a free on the worker
  /// after a read here would look like a race).
  template <typename R>
  void take_executor_outcome(std::uint64_t id, const concurrent::Future<R>& done) {
    std::exception_ptr error = done.take_exception();
    Ref<FutureBase> kept = take_kept(id);
    if (!kept || kept->done()) return;  // cancelled meanwhile
    auto& destination = static_cast<FutureState<R>&>(*kept);
    if (done.cancelled()) {
      destination.cancel();
    } else if (error) {
      destination.set_exception(detail::convert_future_exc(std::move(error)));
    } else if constexpr (std::is_void_v<R>) {
      destination.set_result();
    } else {
      destination.set_result(done.take_result());
    }
  }
  // [wrap_executor_future]
  concurrent::ThreadPoolExecutor& default_executor();
  std::thread::id start_executor_shutdown_thread(std::uint64_t joined_id);
  void join_executor_shutdown_thread(std::thread::id helper);
  void warn_executor_not_joined(double timeout_seconds);
  void join_executor_shutdown_threads() noexcept;
  void retire_default_executor() noexcept;
  Future<std::vector<AddrInfo>> resolve_for_socket(int fd, std::string host, std::uint16_t port);
  Future<void> connect_to_first(int fd, const std::vector<AddrInfo>& addresses);
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
  Handle call_soon_threadsafe_callback(Callback callback, const Context* context,
                                       SourceLocation where);
  void take_threadsafe_callbacks();
  /// ValueError("invalid signal number N") unless signal.valid_signals() has `sig`.
  static void check_signal(int sig);
  void add_signal_callback(int sig, Callback callback, SourceLocation where);
  void wake_up();  // the self-pipe's reader: drain it, then look for signals
  void remove_all_signal_handlers() noexcept;
  void release_signal_wakeup_if_unused() noexcept;
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
  std::shared_ptr<ThreadsafeQueue> threadsafe_;  // what other threads post, and the self-pipe
  // asyncio's _signal_handlers: a handler per signal number, queued once per
  // delivery. Only the main thread's loops have any.
  std::vector<Ref<HandleState>> signal_handlers_;
  // Futures chained to other threads' (keep()), by number; the loop's thread only.
  std::unordered_map<std::uint64_t, Ref<FutureBase>> kept_;
  std::uint64_t last_kept_ = 0;
  bool stopping_ = false;            // asyncio's _stopping
  std::atomic<bool> closed_{false};  // read by threads about to post
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
  // asyncio's _default_executor and _executor_shutdown_called.
  std::shared_ptr<concurrent::ThreadPoolExecutor> default_executor_;
  bool executor_shutdown_called_ = false;
  // Executors the loop let go of without waiting (close(), a replaced
  // default): their threads are joined when the loop is destroyed.
  std::vector<std::shared_ptr<concurrent::ThreadPoolExecutor>> retired_executors_;
  // shutdown_default_executor()'s helper threads, joined when the loop is destroyed.
  std::vector<std::thread> executor_shutdown_threads_;
  // [loop_state]
};

/// asyncio.get_running_loop(): the loop running in this thread; RuntimeError if none.
EventLoop& get_running_loop();

/// asyncio's events._get_running_loop(): the loop running in this thread, or nullptr.
EventLoop* get_running_loop_or_null() noexcept;

}  // namespace looplab
