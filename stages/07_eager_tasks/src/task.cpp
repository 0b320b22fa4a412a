#include "looplab/task.hpp"

#include <algorithm>
#include <atomic>
#include <memory>
#include <mutex>
#include <string>
#include <typeinfo>

#include "looplab/plumbing/one_thread.hpp"
#include "looplab/plumbing/scope_exit.hpp"
#include "looplab/run.hpp"

namespace looplab {

namespace {

// asyncio's _current_tasks, for the one loop a thread runs.
thread_local TaskBase* running_task = nullptr;

// asyncio's _scheduled_tasks: the pending tasks of every loop, linked
// through the tasks themselves; all_tasks(loop) picks one loop's. One list
// for the process, as asyncio's, so that a task may be made on one thread
// and end on another (a loop handed to a thread after its first tasks were
// made). The lock costs a task two uncontended lock/unlock pairs in its life,
// and nothing while the process has one thread (plumbing/one_thread.hpp).
std::mutex registry_mutex;
TaskBase* pending_tasks = nullptr;

// Task names, "Task-1", "Task-2"..., counted across the process as asyncio does
// (atomically once a second thread exists).
std::atomic<std::uint64_t> task_counter{0};

}  // namespace

TaskBase* TaskBase::current() noexcept { return running_task; }

// [task_create]
TaskBase::TaskBase(EventLoop& loop, std::coroutine_handle<> root, FutureBase& future)
    : loop_(&loop), future_(&future), root_(root), resume_point_(root) {
  // The first task ever made asks every loop to destroy its pending tasks
  // when it closes (what asyncio leaves to the garbage collector).
  static const bool hooked = (EventLoop::add_close_hook(&abandon_pending_tasks), true);
  (void)hooked;
}

TaskBase::~TaskBase() { forget(); }

// As asyncio: only an unnamed task takes a number from the counter.
void TaskBase::name_task(std::optional<std::string>&& name) {
  if (name) {
    set_name(std::move(*name));
  } else {
    number_ = increment(task_counter);
  }
}

const std::string& TaskBase::get_name() const {
  if (number_ != 0) name_ = "Task-" + std::to_string(std::exchange(number_, 0));
  return name_;
}

void TaskBase::begin(TaskOptions&& options) {
  // [begin_body]
  if (loop_->is_closed()) throw RuntimeError("Event loop is closed");
  context_ = options.context ? std::move(*options.context) : Context::copy_current();
  const TaskFactory& factory = loop_->get_task_factory();
  if (!factory) {
    name_task(std::move(options.name));
    start(options.eager_start.value_or(false));
    return;
  }
  // asyncio 3.12 and 3.13 call the factory without the name and name the
  // task once it returns: an eager first step still sees "Task-N".
  name_task(std::nullopt);
  factory(*loop_, *this, options.eager_start);
  if (!start_called_) throw RuntimeError("the task factory did not start task " + get_name());
  if (options.name) set_name(std::move(*options.name));
  // [begin_body]
}

void TaskBase::start(bool eager) {
  // [start_body]
  if (start_called_) throw RuntimeError("start(): task " + get_name() + " was started already");
  start_called_ = true;
  if (eager && loop_->is_running()) {
    eager_start();
  } else {
    schedule_first_step();  // without a running loop, eager falls back to lazy
  }
  // [start_body]
}

void TaskBase::schedule_first_step() {
  self_ = Ref<FutureBase>(&as_future());  // pending: alive even if nobody holds it
  enter_registry();
  try {
    schedule_step(nullptr);
  } catch (...) {  // a closed loop (RuntimeError): no task after all, and no leak
    forget();
    throw;
  }
}

void TaskBase::schedule_step(std::exception_ptr error) {
  loop_->call_soon([this, keep = self_, error = std::move(error)] { step(error); });
}
// [task_create]

// asyncio's _eager_tasks: the tasks whose eager first step is running on
// this thread. Each step is an object on the stack of the eager_start()
// that runs it, linked to the one it runs inside: the innermost is at hand,
// and entering or leaving costs a store or two. A task that finishes in that
// step is never entered in the registry (two locks saved); all_tasks()
// looks here too.
namespace {
class EagerStep {
 public:
  explicit EagerStep(TaskBase* task) : task_(task), outer_(std::exchange(innermost, this)) {}
  EagerStep(const EagerStep&) = delete;
  EagerStep& operator=(const EagerStep&) = delete;
  ~EagerStep() { innermost = outer_; }

