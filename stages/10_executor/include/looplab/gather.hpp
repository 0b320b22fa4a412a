// gather.hpp: gather() and shield(), asyncio's ways of waiting for futures
// together, and of waiting for one without passing a cancellation on.
#pragma once

#include <cstddef>
#include <exception>
#include <optional>
#include <string>
#include <type_traits>
#include <utility>
#include <variant>
#include <vector>

#include "looplab/event_loop.hpp"
#include "looplab/exceptions.hpp"
#include "looplab/future.hpp"
#include "looplab/reprlib.hpp"
#include "looplab/task.hpp"

namespace looplab {

/// One child's outcome in gather_return_exceptions(): a value, or the
/// exception it ended with (a CancelledError for a cancelled child).
template <typename T>
struct Outcome {
  std::optional<T> value;
  std::exception_ptr exception;

  /// How the list in a repr shows it: the value, or the exception's repr
  /// ("ValueError('x')", shortened past 30 characters as reprlib does).
  std::string reprlib_repr(int level) const {
    if (exception) return reprlib_other_repr(exception_repr(exception));
    return value ? looplab::reprlib_repr(*value, level) : "None";
  }
};
/// A future's repr shows an Outcome when it can show its value.
template <typename T>
struct HasReprlibRepr<Outcome<T>> : HasReprlibRepr<T> {};

namespace detail {

template <typename T, bool kReturnExceptions>
using GatherResult = std::vector<std::conditional_t<kReturnExceptions, Outcome<T>, T>>;

/// What gather() collects from a Coro<T>: its value, or None
/// (std::monostate) from a Coro<void>, as asyncio's [None, None].
template <typename T>
using GatheredValue = std::conditional_t<std::is_void_v<T>, std::monostate, T>;

/// A Coro<void> as a Coro that returns None: the task gather() makes runs
/// this, which runs `body` inline (no turn of its own).
inline Coro<std::monostate> returning_none(Coro<void> body) {
  co_await std::move(body);
  co_return std::monostate{};
}

/// A child of gather(), as the coroutine its task runs: a Coro<void> inside
/// returning_none(), any other as it is.
template <typename T>
Coro<GatheredValue<T>> as_gathered(Coro<T>&& coro) {
  if constexpr (std::is_void_v<T>) {
    coro.check_can_start("create_task()");  // refused as itself, not as the wrapper
    return returning_none(std::move(coro));
  } else {
    return std::move(coro);
  }
}

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

/// What gather(return_exceptions=True) gives for a cancelled child: a new
/// CancelledError with the child's _cancel_message, which a task whose
/// coroutine ended cancelled does not have (future.hpp): a cancelled
/// future's message survives, such a task's does not.
template <typename T>
std::exception_ptr cancelled_outcome(const Future<T>& child) {
  return std::make_exception_ptr(CancelledError::with_message(child.state().cancel_message()));
}

// [gathering_future]
/// gather()'s outer future, which also keeps the children and counts the
/// finished ones: one block per gather(), and each child's done callback
/// points to it. Cancelling it cancels every child that is not done; it then
/// ends with CancelledError once they all have.
// The destructor is virtual through FutureBase, which clang-tidy does not
// see behind the dependent base FutureState<Result>.
template <typename T, bool kReturnExceptions>
// NOLINTNEXTLINE(cppcoreguidelines-virtual-class-destructor)
class GatheringState final : public FutureState<GatherResult<T, kReturnExceptions>> {
 public:
  using Result = GatherResult<T, kReturnExceptions>;

  /// An outer future for `children`, each to be given to watch().
  GatheringState(EventLoop& loop, std::vector<Future<T>> children)
      : FutureState<Result>(loop), children_(std::move(children)), count_(children_.size()) {}
  /// An outer future for `count` children, given one by one to add_child().
  GatheringState(EventLoop& loop, std::size_t count) : FutureState<Result>(loop), count_(count) {
    children_.reserve(count);
  }
  // CPython names the class in the report and the repr: asyncio's
  // _GatheringFuture.
  ~GatheringState() override { this->report_if_never_retrieved("_GatheringFuture"); }
  std::string repr() const override { return this->repr_as("_GatheringFuture", ""); }
  GatheringState(const GatheringState&) = delete;
  GatheringState& operator=(const GatheringState&) = delete;

