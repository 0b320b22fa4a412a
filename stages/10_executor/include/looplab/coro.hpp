// coro.hpp: Coro<T>, a lazy coroutine (what `async def` makes in Python).
//
// Calling a function that returns Coro<T> runs none of its body: it makes
// a frame, suspended at its start, and hands back the Coro that owns it,
// as calling an async def function makes a coroutine object. Awaiting it,
// `co_await child()`, runs it inline until it finishes, as `await child()`
// does: no turn of the loop, no Task. Only a Task (task.hpp) drives the
// outermost coroutine, one step per loop callback.
//
// How control moves between frames: every frame runs inside a Task's
// step(), which loops on a Pump. A frame that starts a child, or finishes
// and goes back to its parent, names the frame to run next in the pump and
// suspends; the pump resumes that frame. A frame that waits for a Future
// suspends naming nothing, and the step ends. (Returning the next frame
// from await_suspend, "symmetric transfer", would do the same, but g++ 12
// does not compile it into a tail call at -O0 or under the sanitizers, and
// a long chain of awaits then overflows the stack: chapter 6, pitfall P2.)
#pragma once

#include <coroutine>
#include <exception>
#include <optional>
#include <string>
#include <type_traits>
#include <typeinfo>
#include <utility>

#include "looplab/exceptions.hpp"
#include "looplab/plumbing/block_pool.hpp"

namespace looplab {

namespace detail {

// [pump]
/// What Task::step() loops on: the frame to resume next, if any.
struct Pump {
  std::coroutine_handle<> next;
};
/// The pump of the step running on this thread (null outside a step).
/// Inline: every frame's end and every `co_await child()` reads it.
inline Pump*& current_pump() noexcept {
  thread_local Pump* pump = nullptr;
  return pump;
}
// [pump]

// [throws_injected]
/// Throws what the running task's step was asked to throw into its
/// coroutine (a CancelledError), if anything (task.cpp).
void rethrow_injected();
/// asyncio's Task accepts from its coroutine a future to wait for (it has
/// _asyncio_future_blocking) or a bare yield, nothing else. Here the
/// awaiters that tell the task how to go on say so with
/// `using task_aware = void;`: a Future's, sleep()'s, a Coro's.
template <typename Awaiter>
concept TaskAware = requires {
  typename std::remove_cvref_t<Awaiter>::task_aware;
};
/// A co_await on any other awaiter whose await_ready() is false
/// (std::suspend_always, say) is refused as Task.__step refuses a bad yield,
/// without calling its await_suspend(): the next step throws
/// RuntimeError("Task got bad yield: <the awaiter's type>") there (task.cpp).
void refuse_bad_yield(std::coroutine_handle<> frame, const std::type_info& awaiter);

/// Python throws a cancellation into a coroutine at the `await` where it
/// waits (coro.throw()). C++ cannot throw into a suspended frame, so every
/// `co_await` in a Coro goes through this awaiter: when the frame is
/// resumed, it throws what the step injected before anything else, whatever
/// the coroutine was waiting for. `Awaiter` is a reference to an awaiter
/// that outlives the co_await (a sleep(), say), or, when the awaitable made
/// one with `operator co_await` (a Future), the awaiter itself.
template <typename Awaiter>
class ThrowsInjected {
 public:
  explicit ThrowsInjected(Awaiter awaiter) : awaiter_(std::forward<Awaiter>(awaiter)) {}
  bool await_ready() { return awaiter_.await_ready(); }
  template <typename Promise>
  decltype(auto) await_suspend(std::coroutine_handle<Promise> frame) {
    if constexpr (TaskAware<Awaiter>) {
      return awaiter_.await_suspend(frame);
    } else {
      // Not called: it could keep the frame, and resume it behind the task's back.
      refuse_bad_yield(frame, typeid(std::remove_cvref_t<Awaiter>));
    }
  }
  decltype(auto) await_resume() {
    rethrow_injected();
    return awaiter_.await_resume();
  }

 private:
  Awaiter awaiter_;
};
// [throws_injected]

// [promise]
class PromiseBase {
 public:
  std::suspend_always initial_suspend() noexcept { return {}; }  // lazy: nothing runs yet

  // At the end, go back to the frame that awaited this one. A task's
  // outermost frame has none: the pump stops, and the step sees it is done.
  struct FinalAwaiter {
    bool await_ready() noexcept { return false; }
    template <typename Promise>
    void await_suspend(std::coroutine_handle<Promise> self) noexcept {
      current_pump()->next = self.promise().continuation;
    }
    void await_resume() noexcept {}
  };
  FinalAwaiter final_suspend() noexcept { return {}; }
  void unhandled_exception() noexcept { exception = std::current_exception(); }

