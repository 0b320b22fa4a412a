// handle.hpp: Handle, a scheduled callback that can be cancelled.
//
// asyncio.events.Handle bundles a callback, its arguments and the Context that
// was current when it was scheduled. call_soon() returns one; the ready queue
// holds another reference to it. Cancelling only marks it (and drops the
// callback): the loop skips a cancelled handle when it reaches it, because
// removing it from the middle of the queue would cost more than skipping it.
//
// From stage 03 on a handle may run many times: add_reader() makes one handle
// that the loop queues every time the descriptor is readable. So running a
// handle no longer consumes its callback; only one-shot handles (call_soon,
// timers) let go of it after their run.
#pragma once

#include <atomic>
#include <cstddef>
#include <new>
#include <string>
#include <utility>

#include "looplab/context.hpp"
#include "looplab/plumbing/block_pool.hpp"
#include "looplab/plumbing/callback.hpp"
#include "looplab/plumbing/handoff_pool.hpp"
#include "looplab/plumbing/ref.hpp"
#include "looplab/plumbing/source_location.hpp"

namespace looplab {

class EventLoop;
class Handle;

// [handle_state]
/// The shared state behind a Handle. Users hold `Handle`; the loop holds `Ref<HandleState>`.
class HandleState : public RefCounted, public PoolAllocated {
 public:
  enum class Runs { kOnce, kRepeatedly };

  HandleState(Callback callback, Context context, SourceLocation created_at,
              Runs runs = Runs::kOnce)
      : callback_(std::move(callback)),
        context_(std::move(context)),
        created_at_(created_at),
        runs_once_(runs == Runs::kOnce) {}
  virtual ~HandleState() = default;

  /// Virtual because a TimerHandle also tells its loop (stage 02).
  virtual void cancel() noexcept {
    mark_cancelled();
    // Release what the callback captured, as asyncio drops its references;
    // a callback that cancels its own handle is released when it returns.
    if (!running_) callback_.reset();
  }
  bool cancelled() const noexcept { return cancelled_.load(std::memory_order_relaxed); }
  Context& context() noexcept { return context_; }
  SourceLocation created_at() const noexcept { return created_at_; }

  /// Handle._run(): runs the callback inside its context. An exception goes to
  /// the loop's exception handler, except SystemExit and KeyboardInterrupt.
  void run(EventLoop& loop);

  /// Like Python's repr(handle): "<Handle created at demo.cpp:12>".
  virtual std::string repr() const;

 protected:
  // Atomic since stage 09: another thread may cancel a handle it posted
  // while the loop looks at it. Relaxed: the flag orders nothing else.
  void mark_cancelled() noexcept { cancelled_.store(true, std::memory_order_relaxed); }

 private:
  Callback callback_;
  Context context_;
  SourceLocation created_at_;
  bool runs_once_;
  bool running_ = false;
  std::atomic<bool> cancelled_{false};
};
// [handle_state]

// [threadsafe_handle_state]
/// A handle posted with call_soon_threadsafe(): the thread that posted it
/// holds it (to cancel it) while the loop holds it (to run it), so its count
/// is atomic. cancel() from another thread only marks it: the callback
/// belongs to the loop, which skips a marked handle and releases the
/// callback on its own thread. A cancel() that races with the run may come
/// too late to stop it, as in asyncio before 3.14.
class ThreadsafeHandleState final : public HandleState {
 public:
  /// A posted handle, held from the start by the queue (the Ref) and by the
  /// caller (the Handle). Both references are counted before the handle is
  /// shared, so neither costs an atomic instruction; every later one does.
  static std::pair<Ref<HandleState>, Handle> make(Callback callback, Context context,
                                                  SourceLocation created_at);
  void cancel() noexcept override { mark_cancelled(); }

  // Made on one thread and freed on another: the BlockPool would pile every
  // block up on the loop's thread; the HandoffPool carries them back.
  static void* operator new(std::size_t size) { return HandoffPool::allocate(size); }
  static void operator delete(void* block, std::size_t size) noexcept {
    HandoffPool::deallocate(block, size);
  }

 private:
  ThreadsafeHandleState(Callback callback, Context context, SourceLocation created_at)
      : HandleState(std::move(callback), std::move(context), created_at) {}
};
static_assert(sizeof(ThreadsafeHandleState) <= HandoffPool::kBlockSize);
// [threadsafe_handle_state]

/// What call_soon() returns: a reference to a scheduled callback.
class Handle {
 public:
  Handle() = default;
  explicit Handle(Ref<HandleState> state) : state_(std::move(state)) {}

  /// Handle.cancel(): the callback will not run. Cancelling twice, or after
  /// the callback ran, does nothing more.
  void cancel() const noexcept { state_->cancel(); }
  bool cancelled() const noexcept { return state_->cancelled(); }
  Context& get_context() const noexcept { return state_->context(); }
  std::string repr() const { return state_ ? state_->repr() : "<Handle (empty)>"; }

  explicit operator bool() const noexcept { return static_cast<bool>(state_); }
  friend bool operator==(const Handle& a, const Handle& b) noexcept { return a.state_ == b.state_; }

 protected:
  HandleState* state() const noexcept { return state_.get(); }

 private:
  Ref<HandleState> state_;
};

inline std::pair<Ref<HandleState>, Handle> ThreadsafeHandleState::make(Callback callback,
                                                                       Context context,
                                                                       SourceLocation created_at) {
  auto* state = new ThreadsafeHandleState(std::move(callback), std::move(context), created_at);
  std::pair<Ref<HandleState>, Handle> held{Ref<HandleState>(state),
                                           Handle(Ref<HandleState>(state))};
  state->share_across_threads();  // from here on, two threads may hold it
  return held;
}

}  // namespace looplab
