// task_group.hpp: TaskGroup, structured concurrency (asyncio.TaskGroup).
//
// A group ties its children's lives to a block of its parent task:
//
//   async with asyncio.TaskGroup() as group:      co_await task_group(body);
//       group.create_task(fetch(a))               // Coro<void> body(TaskGroup* group) {
//       group.create_task(fetch(b))               //   group->create_task(fetch(a));
//                                                 //   group->create_task(fetch(b)); ...
//
// The block ends only when every child has ended. The first child that
// fails cancels the block's body and every other child; then all the errors
// are raised together as an ExceptionGroup. A cancelled child is not an
// error. SystemExit and KeyboardInterrupt are raised as themselves.
// Cancelling the parent from outside cancels every child, and the
// cancellation goes on out of the block, unless a child failed.
//
// C++ has no `async with` (no asynchronous destructor could wait for the
// children), so the block is a coroutine that receives the group, and
// task_group() runs it between __aenter__ and __aexit__: enter() and exit().
#pragma once

#include <concepts>
#include <cstddef>
#include <cstdint>
#include <exception>
#include <optional>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "looplab/coro.hpp"
#include "looplab/event_loop.hpp"
#include "looplab/exception_group.hpp"
#include "looplab/future.hpp"
#include "looplab/task.hpp"

namespace looplab {

// [task_group_class]
class TaskGroup {
 public:
  TaskGroup() = default;
  TaskGroup(const TaskGroup&) = delete;
  TaskGroup& operator=(const TaskGroup&) = delete;
  /// Only a group whose parent's frame is destroyed before the block ends
  /// (a loop closed under it) has children left: it unhooks itself from them.
  ~TaskGroup();

  /// group.create_task(coro, name=..., context=...): a child task, made
  /// through the loop (so its task factory, eager start included, applies).
  /// RuntimeError if the group was never entered, is shutting down (a child
  /// failed, or the parent is cancelled) or is finished; the coroutine is
  /// then destroyed without running, as 3.13 closes it.
  template <typename T>
  Task<T> create_task(Coro<T> coro, TaskOptions options = {}) {
    check_can_create();
    Task<T> task = looplab::create_task(*loop_, std::move(coro), std::move(options));
    adopt(task.base().as_future());
    return task;
  }
  /// The same for fn(args...), copied into the task (as looplab::create_task).
  template <typename F, typename... Args>
  requires std::invocable<F&, Args&...>
  auto create_task(F fn, Args... args) {
    check_can_create();
    auto task = looplab::create_task(*loop_, std::move(fn), std::move(args)...);
    adopt(task.base().as_future());
    return task;
  }

  /// repr(group): "<TaskGroup tasks=2 entered>", "<TaskGroup cancelling>".
  std::string repr() const;

  /// __aenter__: the current task becomes the parent. task_group() calls it.
  void enter();
  /// __aexit__(error): wait for every child, then raise what asyncio raises.
  /// `error` is what left the body (null: it returned). task_group() calls it.
  Coro<void> exit(std::exception_ptr error);

 private:
  void check_can_create() const;
  void adopt(FutureBase& task);
  void on_task_done(FutureBase& task);
  void abort();
  /// How many children are not done: the slots not free.
  std::size_t live() const noexcept { return tasks_.size() - free_slots_.size(); }

  bool entered_ = false;
  bool exiting_ = false;
  bool aborting_ = false;
  bool parent_cancel_requested_ = false;
  EventLoop* loop_ = nullptr;
  TaskBase* parent_task_ = nullptr;  // its frame holds this group: it outlives it
  // asyncio's _tasks, the children not done. A child keeps its slot until it
  // ends; a free slot is reused, so that the done callback can name its
  // child by slot, and adding or removing a child is O(1). `made` numbers
  // the children, so that abort() cancels them in the order they were made
  // (asyncio's set has no order; this one is the one a reader expects).
  struct Child {
    Ref<FutureBase> task;
    std::uint64_t made = 0;
  };
  std::vector<Child> tasks_;
  std::vector<std::size_t> free_slots_;
  std::uint64_t made_ = 0;
  DoneCallbackId callback_id_ = FutureBase::new_callback_id();
  std::vector<std::exception_ptr> errors_;
  std::exception_ptr base_error_;             // the first SystemExit or KeyboardInterrupt
  std::optional<Future<bool>> on_completed_;  // while exit() waits for the children
};
// [task_group_class]

// [task_group]
/// `async with asyncio.TaskGroup() as group: <body>`, as
/// `co_await task_group(body, args...)`: runs body(&group, args...) inside
/// a new group, then waits for its children. Returns what the body returns.
template <typename F, typename... Args>
requires std::invocable<F&, TaskGroup*, Args&...>
auto task_group(F body, Args... args)
    -> Coro<typename std::invoke_result_t<F&, TaskGroup*, Args&...>::value_type> {
  using T = typename std::invoke_result_t<F&, TaskGroup*, Args&...>::value_type;
  TaskGroup group;
  group.enter();
  std::exception_ptr error;
  if constexpr (std::is_void_v<T>) {
    try {
      co_await body(&group, args...);
    } catch (...) {
      error = std::current_exception();  // exit() decides what goes on
    }
    co_await group.exit(error);
  } else {
    std::optional<T> result;
    try {
      result.emplace(co_await body(&group, args...));
    } catch (...) {
      error = std::current_exception();
    }
    co_await group.exit(error);                  // with an error, it always throws ...
    if (!result) std::rethrow_exception(error);  // ... so this never does
    co_return std::move(*result);
  }
}
// [task_group]

}  // namespace looplab
