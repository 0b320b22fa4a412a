// task.hpp: Task<T>, a Future that drives a coroutine (asyncio.Task).
//
// A Task owns the outermost frame of a coroutine and advances it one step
// per loop callback, as Task.__step does in CPython's tasks.py:
//
//   * create_task() schedules the first step with call_soon();
//   * a step resumes the coroutine where it stopped and runs it until it
//     waits for a Future that is not done, yields (sleep(0)), or finishes;
//   * waiting for a Future adds the task's wakeup as the future's done
//     callback: when the future completes, the wakeup runs one turn later,
//     and it runs the next step (Task.__wakeup);
//   * a bare yield schedules the next step with call_soon(): one turn;
//   * when the coroutine returns or throws, the task completes as a Future.
//
// Stage 07: an eager task (eager_start, or the loop's eager_task_factory)
// runs its first step inside create_task() instead, when the loop is
// running (Task.__eager_start): a coroutine that never waits is done when
// create_task() returns, and never touches the loop; one that waits goes on
// as a lazy task from where it stopped.
//
// Cancelling a task cancels the future it waits for, or, if there is none,
// makes the next step throw CancelledError at the point where the coroutine
// is suspended. A coroutine may catch it and carry on.
//
// Lifetime: a pending task keeps itself alive, so a task nobody holds still
// runs to its end. Closing the loop destroys the tasks still pending and
// reports each ("Task was destroyed but it is pending!").
#pragma once

#include <concepts>
#include <coroutine>
#include <cstdint>
#include <exception>
#include <optional>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

#include "looplab/context.hpp"
#include "looplab/coro.hpp"
#include "looplab/event_loop.hpp"
#include "looplab/future.hpp"

namespace looplab {

/// create_task()'s keyword arguments, as asyncio's: `name=`, `context=`
/// and `eager_start=`. `create_task(loop, work(), {.name = "fetcher"})`.
struct TaskOptions {
  std::optional<std::string> name{};  // default: "Task-N", N counted across the process
  std::optional<Context> context{};   // default: a copy of the current Context
  /// Run the first step inside create_task() if the loop is running
  /// (Task(eager_start=True); a per-call override of the factory, as
  /// Python 3.14's create_task(eager_start=)). Default: the factory's choice,
  /// which is lazy without one.
  std::optional<bool> eager_start{};
};

// [task_base]
/// The half of a task that does not depend on T: the stepping, the
/// cancellation counters, the registry of pending tasks.
class TaskBase {
 public:
  TaskBase(const TaskBase&) = delete;
  TaskBase& operator=(const TaskBase&) = delete;

  /// asyncio.current_task(): the task whose step is running on this thread
  /// (null in a plain callback).
  static TaskBase* current() noexcept;
  /// asyncio's _log_destroy_pending = False: closing the loop while this task
  /// is pending destroys it without a report (run_until_complete(coro)).
  void do_not_log_destroy_pending() noexcept { log_destroy_pending_ = false; }

  /// Task.get_name(): the name it was given, or "Task-N". The string is made
  /// from N only when asked for, as CPython 3.12's C tasks do: most tasks
  /// never are, and a task that finishes eagerly costs little else.
  const std::string& get_name() const;
  void set_name(std::string name) {
    name_ = std::move(name);
    number_ = 0;
  }
  /// How many cancellations were requested and not taken back (Task.cancelling()).
  int cancelling() const noexcept { return num_cancels_requested_; }
  /// Takes one back (Task.uncancel()); returns how many are left. Reaching
  /// zero also drops a cancellation not yet delivered (as CPython 3.13 does).
  int uncancel() noexcept;

  /// The task as the Future it is.
  FutureBase& as_future() const noexcept { return *future_; }
  /// Task.cancel(msg), for code that holds a TaskBase (current()).
  bool cancel(std::string message = {}) { return future_->cancel(std::move(message)); }
  EventLoop& get_loop() const noexcept { return *loop_; }

  /// How a task factory starts the task it is handed: eagerly (its first
  /// step now, if the loop is running) or lazily (call_soon). Once only.
  void start(bool eager);