  static inline thread_local EagerStep* innermost = nullptr;
  TaskBase* task() const noexcept { return task_; }
  EagerStep* outer() const noexcept { return outer_; }

 private:
  TaskBase* task_;
  EagerStep* outer_;
};
}  // namespace

// [eager_start]
// Task.__eager_start: the first step, now, inside create_task(). The new
// task is the current task while it runs, and whoever created it (a task,
// or nobody in a plain callback) is current again after: a swap, not the
// "Cannot enter into task" check of a step, since this nests by design.
// A task that finishes here is done before create_task() returns; one that
// waits has registered its wakeup like any step, and goes on lazily.
void TaskBase::eager_start() {
  // [eager_start_body]
  self_ = Ref<FutureBase>(&as_future());  // pending: alive if the step waits
  TaskBase* creator = std::exchange(running_task, this);
  ScopeExit restore([creator] { running_task = creator; });
  {
    EagerStep listed(this);  // all_tasks() sees it during the step
    context_.run([&] { run_coroutine(nullptr); });
  }
  if (!as_future().done()) enter_registry();  // it goes on as a lazy task
  // [eager_start_body]
}
// [eager_start]

// [task_step]
// Task.__step: resume the coroutine where it stopped (throwing `error` there
// if there is one) and see how it stopped.
void TaskBase::step(std::exception_ptr error) {
  if (as_future().done()) throw InvalidStateError("step(): " + get_name() + " is already done");
  loop_->note_task_step(as_future());  // debug mode names a slow step by its task
  // [step_body]
  if (must_cancel_) {
    if (!is_cancelled_error(error)) error = make_cancellation(cancel_message());
    must_cancel_ = false;
  }
  fut_waiter_.reset();
  if (running_task != nullptr) {
    throw RuntimeError("Cannot enter into task " + get_name() + " while another task " +
                       running_task->get_name() + " is being executed.");
  }
  running_task = this;
  ScopeExit leave([] { running_task = nullptr; });
  Ref<FutureBase> keep(&as_future());  // finishing drops self_: stay alive until the end
  context_.run([&] { run_coroutine(std::move(error)); });
  // [step_body]
}

void TaskBase::run_coroutine(std::exception_ptr error) {
  // A coroutine awaited before (create_task() takes one, as asyncio does)
  // cannot start: whatever a first step sends or throws into it, Python's
  // coroutine raises this, a cancellation included.
  if (!started_ && root_.done())
    error = std::make_exception_ptr(RuntimeError("cannot reuse already awaited coroutine"));
  // [run_coroutine_body]
  if (!started_ && error) {
    // Cancelled before its first step: the body never runs.
    ScopeExit forget_after([this] { forget(); });
    complete(std::move(error));
    return;
  }
  started_ = true;
  inject_ = std::move(error);
  // The pump: resume the frame that is due, as long as frames hand over
  // to one another; a frame that waits for a future, or yields, ends it.
  detail::Pump pump{std::exchange(resume_point_, {})};
  ScopeExit restore(
      [outer = std::exchange(detail::current_pump(), &pump)] { detail::current_pump() = outer; });
  while (pump.next) std::exchange(pump.next, {}).resume();

  if (root_.done()) {
    ScopeExit forget_after([this] { forget(); });
    complete(nullptr);
    return;
  }
  // Suspended. If cancel() was called during this step, the future the
  // task now waits for is cancelled straight away.
  if (must_cancel_ && fut_waiter_ && fut_waiter_->cancel(cancel_message())) must_cancel_ = false;
  // [run_coroutine_body]
}
// [task_step]

// [task_wait]
void TaskBase::suspend_on(FutureBase& future, std::coroutine_handle<> frame) {
  resume_point_ = frame;
  if (&future == &as_future()) {
    schedule_step(std::make_exception_ptr(
        RuntimeError("Task cannot await on itself: " + as_future().repr())));
    return;
  }
  if (&future.get_loop() != loop_) {
    schedule_step(
        std::make_exception_ptr(RuntimeError("Task " + as_future().repr() + " got Future " +
                                             future.repr() + " attached to a different loop")));
    return;
  }
  fut_waiter_ = Ref<FutureBase>(&future);
  future.add_done_callback_erased(
      Callback([this, keep = self_, waited = &future] { wakeup(*waited); }), 0);
}

// Task.__wakeup: the future is done; the next step sees its outcome.
void TaskBase::wakeup(FutureBase& future) {
  // [wakeup_body]
  // Its outcome, without throwing it here: the step throws it into the
  // coroutine, where `co_await` would have raised it. (exception() marks it
  // retrieved.)
  step(future.cancelled() ? make_cancellation(future.take_cancelled_message())
                          : future.exception());
  // [wakeup_body]
}

// The CancelledError to throw into the coroutine, remembered with its
// message: if it comes back out, complete() knows it by identity. The
// task's own message (_cancel_message) stays as it was: only a cancel()
// with no future to pass it to sets that (request_cancel()).
std::exception_ptr TaskBase::make_cancellation(std::string message) {
  cancellation_ = std::make_exception_ptr(CancelledError(message));
  cancellation_message_ = std::move(message);
  return cancellation_;
}

void TaskBase::yield(std::coroutine_handle<> frame) {
  resume_point_ = frame;
  schedule_step(nullptr);
}

// Task.__step's `else` branch: the coroutine gave the task nothing it can
// wait for. The frame stays where it suspended, and the next step throws
// the error there, as CPython throws it at the bad `yield`.
void TaskBase::refuse_bad_yield(std::coroutine_handle<> frame, const std::string& awaiter) {
  resume_point_ = frame;
  schedule_step(std::make_exception_ptr(RuntimeError("Task got bad yield: " + awaiter)));
}

void TaskBase::rethrow_injected() {
  if (inject_) std::rethrow_exception(std::exchange(inject_, nullptr));
}
// [task_wait]

// [task_cancel]
bool TaskBase::request_cancel(std::string message) {
  // [request_cancel_body]
  if (as_future().done()) return false;
  ++num_cancels_requested_;
  if (fut_waiter_ && fut_waiter_->cancel(message)) return true;  // the wakeup delivers it
  must_cancel_ = true;  // the next step throws it into the coroutine
  set_cancel_message(std::move(message));
  return true;
  // [request_cancel_body]
}

int TaskBase::uncancel() noexcept {
  if (num_cancels_requested_ > 0) {
    --num_cancels_requested_;
    if (num_cancels_requested_ == 0) must_cancel_ = false;
  }
  return num_cancels_requested_;
}
// [task_cancel]

// [task_registry]
void TaskBase::enter_registry() noexcept {
  LockUnlessAlone lock(registry_mutex);
  registered_ = true;
  next_ = pending_tasks;
  if (next_ != nullptr) next_->previous_ = this;
  pending_tasks = this;
}

void TaskBase::leave_registry() noexcept {
  // Only this task sets the flag: no lock needed to read it, and an eager
  // task that finished inside create_task() takes none.
  if (!std::exchange(registered_, false)) return;
  LockUnlessAlone lock(registry_mutex);
  if (previous_ != nullptr) {
    previous_->next_ = next_;
  } else if (pending_tasks == this) {
    pending_tasks = next_;
  }
  if (next_ != nullptr) next_->previous_ = previous_;
  previous_ = next_ = nullptr;
}
// [task_registry]

// The task is over (or abandoned): out of the registry, frame destroyed,
// and the self-reference dropped last, since it may be the last one.
void TaskBase::forget() noexcept {
  leave_registry();
  if (root_) std::exchange(root_, nullptr).destroy();
  fut_waiter_.reset();
  Ref<FutureBase> last = std::move(self_);  // released when this function returns
}

void TaskBase::report_never_retrieved(std::exception_ptr error) noexcept {
  try {
    loop_->call_exception_handler({.message = "Task exception was never retrieved",
                                   .exception = std::move(error),
                                   .future = &as_future()});
  } catch (...) {  // a destructor reports; it must not throw
  }
}

// [abandon_pending_tasks]
void abandon_pending_tasks(EventLoop& loop) noexcept {
  // Held first: destroying one task's frame may drop the last reference to
  // another.
  std::vector<std::pair<TaskBase*, Ref<FutureBase>>> pending;
  {
    LockUnlessAlone lock(registry_mutex);  // not held below: a handler may make tasks
    for (TaskBase* task = pending_tasks; task != nullptr; task = task->next_) {
      if (task->loop_ == &loop) pending.emplace_back(task, Ref<FutureBase>(&task->as_future()));
    }
  }
  for (auto& [task, keep] : pending) {
    if (!task->root_) continue;  // forgotten meanwhile
    try {
      if (task->log_destroy_pending_) {
        loop.call_exception_handler(
            {.message = "Task was destroyed but it is pending!", .task = &task->as_future()});
      }
    } catch (...) {  // a failing handler must not stop the cleanup
    }
    task->forget();
    task->as_future().forget_callbacks();  // it will never complete
  }
}
// [abandon_pending_tasks]

std::vector<TaskBase*> all_tasks(EventLoop& loop) {
  std::vector<TaskBase*> tasks;
  // asyncio adds _eager_tasks to _scheduled_tasks: here outermost first.
  for (EagerStep* step = EagerStep::innermost; step != nullptr; step = step->outer()) {
    if (step->task()->loop_ == &loop) tasks.push_back(step->task());
  }
  std::reverse(tasks.begin(), tasks.end());
  LockUnlessAlone lock(registry_mutex);
  for (TaskBase* task = pending_tasks; task != nullptr; task = task->next_) {
    if (task->loop_ == &loop) tasks.push_back(task);
  }
  return tasks;
}

// [cancel_all_tasks]
void cancel_all_tasks(EventLoop& loop) {
  std::vector<Ref<FutureBase>> pending;  // held: a finished task may have no other owner
  for (TaskBase* task : all_tasks(loop)) pending.emplace_back(&task->as_future());
  if (pending.empty()) return;
  // asyncio waits with gather(*tasks): each task's done callback counts it,
  // and the last one completes the wait. gather() here wants futures of one
  // type, so this counts by hand, in the same turns.
  Future<void> all_done = loop.create_future<void>();
  auto left = std::make_shared<std::size_t>(pending.size());
  for (const Ref<FutureBase>& task : pending) {
    task->cancel();
    task->add_done_callback_erased(Callback([all_done, left] {
                                     if (--*left == 0) all_done.set_result();
                                   }),
                                   0);
  }
  loop.run_until_complete(all_done);
  for (const Ref<FutureBase>& future : pending) {
    if (future->cancelled()) continue;
    if (std::exception_ptr error = future->exception()) {
      loop.call_exception_handler({.message = "unhandled exception during asyncio.run() shutdown",
                                   .exception = error,
                                   .task = future.get()});
    }
  }
}
// [cancel_all_tasks]

// [eager_task_factory]
void start_task(EventLoop& /*loop*/, TaskBase& task, std::optional<bool> eager_start) {
  task.start(eager_start.value_or(false));
}

TaskFactory create_eager_task_factory(TaskFactory constructor) {
  return [constructor = std::move(constructor)](EventLoop& loop, TaskBase& task,
                                                std::optional<bool> eager_start) {
    constructor(loop, task, eager_start.value_or(true));
  };
}

void eager_task_factory(EventLoop& /*loop*/, TaskBase& task, std::optional<bool> eager_start) {
  task.start(eager_start.value_or(true));
}
// [eager_task_factory]

namespace detail {
void suspend_task_on(FutureBase& future, std::coroutine_handle<> frame) {
  TaskBase* task = TaskBase::current();
  if (task == nullptr) throw RuntimeError("co_await on a Future outside a task");
  task->suspend_on(future, frame);
}
void rethrow_injected() {
  if (TaskBase* task = TaskBase::current()) task->rethrow_injected();
}
void refuse_bad_yield(std::coroutine_handle<> frame, const std::type_info& awaiter) {
  TaskBase* task = TaskBase::current();
  if (task == nullptr) throw RuntimeError("co_await outside a task");
  task->refuse_bad_yield(frame, type_name(awaiter));
}
}  // namespace detail

}  // namespace looplab
