// future.hpp: Future<T>, a result that will exist later (asyncio.Future).
//
// A Future starts pending and ends exactly once: with a result
// (set_result), with an exception (set_exception), or cancelled (cancel).
// Whoever wants to know registers a done callback. The rule that the rest
// of the book builds on: completing a future never runs its callbacks
// inline. Each one is handed to the loop with call_soon(), inside the
// Context that was current when it was added, so it runs in a later turn,
// in FIFO order with everything else that is ready. That holds even for a
// callback added to a future that is already done.
//
// FutureBase holds what does not depend on T (the state, the exception, the
// callbacks); FutureState<T> adds the value. Users hold Future<T>, a
// reference-counted handle, as they hold Handle for a scheduled callback.
// A future belongs to one loop and one thread, and must not outlive its loop.
#pragma once

#include <coroutine>
#include <cstdint>
#include <exception>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include "looplab/context.hpp"
#include "looplab/exceptions.hpp"
#include "looplab/handle.hpp"
#include "looplab/plumbing/block_pool.hpp"
#include "looplab/plumbing/callback.hpp"
#include "looplab/plumbing/ref.hpp"
#include "looplab/plumbing/source_location.hpp"
#include "looplab/reprlib.hpp"

namespace looplab {

class EventLoop;
class FutureBase;

namespace detail {
// For co_await on a future (task.cpp): the running task waits for `future`
// at `frame`.
void suspend_task_on(FutureBase& future, std::coroutine_handle<> frame);
}  // namespace detail

/// What add_done_callback() returns and remove_done_callback() takes: a
/// number from a counter. asyncio removes every entry equal to the function
/// it is given; a plain function is the one C++ callable that can be compared,
/// so it gets the same id each time it is added, and removing that id removes
/// every copy. Any other callable gets an id of its own.
using DoneCallbackId = std::uint64_t;

// [future_base]
class FutureBase : public RefCounted, public PoolAllocated {
 public:
  explicit FutureBase(EventLoop& loop) : loop_(&loop) {}
  FutureBase(const FutureBase&) = delete;
  FutureBase& operator=(const FutureBase&) = delete;
  /// Reports an exception nobody retrieved ("Future exception was never
  /// retrieved") to the loop's exception handler.
  virtual ~FutureBase();

  EventLoop& get_loop() const noexcept { return *loop_; }
  /// The Context it runs in: none for a plain future (null); a task's
  /// (Task.get_context(), chapter 6). The exception handler runs in it.
  virtual Context* get_context() noexcept { return nullptr; }
  bool done() const noexcept { return state_ != State::kPending; }
  bool cancelled() const noexcept { return state_ == State::kCancelled; }

  /// Cancels a pending future: it ends cancelled, its callbacks are
  /// scheduled, and waiting on it raises CancelledError(message). Returns
  /// false, changing nothing, if it is already done.
  virtual bool cancel(std::string message = {});

  /// The exception it finished with (null if it finished with a result).
  /// Throws CancelledError if it was cancelled, InvalidStateError if pending.
  std::exception_ptr exception();
  /// The message it was cancelled with (asyncio's _cancel_message). A task
  /// whose coroutine ended with a CancelledError has none: CPython's Task
  /// keeps that error instead, and hands it out once (take_cancelled_message()).
  const std::string& cancel_message() const noexcept {
    static const std::string kNone;
    return message_once_ ? kNone : cancel_message_;
  }
  /// The message of the CancelledError that waiting on it raises now
  /// (asyncio's _make_cancelled_error()): cancel_message(), or once, for such
  /// a task, the message of the error its coroutine ended with.
  std::string take_cancelled_message() {
    if (!message_once_) return cancel_message_;
    message_once_ = false;
    return std::exchange(cancel_message_, {});
  }
  /// Finishes it with an exception. InvalidStateError if it is done already;
  /// TypeError for a null exception_ptr; RuntimeError for a task.
  void set_exception(std::exception_ptr error) {
    check_settable_from_outside("set_exception");
    finish_with_exception(std::move(error));
  }

  /// Adds a callback that ignores its future (Future<T>::add_done_callback
  /// wraps user callbacks into this); `id` is what remove_done_callback takes.
  /// `context`: the Context it runs in; null, a copy of the current one.
  DoneCallbackId add_done_callback_erased(Callback callback, DoneCallbackId id,
                                          const Context* context = nullptr);
  /// Removes the callbacks added with `id`; returns how many it removed (0
  /// once the future is done: its callbacks are then queued on the loop).
  std::size_t remove_done_callback(DoneCallbackId id);
  /// An id never handed out before on this thread, where the future lives
  /// (0 never is: the loop's own callbacks, which nobody removes, use it).
  static DoneCallbackId new_callback_id() noexcept {
    thread_local DoneCallbackId last = 0;
    return ++last;
  }

