// prefetch.hpp: asking for an object's cache lines before they are needed.
//
// A lazy task tree queues tens of thousands of first steps before it runs
// one, so by the time the loop reaches a handle it was made long ago and is
// out of the cache: the loop waits for memory once per handle, one wait
// after another. Asked for a few handles ahead, the waits overlap the runs
// in between instead (stage 07 on: run_ready() in event_loop.cpp).
#pragma once

#include <cstddef>

namespace looplab {

/// Asks the CPU to bring the cache lines of `*object` in. Changes nothing
/// else: a prefetch never faults, and a wasted one costs an instruction.
template <typename T>
void prefetch(const T* object) noexcept {
  constexpr std::size_t kLine = 64;
  const char* bytes = reinterpret_cast<const char*>(object);
  for (std::size_t offset = 0; offset < sizeof(T); offset += kLine)
    __builtin_prefetch(bytes + offset);
  // An object that does not start on a line may end on one more.
  __builtin_prefetch(bytes + sizeof(T) - 1);
}

}  // namespace looplab
