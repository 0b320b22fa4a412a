// block_pool.hpp: recycles the small blocks that the loop allocates per callback.
//
// Every call_soon() creates a Handle, as asyncio does. Asking malloc for each
// one would cost more than the rest of call_soon() together, so Handles take
// their memory from here: a per-thread free list for each block size, filled by
// the Handles that have run. Once a program is warm, scheduling a callback
// allocates nothing. New blocks are cut from chunks of 64 KiB, side by side,
// and like malloc's arenas the pool keeps what it has cut for the program's
// life: the memory a burst took waits for the next burst.
#pragma once

#include <cstddef>

namespace looplab {

class BlockPool {
 public:
  static constexpr std::size_t kGranule = 16;        // block sizes are multiples of this
  static constexpr std::size_t kMaxBlockSize = 512;  // larger requests go to operator new

  static void* allocate(std::size_t size);
  static void deallocate(void* block, std::size_t size) noexcept;

  /// Blocks currently cached for this size on this thread (for tests).
  static std::size_t cached(std::size_t size) noexcept;
};

/// Inherit from this to give a class its memory from the BlockPool.
struct PoolAllocated {
  static void* operator new(std::size_t size) { return BlockPool::allocate(size); }
  static void operator delete(void* block, std::size_t size) noexcept {
    BlockPool::deallocate(block, size);
  }
};

}  // namespace looplab