  /// Like Python's repr(future): "<Future pending>", "<Future cancelled>",
  /// "<Future finished result=42>"...; a task's names it: "<Task pending
  /// name='Task-1'>".
  virtual std::string repr() const { return repr_as("Future", ""); }

 protected:
  /// reprlib.repr() of the result, for repr(): FutureState<T> knows T.
  virtual std::string result_repr() const { return {}; }
  /// "<KIND STATE`extra` exception=...>" (or result=...), the shape both reprs share.
  std::string repr_as(std::string_view kind, std::string_view extra) const;
  /// The word repr() gives a pending future; a task asked to cancel says
  /// "cancelling" instead (base_tasks.py).
  virtual const char* pending_word() const noexcept { return "pending"; }
  /// What Task.cancel() does first: an exception it finished with is not
  /// reported as never retrieved (asyncio clears _log_traceback).
  void silence_never_retrieved() noexcept { retrieved_ = true; }
  /// The exception ~FutureBase() would report as never retrieved (null if
  /// none): a Task reports it itself, as "Task exception ...".
  std::exception_ptr unretrieved_exception() const noexcept {
    return state_ == State::kFinished && !retrieved_ ? exception_ : nullptr;
  }
  /// For result(): throws what asyncio raises, rethrows a stored exception,
  /// and marks the outcome retrieved.
  void check_result();
  /// Moves from pending to finished and schedules the callbacks.
  void finish();
  void require_pending() const;
  /// set_exception() without the check below: how a task ends with an error.
  void finish_with_exception(std::exception_ptr error);
  /// A future may be completed by anyone; a Task only by its coroutine:
  /// asyncio's Task.set_result() and set_exception() raise RuntimeError.
  void check_settable_from_outside(const char* method) const {
    if (is_task_) refuse_outside_completion(method);
  }
  [[noreturn]] static void refuse_outside_completion(const char* method);
  /// Ends cancelled by a CancelledError that `message` is the message of,
  /// handed out once (a task whose coroutine let one out).
  void cancel_with_message_once(std::string message) {
    FutureBase::cancel(std::move(message));
    message_once_ = true;
  }
  /// Reports an exception nobody retrieved ("<class_name> exception was
  /// never retrieved", CPython naming the future's class), once. A derived
  /// future's destructor, which runs first, may report under its own name.
  void report_if_never_retrieved(const char* class_name) noexcept;
  bool is_task_ = false;  // set by TaskState: a flag, not a virtual call per set_result()

 private:
  // Closing a loop destroys its pending tasks (task.cpp); their callbacks
  // can never run then, and are dropped, which breaks the reference cycles
  // they may be part of (gather's children hold gather's callback, which
  // holds the children).
  friend void abandon_pending_tasks(EventLoop& loop) noexcept;
  // A task keeps the message of a cancellation it has not delivered yet
  // where asyncio's Task does, in the future's _cancel_message: it writes
  // cancel_message_ (TaskBase::set_cancel_message()).
  friend class TaskBase;
  void forget_callbacks() noexcept {
    callback0_.reset();
    callbacks_.clear();
  }

  enum class State : std::uint8_t { kPending, kFinished, kCancelled };
  // A done callback waits in the future, with the Context current when it
  // was added; completing the future makes the handle that runs it. (A
  // handle made when the callback is added waits apart from the future, and
  // chapter 7's task tree read each of its 56,000 from memory again.)
  struct DoneCallback {
    Callback callback;
    Context context;
    DoneCallbackId id;
  };
  void schedule_callbacks();
  void schedule(DoneCallback& entry);

  EventLoop* loop_;
  State state_ = State::kPending;
  bool retrieved_ = false;     // asyncio's __log_traceback, inverted
  bool message_once_ = false;  // cancel_message_ is the ended coroutine's, given once
  std::exception_ptr exception_;
  std::string cancel_message_;
  // Most futures get exactly one done callback (the task awaiting them), so
  // the first lives in the future itself, as in CPython's C Future
  // (fut_callback0), and only the ones after it cost the vector an allocation.
  std::optional<DoneCallback> callback0_;
  std::vector<DoneCallback> callbacks_;  // the ones after callback0_, in order
};
// [future_base]

// [future_state]
/// The part of a future that depends on T: its value.
template <typename T>
class FutureState : public FutureBase {
 public:
  using FutureBase::FutureBase;

  /// The value; rethrows the exception it finished with; CancelledError if
  /// cancelled; InvalidStateError("Result is not set.") if pending.
  T& result() {
    check_result();
    return *value_;
  }
  /// Finishes it with `value`. InvalidStateError if it is done already;
  /// RuntimeError for a task.
  void set_result(T value) {
    this->check_settable_from_outside("set_result");
    finish_with_result(std::move(value));
  }