  // The awaiters' side (future.hpp, sleep.hpp): the running task suspends.
  /// The innermost frame waits for `future`: its completion wakes the task.
  void suspend_on(FutureBase& future, std::coroutine_handle<> frame);
  /// The innermost frame yields for one turn (sleep(0)).
  void yield(std::coroutine_handle<> frame);
  /// The innermost frame awaits something a task cannot wait for (coro.hpp,
  /// TaskAware): the next step throws RuntimeError into it.
  void refuse_bad_yield(std::coroutine_handle<> frame, const std::string& awaiter);
  /// For every co_await's resumption (coro.hpp, ThrowsInjected): throws what
  /// the step was asked to throw into the coroutine (a CancelledError), if
  /// anything.
  void rethrow_injected();

 protected:
  TaskBase(EventLoop& loop, std::coroutine_handle<> root, FutureBase& future);
  ~TaskBase();  // never deleted as a TaskBase: a Ref<FutureBase> owns each task
  /// Completes the future from the outermost frame, which has finished; or,
  /// when `thrown_before_start` is set, with that error, for a coroutine
  /// cancelled before its first step (its body never runs).
  virtual void complete(std::exception_ptr thrown_before_start) = 0;
  /// Task.cancel()'s work: count the request, then cancel what the task
  /// waits for, or have the next step throw CancelledError.
  bool request_cancel(std::string message);
  /// loop.create_task()'s work, once the task exists: name it, choose its
  /// Context, and start it, through the loop's task factory if it has one.
  void begin(TaskOptions&& options);
  bool must_cancel() const noexcept { return must_cancel_; }
  void* root_address() const noexcept { return root_.address(); }
  /// The message of the latest cancel() that found no future to pass it
  /// to, kept where asyncio's Task keeps it: in the task's own future
  /// (_cancel_message).
  const std::string& cancel_message() const noexcept { return future_->cancel_message(); }
  /// Whether `thrown`, what the coroutine ended with, is the very
  /// CancelledError the task threw into it. Then the task ends cancelled
  /// with that error's message (cancellation_message()), and nothing has to
  /// rethrow the error to learn its type: a C++ throw costs about a
  /// microsecond, more than the rest of a task's end.
  bool is_own_cancellation(const std::exception_ptr& thrown) const noexcept {
    return thrown != nullptr && thrown == cancellation_;
  }
  /// The message of that CancelledError: the one the awaited future was
  /// cancelled with, or cancel_message() if the task had none to cancel.
  const std::string& cancellation_message() const noexcept { return cancellation_message_; }
  /// "Task exception was never retrieved", to the loop's exception handler.
  void report_never_retrieved(std::exception_ptr error) noexcept;
  Context& context() noexcept { return context_; }

 private:
  friend void abandon_pending_tasks(EventLoop& loop) noexcept;
  friend std::vector<TaskBase*> all_tasks(EventLoop& loop);
  void enter_registry() noexcept;
  void leave_registry() noexcept;
  /// The caller's name, or, if none, the next number from the counter.
  void name_task(std::optional<std::string>&& name);
  void schedule_first_step();
  void eager_start();
  void step(std::exception_ptr error);
  void run_coroutine(std::exception_ptr error);
  void wakeup(FutureBase& future);
  std::exception_ptr make_cancellation(std::string message);
  void set_cancel_message(std::string message) { future_->cancel_message_ = std::move(message); }
  void schedule_step(std::exception_ptr error);
  void forget() noexcept;  // at the end: leave the registry, destroy the frame

