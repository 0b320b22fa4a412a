// wait.hpp: wait() and as_completed(), asyncio's ways of waiting for some of
// several futures.
//
// asyncio.wait(fs, timeout=..., return_when=...) waits until the first
// completes, the first fails, or all are done (or the timeout passes), and
// returns the done and the pending ones; it cancels nothing. as_completed(fs)
// hands the results out in the order the futures complete. Both work the way
// tasks.py does: a done callback on each future counts completions and
// completes one waiter future, which is what the task sleeps on.
#pragma once

#include <chrono>
#include <cstddef>
#include <deque>
#include <memory>
#include <optional>
#include <unordered_set>
#include <utility>
#include <vector>

#include "looplab/coro.hpp"
#include "looplab/event_loop.hpp"
#include "looplab/future.hpp"
#include "looplab/plumbing/scope_exit.hpp"
#include "looplab/task.hpp"

namespace looplab {

// [wait]
/// asyncio.FIRST_COMPLETED, FIRST_EXCEPTION and ALL_COMPLETED.
enum class ReturnWhen { kFirstCompleted, kFirstException, kAllCompleted };

/// What wait() returns: asyncio's (done, pending), each in argument order
/// (asyncio returns two sets, whose order is unspecified).
template <typename T>
struct WaitResult {
  std::vector<Future<T>> done;
  std::vector<Future<T>> pending;
};

namespace detail {

// asyncio's set(fs): each future once, kept in the order given.
template <typename T>
std::vector<Future<T>> each_once(std::vector<Future<T>> fs) {
  std::unordered_set<const void*> seen(fs.size());
  std::vector<Future<T>> unique;
  unique.reserve(fs.size());
  for (Future<T>& f : fs) {
    if (seen.insert(&f.state()).second) unique.push_back(std::move(f));
  }
  return unique;
}

// asyncio's tasks._wait: one done callback per future counts completions and
// releases the waiter; the timeout releases it too.
template <typename T>
Coro<WaitResult<T>> wait_impl(std::vector<Future<T>> fs, std::optional<Clock::duration> timeout,
                              ReturnWhen return_when) {
  if (fs.empty()) throw ValueError("Set of Tasks/Futures is empty.");
  EventLoop& loop = get_running_loop();
  Future<void> waiter = loop.create_future<void>();
  auto release = [waiter] {
    if (!waiter.done()) waiter.set_result();
  };
  TimerHandle timer;
  if (timeout) timer = loop.call_later(*timeout, release);
  auto counter = std::make_shared<std::size_t>(fs.size());
  std::vector<DoneCallbackId> ids;
  ids.reserve(fs.size());
  for (const Future<T>& f : fs) {
    ids.push_back(f.add_done_callback([=](Future<T>& completed) {
      --*counter;
      // In asyncio's order: exception() marks a failure retrieved, so it is
      // asked only when the first two tests do not decide.
      if (*counter == 0 || return_when == ReturnWhen::kFirstCompleted ||
          (return_when == ReturnWhen::kFirstException && !completed.cancelled() &&
           completed.exception() != nullptr)) {
        if (timer) timer.cancel();
        release();
      }
    }));
  }
  ScopeExit cleanup([&] {  // asyncio's finally: also when the waiting task is cancelled
    if (timer) timer.cancel();
    for (std::size_t i = 0; i < fs.size(); ++i) fs[i].remove_done_callback(ids[i]);
  });
  co_await waiter;
  WaitResult<T> result;
  for (const Future<T>& f : fs) (f.done() ? result.done : result.pending).push_back(f);
  co_return result;
}

}  // namespace detail

/// asyncio.wait(fs, return_when=...): waits, without cancelling any of them,
/// until the first completes, the first fails, or all are done.
template <typename T>
Coro<WaitResult<T>> wait(std::vector<Future<T>> fs,
                         ReturnWhen return_when = ReturnWhen::kAllCompleted) {
  return detail::wait_impl(detail::each_once(std::move(fs)), std::nullopt, return_when);
}

/// asyncio.wait(fs, timeout=..., return_when=...): the same, or until
/// `timeout` has passed, whichever comes first. A timeout is no error.
template <typename T, typename Rep, typename Period>
Coro<WaitResult<T>> wait(std::vector<Future<T>> fs, std::chrono::duration<Rep, Period> timeout,
                         ReturnWhen return_when = ReturnWhen::kAllCompleted) {
  return detail::wait_impl(detail::each_once(std::move(fs)), EventLoop::checked_delay(timeout),
                           return_when);
}
// [wait]

/// asyncio.as_completed(fs): `co_await next()` gives the futures' results in
/// the order in which they complete (or throws what the future failed with),
/// `size()` times. With a timeout, every next() left when it passes throws
/// TimeoutError, as asyncio's do.
template <typename T>
class AsCompleted {
 public:
  AsCompleted(std::vector<Future<T>> fs, std::optional<Clock::duration> timeout)
      : shared_(std::make_shared<Shared>()) {
    shared_->todo = detail::each_once(std::move(fs));
    left_ = shared_->todo.size();
    EventLoop* loop = shared_->todo.empty() ? nullptr : &shared_->todo.front().get_loop();
    for (const Future<T>& f : shared_->todo) {
      shared_->ids.push_back(
          f.add_done_callback([weak = std::weak_ptr<Shared>(shared_)](Future<T>& done) {
            if (auto shared = weak.lock()) shared->completed(done);
          }));
    }
    if (loop != nullptr && timeout) {
      shared_->timer = loop->call_later(*timeout, [weak = std::weak_ptr<Shared>(shared_)] {
        if (auto shared = weak.lock()) shared->time_out();
      });
    }
  }
  AsCompleted(AsCompleted&&) noexcept = default;
  AsCompleted& operator=(AsCompleted&&) noexcept = default;
  AsCompleted(const AsCompleted&) = delete;
  AsCompleted& operator=(const AsCompleted&) = delete;

