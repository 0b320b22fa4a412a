#include "looplab/event_loop.hpp"

#include <fcntl.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstdio>
#include <iostream>
#include <mutex>
#include <string>
#include <string_view>

#include "looplab/default_selector.hpp"
#include "looplab/exceptions.hpp"
#include "looplab/plumbing/check.hpp"
#include "looplab/plumbing/prefetch.hpp"
#include "looplab/plumbing/scope_exit.hpp"
#include "looplab/reprlib.hpp"
#include "looplab/task.hpp"
#include "looplab/timeout.hpp"
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
    : EventLoop(clock, std::move(selector), default_self_pipe_kind(), default_wake_rule()) {}

// [loop_constructor]
EventLoop::EventLoop(Clock& clock, std::unique_ptr<Selector> selector, SelfPipe::Kind self_pipe,
                     ThreadsafeQueue::WakeRule wake_rule)
    : selector_(waiting_on(clock, std::move(selector))),
      threadsafe_(std::make_shared<ThreadsafeQueue>(self_pipe, wake_rule)),
      clock_(&clock),
      clock_resolution_(clock.resolution()) {
  // asyncio's _make_self_pipe(): the loop reads its own pipe like any
  // reader; the reader only empties it (the posted callbacks were taken
  // when the selector returned, take_threadsafe_callbacks()).
  add_reader(threadsafe_->self_pipe().read_fd(), [this] { wake_up(); });
}
// [loop_constructor]

EventLoop::~EventLoop() {
  if (is_running()) std::terminate();  // destroying a loop from inside its own callback
  threadsafe_->close();
  remove_all_signal_handlers();
  run_close_hooks();
  kept_.clear();
  forget_timers();
  forget_io();
  ready_.clear();
  // The executors' threads end once they have finished what is queued
  // (their completions are refused now); a loop cannot go before they do.
  join_executor_shutdown_threads();
  default_executor_.reset();
  retired_executors_.clear();
}

EventLoop& get_running_loop() {
  if (running_loop == nullptr) throw RuntimeError("no running event loop");
  return *running_loop;
}

EventLoop* get_running_loop_or_null() noexcept { return running_loop; }

// ---- scheduling -------------------------------------------------------

// [call_soon]
Handle EventLoop::call_soon_callback(Callback callback, const Context* context,
                                     SourceLocation where) {
  check_closed();
  if (debug_) check_thread();
  // [call_soon_body]
  // What other threads posted comes first: asyncio appends their callbacks
  // to the ready queue the moment they are posted.
  if (threadsafe_->maybe_nonempty()) threadsafe_->take_all(ready_);
  Ref<HandleState> handle(new HandleState(
      std::move(callback), context != nullptr ? *context : Context::copy_current(), where));
  ready_.push_back(handle);
  return Handle(std::move(handle));
  // [call_soon_body]
}
// [call_soon]

// [call_soon_threadsafe]
Handle EventLoop::call_soon_threadsafe_callback(Callback callback, const Context* context,
                                                SourceLocation where) {
  // On the running loop's own thread there is nothing to hand over and
  // nobody to wake: it is call_soon().
  if (running_thread_.load(std::memory_order_relaxed) == std::this_thread::get_id()) {
    return call_soon_callback(std::move(callback), context, where);
  }
  return threadsafe_->post(std::move(callback), context, where);  // RuntimeError once closed
}

// Right after the selector returns: what other threads posted joins the
// ready queue ahead of the I/O callbacks, as in asyncio, where the posts
// were appended while the loop slept.
void EventLoop::take_threadsafe_callbacks() {
  if (threadsafe_->maybe_nonempty()) threadsafe_->take_all(ready_);
}
// [call_soon_threadsafe]

// [keep]
std::uint64_t EventLoop::keep(Ref<FutureBase> future) {
  if (debug_) check_thread();
  kept_.emplace(++last_kept_, std::move(future));
  return last_kept_;
}

Ref<FutureBase> EventLoop::take_kept(std::uint64_t id) {
  auto found = kept_.find(id);
  if (found == kept_.end()) return {};
  Ref<FutureBase> future = std::move(found->second);
  kept_.erase(found);
  return future;
}
// [keep]

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
  if (threadsafe_->maybe_nonempty()) threadsafe_->take_all(ready_);
  ready_.push_back(std::move(handle));
}
// [schedule_handle]