  EventLoop* loop_;
  FutureBase* future_;                    // this task, as a Future (the other base class)
  Context context_;                       // every step runs in it
  mutable std::string name_;              // given, or made from number_ by get_name()
  mutable std::uint64_t number_ = 0;      // N of "Task-N", until get_name() makes name_
  std::coroutine_handle<> root_;          // the outermost frame, owned
  std::coroutine_handle<> resume_point_;  // the innermost frame, suspended
  Ref<FutureBase> fut_waiter_;            // what the task waits for
  std::exception_ptr inject_;             // to throw at the suspension point
  std::exception_ptr cancellation_;       // the CancelledError last thrown in (make_cancellation)
  std::string cancellation_message_;      // its message
  int num_cancels_requested_ = 0;
  bool must_cancel_ = false;
  bool started_ = false;       // the first step has run
  bool start_called_ = false;  // start() was called (by create_task or a factory)
  bool log_destroy_pending_ = true;
  bool registered_ = false;       // in the registry: an eager task that finished at once never is
  Ref<FutureBase> self_;          // a pending task keeps itself alive
  TaskBase* previous_ = nullptr;  // the registry of pending tasks (task.cpp)
  TaskBase* next_ = nullptr;
};
// [task_base]

// [eager_task_factory]
/// What asyncio's Task(coro, loop=loop, eager_start=...) does about
/// starting: eager if asked to, else lazy. The "task constructor" that
/// create_eager_task_factory() wraps.
void start_task(EventLoop& loop, TaskBase& task, std::optional<bool> eager_start);
/// asyncio.create_eager_task_factory(custom_task_constructor): a factory
/// that has `constructor` start every task eagerly, unless the caller of
/// create_task() said eager_start=false.
TaskFactory create_eager_task_factory(TaskFactory constructor = start_task);
/// asyncio.eager_task_factory: loop.set_task_factory(eager_task_factory)
/// makes every task of the loop eager. A plain function: no wrapper to call
/// through on the path it exists to shorten.
void eager_task_factory(EventLoop& loop, TaskBase& task, std::optional<bool> eager_start);
// [eager_task_factory]

/// Destroys the loop's pending tasks, reporting each: what the loop's close()
/// (and destruction) does first, through its close hook.
void abandon_pending_tasks(EventLoop& loop) noexcept;
/// asyncio.all_tasks(loop): the tasks of `loop` that are not done.
std::vector<TaskBase*> all_tasks(EventLoop& loop);

// [task_state]
// The destructor is virtual through FutureBase, which clang-tidy does not
// see behind the dependent base FutureState<T>.
template <typename T>
// NOLINTNEXTLINE(cppcoreguidelines-virtual-class-destructor)
class TaskState final : public FutureState<T>, public TaskBase {
 public:
  TaskState(EventLoop& loop, Coro<T> coro)
      : FutureState<T>(loop), TaskBase(loop, coro.release(), *this) {
    // Task.set_result() and Task.set_exception(): a task ends only when its
    // coroutine does, so asyncio refuses both, whatever the task's state.
    this->is_task_ = true;
  }
  /// Task.__del__: an exception nobody retrieved is reported as the task's.
  ~TaskState() override {
    if (std::exception_ptr error = this->unretrieved_exception()) {
      this->silence_never_retrieved();
      report_never_retrieved(std::move(error));
    }
  }

  /// Task.cancel(msg): see the top of this file.
  bool cancel(std::string message = {}) override {
    this->silence_never_retrieved();
    return request_cancel(std::move(message));
  }
  using TaskBase::get_loop;
  /// repr(task), without CPython's coro=<...>: "<Task pending name='Task-1'>".
  std::string repr() const override {
    return this->repr_as("Task", " name=" + python_repr(get_name()));
  }
  /// A pending task asked to cancel: "<Task cancelling name='Task-1'>".
  const char* pending_word() const noexcept override {
    return cancelling() > 0 ? "cancelling" : "pending";
  }
  /// Task.get_context(): the Context every step runs in (and the exception
  /// handler, for a report about this task).
  Context* get_context() noexcept override { return &context(); }
  using TaskBase::begin;

 private:
  void complete(std::exception_ptr thrown_before_start) override;
};
// [task_state]

// [task]
/// The handle users hold: a Future<T> (await it, add done callbacks) that
/// can also be asked about its cancellation.
template <typename T = void>
class Task : public Future<T> {
 public:
  explicit Task(Ref<TaskState<T>> state) : Future<T>(Ref<FutureState<T>>(std::move(state))) {}