  /// How many results next() has still to give.
  std::size_t size() const noexcept { return left_; }

  /// The next result to complete (asyncio's _wait_for_one(), what the plain
  /// `for f in as_completed(fs): await f` gives).
  Coro<T> next() {
    taking_one();
    return next_result(shared_);
  }
  /// The next future to complete, itself (3.13's `async for f in
  /// as_completed(fs)`, which yields the futures).
  Coro<Future<T>> next_future() {
    taking_one();
    return next_done(shared_);
  }

 private:
  struct Shared {
    std::vector<Future<T>> todo;  // not completed yet (asyncio's `todo` set)
    std::vector<DoneCallbackId> ids;
    std::deque<std::optional<Future<T>>> done;  // nullopt: the timeout passed
    std::deque<Future<void>> getters;           // the next() calls waiting, first first
    TimerHandle timer;

    void put(std::optional<Future<T>> f) {  // asyncio's Queue.put_nowait()
      done.push_back(std::move(f));
      wake_next_getter();
    }
    void wake_next_getter() {  // asyncio's Queue._wakeup_next()
      while (!getters.empty()) {
        Future<void> getter = std::move(getters.front());
        getters.pop_front();
        if (!getter.done()) {
          getter.set_result();
          break;
        }
      }
    }
    void completed(const Future<T>& f) {
      for (std::size_t i = 0; i < todo.size(); ++i) {
        if (todo[i] == f) {
          todo.erase(todo.begin() + static_cast<std::ptrdiff_t>(i));
          ids.erase(ids.begin() + static_cast<std::ptrdiff_t>(i));
          put(f);
          if (todo.empty() && timer) timer.cancel();
          return;
        }
      }
    }
    void time_out() {
      for (std::size_t i = 0; i < todo.size(); ++i) {
        todo[i].remove_done_callback(ids[i]);
        put(std::nullopt);
      }
      todo.clear();
      ids.clear();
    }
    // Once neither the AsCompleted nor a next() still waiting holds it
    // (asyncio's iterator lives as long as the coroutines it handed out).
    ~Shared() {
      if (timer) timer.cancel();
      for (std::size_t i = 0; i < todo.size(); ++i) todo[i].remove_done_callback(ids[i]);
    }
  };

  void taking_one() {
    if (left_ == 0) throw RuntimeError("as_completed(): every result was taken");
    --left_;
  }
  // asyncio's Queue.get(), then the dummy value of a timeout raised.
  static Coro<Future<T>> next_done(std::shared_ptr<Shared> shared) {
    while (shared->done.empty()) {
      Future<void> getter = get_running_loop().create_future<void>();
      shared->getters.push_back(getter);
      try {
        co_await getter;
      } catch (const CancelledError&) {
        // Queue.get()'s except: out of the line, and a result this getter
        // was woken for goes to the next one.
        std::erase(shared->getters, getter);
        if (!shared->done.empty() && !getter.cancelled()) shared->wake_next_getter();
        throw;
      }
    }
    std::optional<Future<T>> f = std::move(shared->done.front());
    shared->done.pop_front();
    if (!f) throw TimeoutError();
    co_return std::move(*f);
  }
  static Coro<T> next_result(std::shared_ptr<Shared> shared) {
    Future<T> f = co_await next_done(std::move(shared));
    co_return f.result();
  }

  std::shared_ptr<Shared> shared_;
  std::size_t left_ = 0;
};

/// asyncio.as_completed(fs).
template <typename T>
AsCompleted<T> as_completed(std::vector<Future<T>> fs) {
  return AsCompleted<T>(std::move(fs), std::nullopt);
}

/// asyncio.as_completed(fs, timeout=...).
template <typename T, typename Rep, typename Period>
AsCompleted<T> as_completed(std::vector<Future<T>> fs, std::chrono::duration<Rep, Period> timeout) {
  return AsCompleted<T>(std::move(fs), EventLoop::checked_delay(timeout));
}

}  // namespace looplab