// [run_until_done]
void EventLoop::run_until_done(FutureBase& future) {
  check_closed();
  check_running();
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

// asyncio's _check_running(): one loop at a time on a thread, and once.
void EventLoop::check_running() const {
  if (is_running()) throw RuntimeError("This event loop is already running");
  if (running_loop != nullptr) {
    throw RuntimeError("Cannot run the event loop while another loop is running");
  }
}

void EventLoop::check_thread() const {
  // Only checked in debug mode and only while the loop runs, as asyncio does:
  // the ready queue is not thread-safe. asyncio's message stops at "the
  // current one"; this one names the door that is.
  std::thread::id owner = running_thread_.load(std::memory_order_relaxed);
  if (owner != std::thread::id{} && owner != std::this_thread::get_id()) {
    throw RuntimeError(
        "Non-thread-safe operation invoked on an event loop other than the current one; "
        "from another thread, use call_soon_threadsafe()");
  }
}

// ---- running ----------------------------------------------------------

// [run_forever]
void EventLoop::run_forever() {
  check_closed();
  check_running();
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
  take_threadsafe_callbacks();
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
//
// From stage 07 on, a long queue is read ahead: its handles may have been
// made long ago (a lazy task tree's first steps) and be out of the cache.
// Asked for kLookAhead places early, each one's cache miss overlaps the
// runs until its turn instead of stalling the loop (plumbing/prefetch.hpp).
constexpr std::size_t kLookAhead = 8;  // 4 and 12 measured the same

void EventLoop::run_ready() {
  // [run_ready_body]
  std::size_t ntodo = ready_.size();
  for (std::size_t i = 0; i < ntodo; ++i) {
    if (ntodo - i > kLookAhead) prefetch(ready_[kLookAhead].get());
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
  if (!timeout && selector_->size() == internal_fds() && clock_->is_virtual() && kept_.empty()) {
    // Only another thread could wake the loop now, and none is working
    // for it (no future waits for an executor's call): waiting would hang.
    throw RuntimeError(
        "run_forever(): on a virtual clock with nothing scheduled, no timer pending and no "
        "descriptor of the program's watched, the loop would sleep forever");
  }
  // From stage 07: a turn that must not wait, with no descriptor watched,
  // could only hear "nothing ready" from the kernel, so it does not ask
  // (libuv's uv__io_poll() returns early the same way). With one descriptor
  // watched, every turn polls, as asyncio's does. From stage 09 the loop's
  // own self-pipe does not count while it can carry nothing new: no signal
  // handler is set and no other thread has posted since the last turn.
  // (Skipping the poll under a flood of posts too measured slower: the
  // loop's quicker turns took the queue's lock more often than the posting
  // threads filled it.)
  if (timeout == Clock::duration::zero() && selector_->size() == internal_fds() &&
      signal_handlers_.empty() && !threadsafe_->maybe_nonempty()) {
    return {};
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
  if (!ready_.empty() || stopping_ || threadsafe_->maybe_nonempty()) {
    return Clock::duration::zero();
  }
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
  // A task the handle stepped is kept for the report: its last step may
  // have dropped every other reference to it.
  ScopeExit forget_stepped_task([this] { stepped_task_.reset(); });
  Clock::time_point start = clock_->now();
  handle.run(*this);
  Clock::duration took = clock_->now() - start;
  if (took >= slow_callback_duration) {
    std::string name = stepped_task_ ? stepped_task_->repr() : handle.repr();
    std::fprintf(stderr, "Executing %s took %.3f seconds\n", name.c_str(),
                 std::chrono::duration<double>(took).count());
  }
}

void EventLoop::close() {
  if (is_running()) throw RuntimeError("Cannot close a running event loop");
  if (closed_) return;
  remove_all_signal_handlers();
  run_close_hooks();  // before the loop forgets the timers and readers they use
  closed_ = true;
  threadsafe_->close();  // posts are refused from now on; the queued ones dropped
  kept_.clear();         // nothing will ever complete them now
  forget_timers();
  forget_io();
  ready_.clear();  // dropped, not run
  // asyncio: the default executor is told to shut down, without waiting
  // (for its threads, or for a timed-out shutdown's helper: ~EventLoop joins).
  executor_shutdown_called_ = true;
  retire_default_executor();
}

// ---- executors ----------------------------------------------------------

// [default_executor]
concurrent::ThreadPoolExecutor& EventLoop::default_executor() {
  if (executor_shutdown_called_) throw RuntimeError("Executor shutdown has been called");
  if (!default_executor_) {
    default_executor_ = std::make_shared<concurrent::ThreadPoolExecutor>(std::nullopt, "asyncio");
  }
  return *default_executor_;
}

void EventLoop::set_default_executor(std::shared_ptr<concurrent::ThreadPoolExecutor> executor) {
  if (!executor) throw TypeError("executor must be ThreadPoolExecutor instance");
  if (default_executor_) retired_executors_.push_back(std::move(default_executor_));
  default_executor_ = std::move(executor);
}

// The loop lets go of its default executor without waiting for it: the
// threads finish what is queued, and the loop's destructor joins them.
void EventLoop::retire_default_executor() noexcept {
  if (!default_executor_) return;
  default_executor_->shutdown(/*wait=*/false);
  retired_executors_.push_back(std::move(default_executor_));
}
// [default_executor]

// [shutdown_default_executor]
namespace {
Coro<void> await_future(Future<void> future) { co_await future; }

// As Python prints the timeout: a float as repr() does (0.0001, 1e-05), an
// integral one as the int asyncio.run() passes (300, not 300.0).
std::string seconds_text(double seconds) {
  std::string text = python_float_repr(seconds);
  if (text.ends_with(".0")) text.resize(text.size() - 2);
  return text;
}
}  // namespace

Coro<void> EventLoop::shutdown_default_executor(std::optional<double> timeout_seconds) {
  executor_shutdown_called_ = true;
  if (!default_executor_) co_return;
  // A helper thread waits for the executor's threads; the loop waits for
  // the helper's post, and keeps running meanwhile.
  Future<void> joined = create_future<void>();
  std::thread::id helper = start_executor_shutdown_thread(keep(Ref<FutureBase>(&joined.state())));
  if (!timeout_seconds) {
    co_await joined;
  } else {
    bool timed_out = false;
    try {
      Coro<void> waiting = await_future(joined);
      co_await timeout(std::chrono::duration<double>(*timeout_seconds), std::move(waiting));
    } catch (const TimeoutError&) {
      timed_out = true;
    }
    if (timed_out) {
      // The helper thread goes on waiting; the loop's destructor joins it.
      warn_executor_not_joined(*timeout_seconds);
      if (default_executor_) default_executor_->shutdown(/*wait=*/false);
      co_return;
    }
  }
  join_executor_shutdown_thread(helper);  // it has posted: it is ending
}

std::thread::id EventLoop::start_executor_shutdown_thread(std::uint64_t joined_id) {
  return executor_shutdown_threads_
      .emplace_back([executor = default_executor_, queue = threadsafe_, this, joined_id] {
        executor->shutdown(/*wait=*/true);
        try {
          queue->post(
              [this, joined_id] {
                Ref<FutureBase> joined = take_kept(joined_id);
                if (!joined || joined->done()) return;  // the wait was cancelled
                static_cast<FutureState<void>&>(*joined).set_result();
              },
              nullptr, SourceLocation::current());
        } catch (const RuntimeError&) {
          // the loop closed meanwhile: nobody waits
        }
      })
      .get_id();
}

void EventLoop::warn_executor_not_joined(double timeout_seconds) {
  // 3.13's RuntimeWarning, word for word ("finishing" included). A warning,
  // as warnings.warn() writes it, not a report: the exception handler is not
  // called. (Python puts the caller's file and line first.)
  std::string warning =
      "RuntimeWarning: The executor did not finishing joining its threads within " +
      seconds_text(timeout_seconds) + " seconds.\n";
  std::fputs(warning.c_str(), stderr);
}

void EventLoop::join_executor_shutdown_thread(std::thread::id helper) {
  auto found =
      std::find_if(executor_shutdown_threads_.begin(), executor_shutdown_threads_.end(),
                   [helper](const std::thread& thread) { return thread.get_id() == helper; });
  if (found == executor_shutdown_threads_.end()) return;
  found->join();
  executor_shutdown_threads_.erase(found);
}

void EventLoop::join_executor_shutdown_threads() noexcept {
  for (std::thread& helper : executor_shutdown_threads_) {
    if (helper.joinable()) helper.join();
  }
  executor_shutdown_threads_.clear();
}
// [shutdown_default_executor]

// [getaddrinfo]
Future<std::vector<AddrInfo>> EventLoop::getaddrinfo(std::string host, std::string port, int family,
                                                     int type, int proto, int flags) {
  check_closed();
  return run_in_executor(nullptr, &socket_getaddrinfo, std::move(host), std::move(port), family,
                         type, proto, flags);
}
// [getaddrinfo]

// [close_hooks]
namespace {
// A few at most: one per kind of code built on the loop (today, the tasks'
// registry). A plain array, so a loop destroyed at the program's exit never
// meets a list that was destroyed before it.
constexpr std::size_t kMaxCloseHooks = 8;
std::mutex close_hooks_mutex;
std::array<EventLoop::CloseHook, kMaxCloseHooks> close_hooks{};
std::size_t close_hook_count = 0;
}  // namespace

void EventLoop::add_close_hook(CloseHook hook) {
  std::lock_guard lock(close_hooks_mutex);
  if (close_hook_count == kMaxCloseHooks) throw RuntimeError("add_close_hook(): too many hooks");
  close_hooks[close_hook_count++] = hook;
}

void EventLoop::run_close_hooks() noexcept {
  std::array<CloseHook, kMaxCloseHooks> hooks{};
  std::size_t count = 0;
  {
    // Copied: a hook may close another loop.
    std::lock_guard lock(close_hooks_mutex);
    hooks = close_hooks;
    count = close_hook_count;
  }
  for (std::size_t i = 0; i < count; ++i) hooks[i](*this);
}
// [close_hooks]

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
// call_exception_handler, 3.12+): the task's, else the future's (a task
// reported as the future it is, "Task exception was never retrieved"), else
// the handle's. A plain future has no Context: the handler then runs in the
// current one, even if the report also names a handle.
Context* EventLoop::context_of_failure(const ExceptionContext& context) {
  FutureBase* about = context.task != nullptr ? context.task : context.future;
  if (about != nullptr) return about->get_context();
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
  if (context.task != nullptr) add("task", context.task->repr());
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
  if (context.task != nullptr) report += "\ntask: " + context.task->repr();
  if (context.exception) report += "\n" + traceback_last_line(context.exception);
  report += '\n';
  std::cerr << report << std::flush;
}

}  // namespace looplab
