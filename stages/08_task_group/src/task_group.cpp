#include "looplab/task_group.hpp"

#include <algorithm>

#include "looplab/exceptions.hpp"

namespace looplab {

namespace {

// How many children a group makes room for when it adopts its first (six in async_tree).
constexpr std::size_t kFirstChildren = 8;

}  // namespace

TaskGroup::~TaskGroup() {
  for (const Child& child : tasks_) {
    if (child.task) child.task->remove_done_callback(callback_id_);
  }
}

std::string TaskGroup::repr() const {
  std::string info;
  if (live() > 0) info += " tasks=" + std::to_string(live());
  if (!errors_.empty()) info += " errors=" + std::to_string(errors_.size());
  if (aborting_) {
    info += " cancelling";
  } else if (entered_) {
    info += " entered";
  }
  return "<TaskGroup" + info + ">";
}

// [task_group_enter]
void TaskGroup::enter() {
  if (entered_) throw RuntimeError("TaskGroup " + repr() + " has already been entered");
  if (loop_ == nullptr) loop_ = &get_running_loop();
  parent_task_ = TaskBase::current();
  if (parent_task_ == nullptr) {
    throw RuntimeError("TaskGroup " + repr() + " cannot determine the parent task");
  }
  entered_ = true;
}
// [task_group_enter]

// [task_group_create]
void TaskGroup::check_can_create() const {
  if (!entered_) throw RuntimeError("TaskGroup " + repr() + " has not been entered");
  if (exiting_ && live() == 0) throw RuntimeError("TaskGroup " + repr() + " is finished");
  if (aborting_) throw RuntimeError("TaskGroup " + repr() + " is shutting down");
}

void TaskGroup::adopt(FutureBase& task) {
  if (task.done()) {  // finished eagerly: no callback needed
    on_task_done(task);
    return;
  }
  if (tasks_.capacity() == 0) {
    // Room for a few children at once: a group that grew its vectors one
    // child at a time would allocate four times on its way to six.
    tasks_.reserve(kFirstChildren);
    free_slots_.reserve(kFirstChildren);
  }
  std::size_t slot = tasks_.size();
  if (free_slots_.empty()) {
    tasks_.emplace_back();
  } else {
    slot = free_slots_.back();
    free_slots_.pop_back();
  }
  tasks_[slot] = Child{Ref<FutureBase>(&task), ++made_};
  task.add_done_callback_erased(Callback([this, slot] {
                                  Ref<FutureBase> done = std::move(tasks_[slot].task);
                                  free_slots_.push_back(slot);
                                  on_task_done(*done);
                                }),
                                callback_id_);
}
// [task_group_create]

// [task_group_on_task_done]
// asyncio's _on_task_done, once the child has left tasks_.
void TaskGroup::on_task_done(FutureBase& task) {
  // [on_task_done_body]
  if (on_completed_ && live() == 0 && !on_completed_->done()) on_completed_->set_result(true);
  if (task.cancelled()) return;  // not an error
  std::exception_ptr error = task.exception();
  if (!error) return;
  errors_.push_back(error);
  if (is_loop_exit(error) && !base_error_) base_error_ = error;  // asyncio's _is_base_error
  if (parent_task_->as_future().done()) {
    loop_->call_exception_handler(
        {.message = "Task " + task.repr() + " has errored out but its parent task " +
                    parent_task_->as_future().repr() + " is already completed",
         .exception = error,
         .task = &task});
    return;
  }
  if (!aborting_ && !parent_cancel_requested_) {
    // The first failure: cancel the siblings, and the parent, whose body is
    // waiting for something; exit() takes that cancellation back.
    abort();
    parent_cancel_requested_ = true;
    parent_task_->cancel();
  }
  // [on_task_done_body]
}

void TaskGroup::abort() {
  // [abort_body]
  aborting_ = true;
  std::vector<const Child*> children;
  for (const Child& child : tasks_) {
    if (child.task) children.push_back(&child);
  }
  std::sort(children.begin(), children.end(),
            [](const Child* a, const Child* b) { return a->made < b->made; });
  for (const Child* child : children) {
    if (!child->task->done()) child->task->cancel();
  }
  // [abort_body]
}
// [task_group_on_task_done]

// [task_group_exit]
Coro<void> TaskGroup::exit(std::exception_ptr error) {
  // [exit_body]
  exiting_ = true;
  if (error && is_loop_exit(error) && !base_error_) base_error_ = error;
  bool body_cancelled = is_cancelled_error(error);
  std::exception_ptr propagate_cancellation = body_cancelled ? error : nullptr;
  if (error && !aborting_) abort();  // the body failed, or the parent is being cancelled

  // A loop: the wait can be cancelled more than once, if the parent is.
  while (live() > 0) {
    if (!on_completed_) on_completed_ = loop_->create_future<bool>();
    Future<bool> all_done = *on_completed_;
    std::exception_ptr cancelled;
    try {
      co_await all_done;
    } catch (const CancelledError&) {
      cancelled = std::current_exception();
    }
    if (cancelled && !aborting_) {  // the parent is cancelled from outside
      propagate_cancellation = cancelled;
      abort();
    }
    on_completed_.reset();
  }

  if (base_error_) std::rethrow_exception(base_error_);
  // We cancelled the parent ourselves: take it back. If nobody else asked
  // for a cancellation, the CancelledError the body got is ours to swallow.
  if (parent_cancel_requested_ && parent_task_->uncancel() == 0) propagate_cancellation = nullptr;
  // A cancellation goes on, unless children failed: errors come first.
  if (propagate_cancellation && errors_.empty()) std::rethrow_exception(propagate_cancellation);
  if (error && !body_cancelled) errors_.push_back(error);
  if (!errors_.empty()) {
    // Cancelled from outside as well: keep that request, and have it
    // delivered again at the parent's next wait (3.13).
    if (parent_task_->cancelling() > 0) {
      parent_task_->uncancel();
      parent_task_->cancel();
    }
    throw ExceptionGroup("unhandled errors in a TaskGroup", std::exchange(errors_, {}));
  }
  // [exit_body]
}
// [task_group_exit]

}  // namespace looplab
