// timer_heap.hpp: the loop's heap of timers, ordered by deadline.
//
// asyncio keeps its timers in a list managed by Python's heapq module. Two
// timers with the same deadline do not run in the order they were scheduled:
// heapq compares deadlines only, and its sift algorithms break ties in their
// own way (five timers pushed a, b, c, d, e at one deadline pop as a, c, e,
// b, d). looplab reproduces heapq's algorithms step for step, so that ties
// come out exactly as in CPython and every trace can be compared line for
// line. std::push_heap would be just as correct a heap, but its tie order is
// the standard library's business.
//
// Each entry carries a copy of its deadline next to the pointer, so that
// comparing two entries reads the heap's own array instead of chasing two
// pointers into handles scattered over memory: with 100,000 timers that is
// the difference between cache hits and cache misses at every level.
#pragma once

#include <cstddef>
#include <utility>
#include <vector>

#include "looplab/plumbing/check.hpp"
#include "looplab/plumbing/ref.hpp"
#include "looplab/timer_handle.hpp"

namespace looplab {

class TimerHeap {
 public:
  bool empty() const noexcept { return heap_.empty(); }
  std::size_t size() const noexcept { return heap_.size(); }
  /// The timer with the earliest deadline. Precondition: not empty.
  TimerHandleState& top() const noexcept {
    check_invariant(!empty(), "TimerHeap::top() on an empty heap");
    return *heap_.front().timer;
  }
  /// The earliest deadline, read from the heap's own copy (see Entry):
  /// asking whether a timer is due touches no handle. Precondition: not empty.
  Clock::time_point top_when() const noexcept {
    check_invariant(!empty(), "TimerHeap::top_when() on an empty heap");
    return heap_.front().when;
  }

  // [heap_push_pop]
  /// heapq.heappush
  void push(Ref<TimerHandleState> timer) {
    Clock::time_point when = timer->when();
    heap_.push_back(Entry{when, std::move(timer)});
    sift_down(0, heap_.size() - 1);
  }

  /// heapq.heappop. Precondition: not empty.
  Ref<TimerHandleState> pop() {
    check_invariant(!empty(), "TimerHeap::pop() on an empty heap");
    Entry last = std::move(heap_.back());
    heap_.pop_back();
    if (heap_.empty()) return std::move(last.timer);
    Entry top = std::exchange(heap_.front(), std::move(last));
    sift_up(0);
    return std::move(top.timer);
  }
  // [heap_push_pop]

  // [keep_only]
  /// Keeps the timers for which keep(timer) is true and restores the heap
  /// (asyncio's compaction: a list comprehension, then heapq.heapify).
  template <typename Keep>
  void keep_only(Keep keep) {
    std::size_t kept = 0;
    for (Entry& entry : heap_) {
      if (keep(*entry.timer)) heap_[kept++] = std::move(entry);
    }
    heap_.resize(kept);
    for (std::size_t i = heap_.size() / 2; i-- > 0;) sift_up(i);  // heapq.heapify
  }
  // [keep_only]

  template <typename F>
  void for_each(F f) const {
    for (const Entry& entry : heap_) f(*entry.timer);
  }

  void clear() noexcept { heap_.clear(); }

 private:
  // [heap_order]
  struct Entry {
    Clock::time_point when;  // a copy of timer->when(), for cheap comparisons
    Ref<TimerHandleState> timer;
  };
  // TimerHandle.__lt__: deadlines only.
  static bool less(const Entry& a, const Entry& b) noexcept { return a.when < b.when; }

  // heapq._siftdown: move the item at `pos` up towards `start` while it is
  // smaller than its parent.
  void sift_down(std::size_t start, std::size_t pos) {
    Entry item = std::move(heap_[pos]);
    while (pos > start) {
      std::size_t parent = (pos - 1) / 2;
      if (!less(item, heap_[parent])) break;
      heap_[pos] = std::move(heap_[parent]);
      pos = parent;
    }
    heap_[pos] = std::move(item);
  }

  // heapq._siftup: move the hole at `pos` down to a leaf, always following
  // the smaller child (the right one when they tie), then sift the item up.
  void sift_up(std::size_t pos) {
    std::size_t end = heap_.size();
    std::size_t start = pos;
    Entry item = std::move(heap_[pos]);
    std::size_t child = 2 * pos + 1;
    while (child < end) {
      std::size_t right = child + 1;
      if (right < end && !less(heap_[child], heap_[right])) child = right;
      heap_[pos] = std::move(heap_[child]);
      pos = child;
      child = 2 * pos + 1;
    }
    heap_[pos] = std::move(item);
    sift_down(start, pos);
  }
  // [heap_order]

  std::vector<Entry> heap_;
};

}  // namespace looplab