 protected:
  void finish_with_result(T value) {
    require_pending();
    value_.emplace(std::move(value));
    finish();
  }

 private:
  std::string result_repr() const override { return reprlib_repr(*value_); }

  std::optional<T> value_;
};

template <>
class FutureState<void> : public FutureBase {
 public:
  using FutureBase::FutureBase;
  void result() { check_result(); }
  void set_result() {
    this->check_settable_from_outside("set_result");
    finish_with_result();
  }

 protected:
  void finish_with_result() {
    require_pending();
    finish();
  }

 private:
  std::string result_repr() const override { return "None"; }
};
// [future_state]

// [future]
/// The handle users hold: copies share one future.
template <typename T = void>
class Future {
 public:
  using value_type = T;

  /// A new pending future of `loop` (asyncio's loop.create_future()).
  explicit Future(EventLoop& loop) : state_(new FutureState<T>(loop)) {}
  explicit Future(Ref<FutureState<T>> state) : state_(std::move(state)) {}

  EventLoop& get_loop() const noexcept { return state_->get_loop(); }
  bool done() const noexcept { return state_->done(); }
  bool cancelled() const noexcept { return state_->cancelled(); }
  bool cancel(std::string message = {}) const { return state_->cancel(std::move(message)); }

  decltype(auto) result() const { return state_->result(); }
  std::exception_ptr exception() const { return state_->exception(); }
  template <typename... Value>
  void set_result(Value&&... value) const {
    state_->set_result(std::forward<Value>(value)...);
  }
  void set_exception(std::exception_ptr error) const { state_->set_exception(std::move(error)); }
  template <typename E>
  void set_exception(E error) const {
    state_->set_exception(std::make_exception_ptr(std::move(error)));
  }

  /// fut.add_done_callback(fn): `fn(future)` runs in a later turn once the
  /// future is done (scheduled at once if it is done already), inside the
  /// Context current now.
  template <typename F>
  DoneCallbackId add_done_callback(F&& fn) const {
    DoneCallbackId id = id_of(fn);
    return state_->add_done_callback_erased(erased(std::forward<F>(fn)), id);
  }
  /// fut.add_done_callback(fn, context=ctx): the same, inside a copy of `ctx`.
  template <typename F>
  DoneCallbackId add_done_callback(F&& fn, const Context& context) const {
    DoneCallbackId id = id_of(fn);
    return state_->add_done_callback_erased(erased(std::forward<F>(fn)), id, &context);
  }
  std::size_t remove_done_callback(DoneCallbackId id) const {
    return state_->remove_done_callback(id);
  }

  // [future_await]
  /// `co_await future`, inside a task: its result, or its exception thrown.
  /// A future that is already done costs no turn: await_ready() says so and
  /// the task does not suspend. Otherwise the task sleeps until the future
  /// completes, and wakes up one turn after that.
  auto operator co_await() const noexcept {
    struct Awaiter {
      using task_aware [[maybe_unused]] = void;  // it registers the task's wakeup
      Future future;
      bool await_ready() const noexcept { return future.done(); }
      void await_suspend(std::coroutine_handle<> frame) const {
        detail::suspend_task_on(future.state(), frame);
      }
      T await_resume() const { return future.result(); }
    };
    return Awaiter{*this};
  }
  // [future_await]

  std::string repr() const { return state_->repr(); }
  FutureState<T>& state() const noexcept { return *state_; }
  friend bool operator==(const Future& a, const Future& b) noexcept { return a.state_ == b.state_; }

 private:
  template <typename F>
  static DoneCallbackId id_of(const F& fn) {
    static_assert(std::is_invocable_v<std::decay_t<F>&, Future&>,
                  "a done callback is called as fn(future)");
    if constexpr (std::is_pointer_v<std::decay_t<F>>) {
      return function_id<std::decay_t<F>>(fn);
    } else {
      return FutureBase::new_callback_id();
    }
  }
  // The same function, the same id: given the first time this thread sees it.
  template <typename FunctionPointer>
  static DoneCallbackId function_id(FunctionPointer fn) {
    static thread_local std::map<FunctionPointer, DoneCallbackId> ids;
    auto [entry, first_time] = ids.try_emplace(fn, 0);
    if (first_time) entry->second = FutureBase::new_callback_id();
    return entry->second;
  }
  // The callback keeps a plain pointer: the handle that runs it holds the future.
  template <typename F>
  Callback erased(F&& fn) const {
    FutureState<T>* state = state_.get();
    return Callback([fn = std::forward<F>(fn), state]() mutable {
      Future self{Ref<FutureState<T>>(state)};
      fn(self);
    });
  }
  Ref<FutureState<T>> state_;
};
// [future]

}  // namespace looplab
