// timer_wheel.hpp: extension lab 02, a hashed timing wheel beside the heap.
//
// The loop keeps its timers in a binary heap: O(log n) to push, O(log n) to
// pop the earliest, and the order of equal deadlines is heapq's, which every
// CPython trace depends on. A timing wheel (Varghese and Lauck, 1987; the
// kernel's timers, Netty's HashedWheelTimer) trades exactness for O(1): time
// is cut into ticks, the wheel has one bucket per tick modulo its size, and a
// timer goes into the bucket of its deadline's tick. Advancing time visits
// only the buckets of the ticks that passed. A bucket may hold timers of
// later turns of the wheel (their deadline is a multiple of the wheel's span
// away): those stay where they are until their own turn comes.
//
// This wheel holds the same timers as the loop's heap (Ref<TimerHandleState>),
// so the two can be measured on the same work (lab/bench/timer_wheel_bench.cpp).
// Cancellation is lazy, as in the heap: a cancelled timer stays until its
// bucket is visited, and is then dropped instead of returned.
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

#include "looplab/clock.hpp"
#include "looplab/plumbing/ref.hpp"
#include "looplab/timer_handle.hpp"

namespace looplab::lab {

class TimerWheel {
 public:
  /// A wheel of `slots` buckets, each `tick` long, whose first tick starts at
  /// `start`. Throws std::invalid_argument if tick is not positive or slots is 0.
  TimerWheel(Clock::time_point start, Clock::duration tick, std::size_t slots);

  /// How many timers the wheel holds, cancelled ones included (as the heap counts).
  std::size_t size() const noexcept { return size_; }
  bool empty() const noexcept { return size_ == 0; }

  /// Holds `timer` until advance() reaches its deadline, timer->when(). O(1).
  /// A deadline already passed is due at the next advance().
  void push(Ref<TimerHandleState> timer);

  /// Moves time forward to `now` and appends to `due` every timer whose
  /// deadline is at or before `now` and that is not cancelled, in deadline
  /// order; timers with equal deadlines in the order they were pushed.
  /// Cancelled timers whose deadline passed are dropped. Visits the buckets of
  /// the ticks between the last advance and `now`, at most every bucket once.
  /// A `now` earlier than the last advance's moves nothing back: it only
  /// returns what is due by then.
  void advance(Clock::time_point now, std::vector<Ref<TimerHandleState>>& due);

  /// The earliest deadline the wheel holds (cancelled timers included, as the
  /// heap's top() would), or nullopt if it is empty: what a loop needs for its
  /// poll timeout.
  std::optional<Clock::time_point> earliest() const;

 private:
  struct Entry {
    Clock::time_point when;  // a copy of timer->when()
    std::uint64_t order;     // push order, for equal deadlines
    Ref<TimerHandleState> timer;
  };

  /// The number of the tick that holds `when`; deadlines before the current
  /// tick count as the current tick.
  std::uint64_t tick_of(Clock::time_point when) const noexcept;
  std::vector<Entry>& bucket_of(std::uint64_t tick) noexcept {
    return buckets_[tick % buckets_.size()];
  }
  const std::vector<Entry>& bucket_of(std::uint64_t tick) const noexcept {
    return buckets_[tick % buckets_.size()];
  }

  Clock::time_point start_;
  Clock::duration tick_;
  std::vector<std::vector<Entry>> buckets_;
  std::uint64_t current_tick_ = 0;  // the tick of the last advance
  std::uint64_t pushed_ = 0;
  std::size_t size_ = 0;
  std::vector<Entry> scratch_;  // the due entries of one advance, before sorting
};

}  // namespace looplab::lab
