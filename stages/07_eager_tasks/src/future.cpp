#include "looplab/future.hpp"

#include <algorithm>
#include <cstdio>
#include <optional>
#include <string>
#include <vector>

#include "looplab/event_loop.hpp"

namespace looplab {
namespace {

// [done_callback_handle]
// The handle that runs one done callback, made as the future completes (as
// asyncio's call_soon() makes it then). It holds the future, so that the
// future lives until every callback has run, however soon its owner lets go.
class DoneCallbackHandle final : public HandleState {
 public:
  DoneCallbackHandle(Callback callback, Context context, FutureBase& future)
      : HandleState(std::move(callback), std::move(context), SourceLocation::current()),
        future_(&future) {}

 private:
  Ref<FutureBase> future_;
};
// [done_callback_handle]

}  // namespace

FutureBase::~FutureBase() {
  if (unretrieved_exception()) report_if_never_retrieved("Future");  // the call only if it reports
}

// [never_retrieved]
void FutureBase::report_if_never_retrieved(const char* class_name) noexcept {
  if (state_ != State::kFinished || !exception_ || retrieved_) return;
  retrieved_ = true;  // reported once
  try {
    loop_->call_exception_handler(
        {.message = std::string(class_name) + " exception was never retrieved",
         .exception = exception_,
         .future = this});
  } catch (...) {
    // A destructor must not throw: what escapes the handler (SystemExit,
    // KeyboardInterrupt) is written out and dropped, as CPython drops an
    // exception raised while a future is finalized ("Exception ignored in").
    std::fprintf(stderr, "Exception ignored in the report of %s: %s\n", repr().c_str(),
                 traceback_last_line(std::current_exception()).c_str());
  }
}
// [never_retrieved]

// CPython's C Future says just this (its Python one names the state).
void FutureBase::require_pending() const {
  if (done()) throw InvalidStateError("invalid state");
}

// [future_finish]
void FutureBase::refuse_outside_completion(const char* method) {
  throw RuntimeError(std::string("Task does not support ") + method + " operation");
}

void FutureBase::finish_with_exception(std::exception_ptr error) {
  require_pending();
  if (!error) throw TypeError("invalid exception object");  // a null exception_ptr
  exception_ = std::move(error);
  // Reported if nobody retrieves it, even for a task whose cancel() came
  // too late and silenced it: asyncio's set_exception() sets
  // __log_traceback again.
  retrieved_ = false;
  finish();
}

bool FutureBase::cancel(std::string message) {
  retrieved_ = true;  // a cancelled future has nothing to report
  if (done()) return false;
  state_ = State::kCancelled;
  cancel_message_ = std::move(message);
  schedule_callbacks();
  return true;
}

void FutureBase::finish() {
  state_ = State::kFinished;
  // No call at all when nobody waits yet (a future nobody has awaited).
  if (callback0_ || !callbacks_.empty()) schedule_callbacks();
}

// Never inline: each callback goes to the loop, in the order they were
// added, inside the Context each was added in.
void FutureBase::schedule_callbacks() {
  // [schedule_callbacks_body]
  // Scheduling runs no user code, so nothing can add or remove a callback
  // while this walks them; afterwards the future keeps none.
  try {
    if (callback0_) schedule(*callback0_);
    for (DoneCallback& entry : callbacks_) schedule(entry);
  } catch (...) {
    // The loop refused one (it is closed): the rest are dropped, taken out
    // of the future first, since what they hold may be the last reference
    // to something whose end runs user code.
    std::optional<DoneCallback> first = std::move(callback0_);
    std::vector<DoneCallback> rest = std::move(callbacks_);
    forget_callbacks();
    throw;
  }
  forget_callbacks();
  // [schedule_callbacks_body]
}

void FutureBase::schedule(DoneCallback& entry) {
  // [schedule_body]
  loop_->schedule_handle(Ref<HandleState>(
      new DoneCallbackHandle(std::move(entry.callback), std::move(entry.context), *this)));
  // [schedule_body]
}
// [future_finish]

// [future_result]
void FutureBase::check_result() {
  if (state_ == State::kCancelled) throw CancelledError(take_cancelled_message());
  if (state_ == State::kPending) throw InvalidStateError("Result is not set.");
  retrieved_ = true;
  if (exception_) std::rethrow_exception(exception_);
}

std::exception_ptr FutureBase::exception() {
  if (state_ == State::kCancelled) throw CancelledError(take_cancelled_message());
  if (state_ == State::kPending) throw InvalidStateError("Exception is not set.");
  retrieved_ = true;
  return exception_;
}
// [future_result]

// [add_done_callback]
DoneCallbackId FutureBase::add_done_callback_erased(Callback callback, DoneCallbackId id,
                                                    const Context* context) {
  // [add_done_callback_body]
  DoneCallback entry{std::move(callback), context != nullptr ? *context : Context::copy_current(),
                     id};
  if (done()) {
    schedule(entry);  // already done: still not inline
  } else if (!callback0_ && callbacks_.empty()) {
    callback0_.emplace(std::move(entry));
  } else {
    callbacks_.push_back(std::move(entry));  // after the others, whatever was removed
  }
  return id;
  // [add_done_callback_body]
}

std::size_t FutureBase::remove_done_callback(DoneCallbackId id) {
  std::size_t count = 0;
  if (callback0_ && callback0_->id == id) {
    callback0_.reset();
    count = 1;
  }
  auto removed = std::remove_if(callbacks_.begin(), callbacks_.end(),
                                [id](const DoneCallback& entry) { return entry.id == id; });
  count += static_cast<std::size_t>(callbacks_.end() - removed);
  callbacks_.erase(removed, callbacks_.end());
  return count;
}
// [add_done_callback]

std::string FutureBase::repr_as(std::string_view kind, std::string_view extra) const {
  std::string text = "<" + std::string(kind);
  switch (state_) {
    case State::kPending:
      text += " ";
      text += pending_word();
      break;
    case State::kCancelled:
      text += " cancelled";
      break;
    case State::kFinished:
      text += " finished";
      break;
  }
  text += extra;
  if (state_ == State::kFinished) {
    if (exception_) {
      text += " exception=" + exception_repr(exception_);
    } else if (std::string result = result_repr(); !result.empty()) {
      text += " result=" + result;  // left out for a value Python has no counterpart of
    }
  }
  return text + ">";
}

}  // namespace looplab
