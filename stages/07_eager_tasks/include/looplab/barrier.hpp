// barrier.hpp: Barrier, asyncio's meeting point for a fixed number of
// coroutines (asyncio.locks, Python 3.11 on), built on a Condition.
//
//   Barrier meeting(3);                          // asyncio.Barrier(3)
//   int index = co_await meeting.wait();         // index = await meeting.wait()
//
// The rules are CPython's (3.12 and 3.13 agree, Lib/asyncio/locks.py):
//
//   * wait() returns when `parties` coroutines wait: the last to arrive
//     releases the others without suspending; each gets its place in the
//     arrival order, 0 to parties - 1;
//   * while those leave (draining), newcomers wait for the next round;
//   * reset() sends every waiting coroutine BrokenBarrierError and starts a
//     new round once they have left; abort() breaks the barrier: every
//     waiter, now and later, gets BrokenBarrierError.
//
// A handle, as Lock is: copies share one barrier.
#pragma once

#include <string>

#include "looplab/condition.hpp"
#include "looplab/coro.hpp"
#include "looplab/exceptions.hpp"
#include "looplab/plumbing/ref.hpp"

namespace looplab {

/// asyncio.BrokenBarrierError: a barrier's wait() ended by reset() or abort().
class BrokenBarrierError : public RuntimeError {
 public:
  using RuntimeError::RuntimeError;
};

/// asyncio.Barrier: `parties` coroutines wait for each other.
class Barrier {
 public:
  /// A barrier for `parties` coroutines. ValueError("parties must be > 0")
  /// if parties < 1.
  explicit Barrier(int parties);

  /// `co_await meeting.wait()` (`async with meeting:`): waits until
  /// `parties` coroutines wait, and returns this one's index in the round.
  /// BrokenBarrierError if the barrier is reset or aborted meanwhile, or
  /// broken already.
  Coro<int> wait() const { return wait_in(state_); }
  /// `co_await meeting.reset()`: waiting coroutines get BrokenBarrierError;
  /// the barrier fills again once they have left (at once if none waits).
  Coro<void> reset() const { return reset_in(state_); }
  /// `co_await meeting.abort()`: the barrier is broken; every wait(), now
  /// and later, raises BrokenBarrierError.
  Coro<void> abort() const { return abort_in(state_); }

  /// How many coroutines a round needs.
  int parties() const noexcept { return state_->parties; }
  /// How many wait in the round that is filling (0 while it drains).
  int n_waiting() const noexcept;
  bool broken() const noexcept { return state_->phase == Phase::kBroken; }

  /// Like the end of Python's repr(): "<Barrier [filling, waiters:1/3]>",
  /// "<Barrier [broken]>".
  std::string repr() const;

 private:
  // asyncio's _BarrierState.
  enum class Phase { kFilling, kDraining, kResetting, kBroken };
  struct State : RefCounted {
    explicit State(int parties_in) : parties(parties_in) {}
    Condition condition;  // every change of phase notifies all
    int parties;
    Phase phase = Phase::kFilling;
    int count = 0;  // coroutines inside wait(), past the entrance
  };
  static Coro<int> wait_in(Ref<State> state);  // the coroutines hold the state
  static Coro<void> reset_in(Ref<State> state);
  static Coro<void> abort_in(Ref<State> state);
  static void leave(State& state);

  Ref<State> state_;
};

}  // namespace looplab
