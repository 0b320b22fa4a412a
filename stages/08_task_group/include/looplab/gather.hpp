// gather.hpp: gather() and shield(), asyncio's ways of waiting for futures
// together, and of waiting for one without passing a cancellation on.
#pragma once

#include <cstddef>
#include <exception>
#include <memory>
#include <optional>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "looplab/event_loop.hpp"
#include "looplab/future.hpp"
#include "looplab/task.hpp"

namespace looplab {

/// One child's outcome in gather_return_exceptions(): a value, or the
/// exception it ended with (a CancelledError for a cancelled child).
template <typename T>
struct Outcome {
  std::optional<T> value;
  std::exception_ptr exception;
};

namespace detail {

// [gathering_future]
/// gather()'s outer future. Cancelling it cancels every child that is not
/// done; it then ends with CancelledError once they all have.
template <typename Result>
class GatheringState final : public FutureState<Result> {
 public:
  using FutureState<Result>::FutureState;

  bool cancel(std::string message = {}) override {
    if (this->done()) return false;
    bool any = false;
    for (const Ref<FutureBase>& child : children_) any |= child->cancel(message);
    if (any) {
      cancel_requested_ = true;  // the last child to finish ends the outer cancelled
      cancel_message_ = message;
    }
    return any;
  }
  void add_child(FutureBase& child) { children_.emplace_back(&child); }
  bool cancel_requested() const noexcept { return cancel_requested_; }
  const std::string& cancel_message() const noexcept { return cancel_message_; }

