// queue_items.hpp: the orders in which a Queue hands its items out, asyncio's
// _put() and _get() of Queue, LifoQueue and PriorityQueue (Lib/asyncio/queues.py).
//
// Each is a container with put(), get(), size() and empty(); Queue<T, Items>
// does the waiting and waking, whatever the order (queues.hpp).
#pragma once

#include <cstddef>
#include <deque>
#include <utility>
#include <vector>

namespace looplab {

/// asyncio.Queue's order: the oldest item first (append, popleft).
template <typename T>
class OldestFirst {
 public:
  static constexpr const char* kQueueName = "Queue";
  void put(T item) { items_.push_back(std::move(item)); }
  T get() {
    T item = std::move(items_.front());
    items_.pop_front();
    return item;
  }
  std::size_t size() const noexcept { return items_.size(); }
  bool empty() const noexcept { return items_.empty(); }

 private:
  std::deque<T> items_;
};

/// asyncio.LifoQueue's order: the newest item first (append, pop).
template <typename T>
class NewestFirst {
 public:
  static constexpr const char* kQueueName = "LifoQueue";
  void put(T item) { items_.push_back(std::move(item)); }
  T get() {
    T item = std::move(items_.back());
    items_.pop_back();
    return item;
  }
  std::size_t size() const noexcept { return items_.size(); }
  bool empty() const noexcept { return items_.empty(); }

 private:
  std::vector<T> items_;
};

/// asyncio.PriorityQueue's order: the smallest item first, by T's operator<
/// (heappush, heappop). The sifts are heapq's, step for step: std::push_heap
/// would be as good a heap, but would hand equal items out in another order
/// than asyncio (the timer heap does the same for equal deadlines).
template <typename T>
class SmallestFirst {
 public:
  static constexpr const char* kQueueName = "PriorityQueue";
  /// heapq.heappush
  void put(T item) {
    heap_.push_back(std::move(item));
    sift_down(0, heap_.size() - 1);
  }
  /// heapq.heappop
  T get() {
    T last = std::move(heap_.back());
    heap_.pop_back();
    if (heap_.empty()) return last;
    T smallest = std::exchange(heap_.front(), std::move(last));
    sift_up(0);
    return smallest;
  }
  std::size_t size() const noexcept { return heap_.size(); }
  bool empty() const noexcept { return heap_.empty(); }

 private:
  // heapq._siftdown: the item at `pos` moves up towards `start` while it is
  // smaller than its parent.
  void sift_down(std::size_t start, std::size_t pos) {
    T item = std::move(heap_[pos]);
    while (pos > start) {
      std::size_t parent = (pos - 1) / 2;
      if (!(item < heap_[parent])) break;
      heap_[pos] = std::move(heap_[parent]);
      pos = parent;
    }
    heap_[pos] = std::move(item);
  }
  // heapq._siftup: the smaller child moves up until `pos` is a leaf, then
  // the item there sifts down into place (fewer comparisons on average).
  void sift_up(std::size_t pos) {
    std::size_t end = heap_.size();
    std::size_t start = pos;
    T item = std::move(heap_[pos]);
    std::size_t child = 2 * pos + 1;
    while (child < end) {
      std::size_t right = child + 1;
      if (right < end && !(heap_[child] < heap_[right])) child = right;
      heap_[pos] = std::move(heap_[child]);
      pos = child;
      child = 2 * pos + 1;
    }
    heap_[pos] = std::move(item);
    sift_down(start, pos);
  }

  std::vector<T> heap_;
};

}  // namespace looplab
