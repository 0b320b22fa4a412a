// threadsafe_queue.hpp: the callbacks other threads hand a loop.
//
// asyncio's call_soon_threadsafe() appends to the loop's ready queue
// directly: the GIL makes that one append safe. C++ has no GIL, so the loop
// keeps a second, small queue behind a mutex for other threads, and moves
// its contents onto the ready queue each turn, right after the selector
// returns: where asyncio's appends would have put them. Then it wakes the
// loop through the self-pipe (self_pipe.hpp).
//
// The loop shares the queue with the code that chains futures across
// threads (chain_future.hpp): a callback that completes on another thread
// after the loop is gone finds the queue closed, not freed memory.
//
// A wake-up is needed only if the loop has not been woken since it last
// drained the pipe: libuv's uv_async_send() writes under the same rule, and
// a flood of posts then costs one system call per loop turn instead of one
// per post. asyncio writes every time; chapter 9 measures both
// (LOOPLAB_WAKE=every_post|once_per_drain).
#pragma once

#include <atomic>
#include <mutex>
#include <vector>

#include "looplab/handle.hpp"
#include "looplab/plumbing/ref.hpp"
#include "looplab/plumbing/ring_buffer.hpp"
#include "looplab/self_pipe.hpp"

namespace looplab {

class ThreadsafeQueue {
 public:
  enum class WakeRule {
    kEveryPost,     // asyncio: a write per call_soon_threadsafe()
    kOncePerDrain,  // libuv: a write only if none is pending since the last drain
  };

  ThreadsafeQueue(SelfPipe::Kind kind, WakeRule rule) : pipe_(kind), rule_(rule) {}

  // [threadsafe_post]
  /// Any thread: queues `callback` for the loop, in a handle of its own
  /// (with a copy of `context`, or of the caller's Context if null), wakes
  /// the loop, and returns the handle. RuntimeError("Event loop is closed")
  /// once close() has run.
  Handle post(Callback callback, const Context* context, SourceLocation where);
  // [threadsafe_post]
  /// The loop's thread: true if something may have been posted. A hint,
  /// read without the lock: a post that races with it is found next time.
  bool maybe_nonempty() const noexcept { return nonempty_.load(std::memory_order_acquire); }
  /// The loop's thread: moves everything posted so far onto `ready`, in the
  /// order the posts took the lock (so, per posting thread, in call order).
  void take_all(RingBuffer<Ref<HandleState>>& ready);
  /// The loop's thread, when the self-pipe is readable: empties it. A post
  /// after this writes to it again.
  void drain();
  /// close(): every later post is refused; what is queued is dropped, not run.
  void close();

  const SelfPipe& self_pipe() const noexcept { return pipe_; }
  WakeRule wake_rule() const noexcept { return rule_; }

 private:
  mutable std::mutex mutex_;
  std::vector<Ref<HandleState>> posted_;  // guarded by mutex_
  std::vector<Ref<HandleState>>
      taking_;                 // the loop's: swapped with posted_, so neither reallocates
  bool closed_ = false;        // guarded by mutex_
  bool wake_pending_ = false;  // guarded by mutex_: written since the last drain
  std::atomic<bool> nonempty_{false};
  SelfPipe pipe_;
  WakeRule rule_;
};

/// The rule a new loop uses: LOOPLAB_WAKE=every_post|once_per_drain if set
/// (ValueError for anything else), else once_per_drain.
ThreadsafeQueue::WakeRule default_wake_rule();

}  // namespace looplab
