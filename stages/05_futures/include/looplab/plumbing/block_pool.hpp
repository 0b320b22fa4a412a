// block_pool.hpp: recycles the small blocks that the loop allocates per callback.
//
// Every call_soon() creates a Handle, as asyncio does. Asking malloc for each
// one would cost more than the rest of call_soon() together, so Handles take
// their memory from here: a per-thread free list for each block size, filled by
// the Handles that have run. Once a program is warm, scheduling a callback
// allocates nothing. New blocks are cut from chunks of 64 KiB, side by side,
// and the pool keeps what it has cut for the program's life: a thread keeps
// up to 2^20 free blocks of a size (about 100 MiB of handles), and shares
// the rest with the other threads.
#pragma once

#include <cstddef>

namespace looplab {

#if defined(__SANITIZE_ADDRESS__)
#define LOOPLAB_ADDRESS_SANITIZER 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define LOOPLAB_ADDRESS_SANITIZER 1
#endif
#endif

class BlockPool {
 public:
#ifdef LOOPLAB_ADDRESS_SANITIZER
  // A free block's link is poisoned, and LeakSanitizer does not follow
  // poisoned memory: a block kept past its thread's end would read as
  // leaked. So every block is an allocation of its own, and what the pool
  // would keep past a thread's end, or share, goes back to operator delete.
  static constexpr bool kKeepsBlocks = false;
#else
  /// True where new blocks are cut from chunks and kept for the program's
  /// life (false under AddressSanitizer).
  static constexpr bool kKeepsBlocks = true;
#endif
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
