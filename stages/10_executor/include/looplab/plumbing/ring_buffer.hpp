// ring_buffer.hpp: the FIFO behind the ready queue.
//
// asyncio's _ready is a collections.deque. A ring buffer is the C++ deque that
// never allocates in steady state: a power-of-two array with a head index,
// doubled when full. std::deque would allocate and free a block every few
// hundred pushes as the queue drains and refills.
#pragma once

#include <cstddef>
#include <utility>
#include <vector>

#include "looplab/plumbing/check.hpp"

namespace looplab {

template <typename T>
class RingBuffer {
 public:
  bool empty() const noexcept { return size_ == 0; }
  std::size_t size() const noexcept { return size_; }

  void push_back(T value) {
    if (size_ == slots_.size()) grow();
    slots_[(head_ + size_) & (slots_.size() - 1)] = std::move(value);
    ++size_;
  }

  /// Removes and returns the oldest element. Precondition: not empty.
  T pop_front() {
    check_invariant(!empty(), "RingBuffer::pop_front() on an empty buffer");
    T value = std::move(slots_[head_]);
    head_ = (head_ + 1) & (slots_.size() - 1);
    --size_;
    return value;
  }

  /// The element `index` places behind the oldest (stage 07 on, to read
  /// ahead). Precondition: index < size().
  const T& operator[](std::size_t index) const noexcept {
    return slots_[(head_ + index) & (slots_.size() - 1)];
  }

  void clear() {
    while (!empty()) pop_front();
  }

 private:
  void grow() {
    std::vector<T> bigger(slots_.empty() ? 16 : slots_.size() * 2);
    for (std::size_t i = 0; i < size_; ++i)
      bigger[i] = std::move(slots_[(head_ + i) & (slots_.size() - 1)]);
    slots_ = std::move(bigger);
    head_ = 0;
  }

  std::vector<T> slots_;  // capacity is always zero or a power of two
  std::size_t head_ = 0;
  std::size_t size_ = 0;
};

}  // namespace looplab