  // Frames come from the same per-thread pool as handles and futures.
  static void* operator new(std::size_t size) { return BlockPool::allocate(size); }
  static void operator delete(void* frame, std::size_t size) noexcept {
    BlockPool::deallocate(frame, size);
  }

  /// Every `co_await` in the body: see ThrowsInjected.
  template <typename Awaitable>
  auto await_transform(Awaitable&& awaitable) {
    if constexpr (requires { std::forward<Awaitable>(awaitable).operator co_await(); }) {
      using Made = decltype(std::forward<Awaitable>(awaitable).operator co_await());
      return ThrowsInjected<Made>(std::forward<Awaitable>(awaitable).operator co_await());
    } else {
      return ThrowsInjected<std::remove_reference_t<Awaitable>&>(awaitable);
    }
  }

  std::coroutine_handle<> continuation;  // the frame awaiting this one
  std::exception_ptr exception;          // what the body threw
};

template <typename T>
class Promise;
// [promise]

}  // namespace detail

// [coro]
template <typename T = void>
class [[nodiscard]] Coro {
 public:
  using promise_type = detail::Promise<T>;
  using Frame = std::coroutine_handle<promise_type>;
  using value_type = T;

  explicit Coro(Frame frame) noexcept : frame_(frame) {}
  Coro(Coro&& other) noexcept : frame_(std::exchange(other.frame_, {})) {}
  Coro& operator=(Coro&& other) noexcept {
    if (this != &other) {
      if (frame_) frame_.destroy();
      frame_ = std::exchange(other.frame_, {});
    }
    return *this;
  }
  ~Coro() {
    if (frame_) frame_.destroy();  // a coroutine never awaited, or finished: its frame goes
  }

  /// `co_await child()`: runs the child inline, in the caller's task, and
  /// gives its result (or throws its exception). Costs no turn of the loop.
  auto operator co_await() && {
    check_can_run("co_await");
    struct Awaiter {
      using task_aware [[maybe_unused]] = void;
      Frame child;
      bool await_ready() noexcept { return false; }
      void await_suspend(std::coroutine_handle<> parent) noexcept {
        child.promise().continuation = parent;
        detail::current_pump()->next = child;  // the pump runs the child next
      }
      T await_resume() { return child.promise().take_result(); }
    };
    return Awaiter{frame_};
  }

  bool done() const noexcept { return frame_ && frame_.done(); }
  /// Throws unless a task can be made of this Coro, as Python refuses `None`:
  /// TypeError if it has no frame (moved from, or given to a task),
  /// RuntimeError if its frame runs now for a frame that awaits it (only an
  /// await sets `continuation`). A frame that has run to the end passes: as
  /// in asyncio, its task is made, and its first step fails (create_task()).
  void check_can_start(const char* use) const {
    if (!frame_)
      throw TypeError(std::string(use) + ": a coroutine was expected, got an empty Coro");
    if (!frame_.done() && frame_.promise().continuation)
      throw RuntimeError("coroutine is being awaited already");
  }
  /// check_can_start(), and RuntimeError if the frame has run to the end:
  /// what `co_await` on a coroutine awaited before raises.
  void check_can_run(const char* use) const {
    check_can_start(use);
    if (frame_.done()) throw RuntimeError("cannot reuse already awaited coroutine");
  }
  /// Gives the frame to a Task, which then owns it.
  Frame release() noexcept { return std::exchange(frame_, {}); }

 private:
  Frame frame_;
};
// [coro]

namespace detail {

template <typename T>
class Promise : public PromiseBase {
 public:
  Coro<T> get_return_object() noexcept {
    return Coro<T>(std::coroutine_handle<Promise>::from_promise(*this));
  }
  template <typename U>
  void return_value(U&& value) {
    value_.emplace(std::forward<U>(value));
  }
  T take_result() {
    if (exception) std::rethrow_exception(exception);
    return std::move(*value_);
  }

 private:
  std::optional<T> value_;
};

template <>
class Promise<void> : public PromiseBase {
 public:
  Coro<void> get_return_object() noexcept {
    return Coro<void>(std::coroutine_handle<Promise>::from_promise(*this));
  }
  void return_void() noexcept {}
  void take_result() {
    if (exception) std::rethrow_exception(exception);
  }
};

}  // namespace detail
}  // namespace looplab