  /// Task.get_context(): the Context its steps run in.
  Context& get_context() const noexcept { return *this->state().get_context(); }
  int cancelling() const noexcept { return base().cancelling(); }
  int uncancel() const noexcept { return base().uncancel(); }
  const std::string& get_name() const noexcept { return base().get_name(); }
  void set_name(std::string name) const { base().set_name(std::move(name)); }
  /// No state of its own: a Task copied into a Future<T> loses nothing.
  TaskBase& base() const noexcept { return static_cast<TaskState<T>&>(this->state()); }
};
// [task]

// [create_task]
/// loop.create_task(coro, name=..., context=..., eager_start=...): a Task
/// that runs `coro`, from the next turn on, or, eager, from now.
template <typename T>
Task<T> create_task(EventLoop& loop, Coro<T>&& coro, TaskOptions options = {}) {
  // Checked before it is moved from: a Coro refused stays its owner's.
  coro.check_can_start("create_task()");
  // One awaited before makes a task all the same, as in asyncio: its first
  // step fails (TaskBase::run_coroutine()).
  Ref<TaskState<T>> state(new TaskState<T>(loop, std::move(coro)));
  state->begin(std::move(options));
  return Task<T>(std::move(state));
}

/// create_task(loop, fn, args...): the same for fn(args...), where fn and
/// the arguments are copied into the task and live as long as it does. This
/// is the safe way to start a lambda coroutine with captures: a temporary
/// lambda would die at the end of the statement, and its captures with it.
template <typename F, typename... Args>
requires std::invocable<F&, Args&...>
auto create_task(EventLoop& loop, F fn, Args... args) {
  using Result = std::invoke_result_t<F&, Args&...>;
  using T = typename Result::value_type;
  // A coroutine that owns fn and the arguments in its own frame.
  auto owner = [](F fn, Args... args) -> Coro<T> { co_return co_await fn(args...); };
  return create_task(loop, owner(std::move(fn), std::move(args)...));
}
// [create_task]

template <typename T>
T EventLoop::run_until_complete(Coro<T> coro) {
  // Checked before the coroutine becomes a task, as asyncio does: refused,
  // it never runs (not even eagerly, nor in a later run).
  check_closed();
  check_running();
  Task<T> task = create_task(*this, std::move(coro));
  // Nobody else holds this task: if the run ends before it does, the error
  // says so, and close() need not report it as destroyed while pending.
  task.base().do_not_log_destroy_pending();
  try {
    return run_until_complete(task);
  } catch (...) {
    // An error escaped the loop (SystemExit) through the task: nobody can
    // ask the task for it, so it does not count as never retrieved.
    if (task.done() && !task.cancelled()) (void)task.exception();
    throw;
  }
}

template <typename T>
void TaskState<T>::complete(std::exception_ptr thrown_before_start) {
  auto frame = Coro<T>::Frame::from_address(root_address());
  if (is_own_cancellation(thrown_before_start ? thrown_before_start : frame.promise().exception)) {
    // Ended by the cancellation it was sent.
    this->cancel_with_message_once(cancellation_message());
    return;
  }
  try {
    if (thrown_before_start) std::rethrow_exception(thrown_before_start);
    if constexpr (std::is_void_v<T>) {
      frame.promise().take_result();
      if (must_cancel()) {
        this->FutureBase::cancel(cancel_message());  // cancelled during its last step
      } else {
        this->finish_with_result();
      }
    } else {
      T value = frame.promise().take_result();
      if (must_cancel()) {
        this->FutureBase::cancel(cancel_message());
      } else {
        this->finish_with_result(std::move(value));
      }
    }
  } catch (const CancelledError& error) {
    this->cancel_with_message_once(error.message());  // the coroutine ended cancelled
  } catch (const LoopExit&) {
    this->finish_with_exception(std::current_exception());
    throw;  // escapes the loop, as in asyncio
  } catch (...) {
    this->finish_with_exception(std::current_exception());
  }
}

}  // namespace looplab