  bool cancel(std::string message = {}) override {
    if (this->done()) return false;
    bool any = false;
    for (const Future<T>& child : children_) any |= child.cancel(message);
    if (any) cancel_requested_ = true;  // the last child to finish ends the outer cancelled
    return any;
  }
  /// Waits for a child: through a done callback, or at once if it is done
  /// already (CPython 3.12+: not a turn later), so that a gather() of done
  /// children is done when it returns.
  void watch(const Future<T>& child);
  /// Holds one more child, and watches it.
  void add_child(Future<T> child) { watch(children_.emplace_back(std::move(child))); }
  /// Holds one more child, to be watched later.
  void hold_child(Future<T> child) { children_.push_back(std::move(child)); }
  const std::vector<Future<T>>& children() const noexcept { return children_; }
  void on_child_done(const Future<T>& done);

 private:
  Result collect_outcomes() const;

  // Held, in argument order. The children's callbacks hold this block in
  // turn: a cycle that the last callback to run breaks (or closing the loop,
  // which drops a pending task's callbacks).
  std::vector<Future<T>> children_;
  std::size_t count_;  // children to wait for, once all are added
  std::size_t finished_ = 0;
  bool cancel_requested_ = false;
};
// [gathering_future]

// [gather_on_child_done]
template <typename T, bool kReturnExceptions>
void GatheringState<T, kReturnExceptions>::watch(const Future<T>& child) {
  if (child.done()) {
    on_child_done(child);
  } else {
    child.add_done_callback(
        [outer = Ref<GatheringState>(this)](const Future<T>& done) { outer->on_child_done(done); });
  }
}

/// asyncio's _done_callback, run once per child when it is done.
template <typename T, bool kReturnExceptions>
void GatheringState<T, kReturnExceptions>::on_child_done(const Future<T>& done) {
  ++finished_;
  if (this->done()) {  // already failed: just mark this one's error as seen
    if (!done.cancelled()) done.exception();
    return;
  }
  if constexpr (!kReturnExceptions) {
    // The first error (or cancellation) ends the outer future at once;
    // the other children are not cancelled, and go on.
    if (done.cancelled()) {
      this->set_exception(cancelled_error_of(done));
      return;
    }
    if (std::exception_ptr error = done.exception()) {
      this->set_exception(error);
      return;
    }
  }
  if (finished_ < count_) return;
  if (cancel_requested_) {
    // asyncio reads every outcome first: the errors count as retrieved.
    for (const Future<T>& each : children_) {
      if (!each.cancelled()) each.exception();
    }
    // It takes the error from its loop variable, left on the last child in
    // argument order: that child's own CancelledError if it was cancelled,
    // else a new one with the child's _cancel_message (a task that swallowed
    // a cancel() it kept for its next step has one; any other child none).
    const Future<T>& last = children_.back();
    this->set_exception(
        last.cancelled() ? cancelled_error_of(last)
                         : std::make_exception_ptr(CancelledError(last.state().cancel_message())));
  } else {
    this->set_result(collect_outcomes());
  }
}

/// Once all are done: the results in the order of the arguments.
template <typename T, bool kReturnExceptions>
auto GatheringState<T, kReturnExceptions>::collect_outcomes() const -> Result {
  Result values;
  values.reserve(children_.size());
  for (const Future<T>& each : children_) {
    if constexpr (kReturnExceptions) {
      Outcome<T> outcome;
      if (each.cancelled()) {
        outcome.exception = cancelled_outcome(each);
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
  return values;
}
// [gather_on_child_done]

// [gather_impl]
/// gather() of nothing: asyncio's plain future, done with [].
template <typename Result>
Future<Result> done_empty_gather(EventLoop& loop) {
  Future<Result> outer = loop.create_future<Result>();
  outer.set_result(Result{});
  return outer;
}

template <bool kReturnExceptions, typename T>
Future<GatherResult<T, kReturnExceptions>> gather_impl(EventLoop& loop,
                                                       std::vector<Future<T>> children) {
  static_assert(!std::is_void_v<T>, "gather() collects values: use Future<std::monostate>");
  using State = GatheringState<T, kReturnExceptions>;
  if (children.empty()) return done_empty_gather<typename State::Result>(loop);
  Ref<State> outer(new State(loop, std::move(children)));
  for (const Future<T>& child : outer->children()) outer->watch(child);
  return Future<typename State::Result>(std::move(outer));
}

/// The same for coroutines, each wrapped in a task (asyncio's ensure_future)
/// as asyncio's gather() does: under an eager task factory, each child's
/// first step has run, and the child may be done, before the next child
/// starts. A child still pending is watched at once; one already done only
/// once every child exists (asyncio's done_futs), so a child that fails
/// eagerly does not fail the gather before the later children have started.
template <bool kReturnExceptions, typename T>
Future<GatherResult<GatheredValue<T>, kReturnExceptions>> gather_values(
    EventLoop& loop, std::vector<Coro<T>> coros) {
  using State = GatheringState<GatheredValue<T>, kReturnExceptions>;
  if (coros.empty()) return done_empty_gather<typename State::Result>(loop);
  Ref<State> outer(new State(loop, coros.size()));
  std::vector<std::size_t> done_at_once;  // indexes of the children done when made
  try {
    for (Coro<T>& coro : coros) {
      Task<GatheredValue<T>> child = create_task(loop, as_gathered(std::move(coro)));
      // Nobody else can hold it: closing the loop while it is pending is not
      // reported as "Task was destroyed but it is pending!" (asyncio's gather).
      child.base().do_not_log_destroy_pending();
      if (child.done()) {
        done_at_once.push_back(outer->children().size());
        outer->hold_child(std::move(child));
      } else {
        outer->add_child(std::move(child));
      }
    }
  } catch (...) {
    // A child refused, or an eager one that raised SystemExit: asyncio has
    // no outer future yet, and the children made so far only mark their
    // errors as seen when they end. An outer that is done, unseen, does so.
    outer->FutureBase::cancel();
    throw;
  }
  for (std::size_t index : done_at_once) outer->watch(outer->children()[index]);
  return Future<typename State::Result>(std::move(outer));
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
/// Coroutines that return nothing (Coro<void>) give None each: a vector of
/// std::monostate, as asyncio's [None, None].
template <typename T>
Future<std::vector<detail::GatheredValue<T>>> gather(EventLoop& loop, std::vector<Coro<T>> coros) {
  return detail::gather_values<false>(loop, std::move(coros));
}
template <typename T>
Future<std::vector<Outcome<detail::GatheredValue<T>>>> gather_return_exceptions(
    EventLoop& loop, std::vector<Coro<T>> coros) {
  return detail::gather_values<true>(loop, std::move(coros));
}
template <typename T, typename... More>
requires(std::is_same_v<More, Coro<T>>&&...) Future<std::vector<detail::GatheredValue<T>>> gather(
    EventLoop& loop, Coro<T> first, More... more) {
  std::vector<Coro<T>> coros;
  coros.reserve(1 + sizeof...(more));
  coros.push_back(std::move(first));
  (coros.push_back(std::move(more)), ...);
  return gather(loop, std::move(coros));
}
template <typename T, typename... More>
requires(std::is_same_v<More, Coro<T>>&&...)
    Future<std::vector<Outcome<detail::GatheredValue<T>>>> gather_return_exceptions(EventLoop& loop,
                                                                                    Coro<T> first,
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

/// asyncio.shield(coro): the coroutine becomes a task of the running loop
/// (ensure_future(), eager if the loop's factory is), and the task is
/// shielded. Nobody need keep that task: a pending task keeps itself alive.
template <typename T>
Future<T> shield(Coro<T>&& coro) {
  coro.check_can_start("shield()");
  return shield(Future<T>(create_task(get_running_loop(), std::move(coro))));
}
// [shield]

}  // namespace looplab