 private:
  // Held: the outer future may outlive the children's callbacks (close()
  // drops a pending task's callbacks) and still be cancelled.
  std::vector<Ref<FutureBase>> children_;
  bool cancel_requested_ = false;
  std::string cancel_message_;
};
// [gathering_future]

template <typename T>
std::exception_ptr cancelled_error_of(const Future<T>& future) {
  try {
    future.result();
  } catch (const CancelledError&) {
    return std::current_exception();
  } catch (...) {
  }
  return std::make_exception_ptr(CancelledError());
}

template <typename T, bool kReturnExceptions>
using GatherResult = std::vector<std::conditional_t<kReturnExceptions, Outcome<T>, T>>;

// [gather_impl]
template <bool kReturnExceptions, typename T>
Future<GatherResult<T, kReturnExceptions>> gather_impl(EventLoop& loop,
                                                       std::vector<Future<T>> children) {
  static_assert(!std::is_void_v<T>, "gather() collects values: use Future<std::monostate>");
  using Result = GatherResult<T, kReturnExceptions>;
  Ref<GatheringState<Result>> outer(new GatheringState<Result>(loop));
  if (children.empty()) {
    outer->set_result(Result{});
    return Future<Result>(std::move(outer));
  }
  struct Shared {
    std::vector<Future<T>> children;
    std::size_t finished = 0;
  };
  auto shared = std::make_shared<Shared>(Shared{std::move(children)});
  GatheringState<Result>* gathering = outer.get();
  Future<Result> result(outer);
  auto on_child_done = [shared, result, gathering](Future<T>& done) {
    ++shared->finished;
    if (result.done()) {  // already failed: just mark this one's error as seen
      if (!done.cancelled()) done.exception();
      return;
    }
    if constexpr (!kReturnExceptions) {
      // The first error (or cancellation) ends the outer future at once;
      // the other children are not cancelled, and go on.
      if (done.cancelled()) {
        result.set_exception(cancelled_error_of(done));
        return;
      }
      if (std::exception_ptr error = done.exception()) {
        result.set_exception(error);
        return;
      }
    }
    if (shared->finished < shared->children.size()) return;
    // All done: the results in the order of the arguments.
    Result values;
    for (Future<T>& each : shared->children) {
      if constexpr (kReturnExceptions) {
        Outcome<T> outcome;
        if (each.cancelled()) {
          outcome.exception = cancelled_error_of(each);
        } else if (std::exception_ptr error = each.exception()) {
          outcome.exception = error;
        } else {
          outcome.value.emplace(each.result());
        }
        values.push_back(std::move(outcome));
      } else {
        values.push_back(each.result());
      }
    }
    if (gathering->cancel_requested()) {
      result.set_exception(CancelledError(gathering->cancel_message()));
    } else {
      result.set_result(std::move(values));
    }
  };
  std::vector<Future<T>> done_already;
  for (Future<T>& child : shared->children) {
    gathering->add_child(child.state());
    if (child.done()) {
      done_already.push_back(child);
    } else {
      child.add_done_callback(on_child_done);
    }
  }
  // Children that are done already are taken into account now, not a turn
  // later (CPython 3.12+): if all are, the outer is done before gather()
  // returns, and awaiting it costs no turn.
  for (Future<T>& child : done_already) on_child_done(child);
  return result;
}
// [gather_impl]

}  // namespace detail

// [gather]
/// asyncio.gather(*children): a future of their results, in argument order.
/// The first child to fail (or be cancelled) fails it at once, and the
/// others go on running. Cancelling it cancels the children.
template <typename T>
Future<std::vector<T>> gather(EventLoop& loop, std::vector<Future<T>> children) {
  return detail::gather_impl<false>(loop, std::move(children));
}

/// asyncio.gather(*children, return_exceptions=True): every child's
/// outcome, value or exception, in argument order; never fails because a
/// child did.
template <typename T>
Future<std::vector<Outcome<T>>> gather_return_exceptions(EventLoop& loop,
                                                         std::vector<Future<T>> children) {
  return detail::gather_impl<true>(loop, std::move(children));
}
// [gather]

/// gather(loop, a, b, c): the same for futures (or tasks) given one by one.
/// (Prefer this to a braced std::vector in a co_await: g++ 12 miscompiles
/// an initializer list inside a co_await operand, pitfall P1.)
template <typename T, typename... More>
requires(std::is_convertible_v<More, Future<T>>&&...) Future<std::vector<T>> gather(EventLoop& loop,
                                                                                    Future<T> first,
                                                                                    More... more) {
  std::vector<Future<T>> children{std::move(first), Future<T>(std::move(more))...};
  return gather(loop, std::move(children));
}
template <typename T, typename... More>
requires(std::is_convertible_v<More, Future<T>>&&...)
    Future<std::vector<Outcome<T>>> gather_return_exceptions(EventLoop& loop, Future<T> first,
                                                             More... more) {
  std::vector<Future<T>> children{std::move(first), Future<T>(std::move(more))...};
  return gather_return_exceptions(loop, std::move(children));
}

/// gather(loop, coros) and gather(loop, coro_a(), coro_b()): the same for
/// coroutines, each wrapped in a task first, in argument order (asyncio's
/// ensure_future), so that they run concurrently.
template <typename T>
std::vector<Future<T>> as_tasks(EventLoop& loop, std::vector<Coro<T>> coros) {
  std::vector<Future<T>> tasks;
  tasks.reserve(coros.size());
  for (Coro<T>& coro : coros) tasks.push_back(create_task(loop, std::move(coro)));
  return tasks;
}
template <typename T>
Future<std::vector<T>> gather(EventLoop& loop, std::vector<Coro<T>> coros) {
  return gather(loop, as_tasks(loop, std::move(coros)));
}
template <typename T>
Future<std::vector<Outcome<T>>> gather_return_exceptions(EventLoop& loop,
                                                         std::vector<Coro<T>> coros) {
  return gather_return_exceptions(loop, as_tasks(loop, std::move(coros)));
}
template <typename T, typename... More>
requires(std::is_same_v<More, Coro<T>>&&...) Future<std::vector<T>> gather(EventLoop& loop,
                                                                           Coro<T> first,
                                                                           More... more) {
  std::vector<Coro<T>> coros;
  coros.reserve(1 + sizeof...(more));
  coros.push_back(std::move(first));
  (coros.push_back(std::move(more)), ...);
  return gather(loop, std::move(coros));
}
template <typename T, typename... More>
requires(std::is_same_v<More, Coro<T>>&&...)
    Future<std::vector<Outcome<T>>> gather_return_exceptions(EventLoop& loop, Coro<T> first,
                                                             More... more) {
  std::vector<Coro<T>> coros;
  coros.reserve(1 + sizeof...(more));
  coros.push_back(std::move(first));
  (coros.push_back(std::move(more)), ...);
  return gather_return_exceptions(loop, std::move(coros));
}

// [shield]
/// asyncio.shield(inner): a future that completes as `inner` does, but
/// whose cancellation is not passed on to `inner`. (Cancelling `inner`
/// cancels it, though.) A done `inner` is returned as it is.
template <typename T>
Future<T> shield(Future<T> inner) {
  if (inner.done()) return inner;
  Future<T> outer(inner.get_loop());
  DoneCallbackId forward = inner.add_done_callback([outer](Future<T>& done) {
    if (outer.cancelled()) {
      if (!done.cancelled()) done.exception();  // seen: not "never retrieved"
      return;
    }
    if (done.cancelled()) {
      outer.cancel();
    } else if (std::exception_ptr error = done.exception()) {
      outer.set_exception(error);
    } else if constexpr (std::is_void_v<T>) {
      outer.set_result();
    } else {
      outer.set_result(done.result());
    }
  });
  outer.add_done_callback([inner, forward](Future<T>&) {
    if (!inner.done()) inner.remove_done_callback(forward);
  });
  return outer;
}
// [shield]

}  // namespace looplab
