// block_pool.hpp: recycles the small blocks that the loop allocates per callback.
//
// Every call_soon() creates a Handle, as asyncio does. Asking malloc for each
// one would cost more than the rest of call_soon() together, so Handles take
// their memory from here: a per-thread free list for each block size, filled by
// the Handles that have run. Once a program is warm, scheduling a callback
// allocates nothing. Blocks are cut from chunks of 64 KiB, side by side, and
// a thread hands out the lowest free block of the chunk it works through, so
// objects made one after another lie in rising addresses, which the CPU reads
// ahead; a block freed on another thread goes back to the thread that made
// it. The pool keeps what it has cut for the program's life.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <cstring>

namespace looplab {

namespace detail {
class ThreadShelf;  // block_pool.cpp: a thread's share of the pool
}  // namespace detail

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
  // LeakSanitizer does not look inside a chunk the pool keeps, so a leaked
  // task would go unseen: every block is an allocation of its own, and what
  // the pool would keep past a thread's end goes back to operator delete.
  static constexpr bool kKeepsBlocks = false;
#else
  /// True where blocks are cut from chunks and kept for the program's life
  /// (false under AddressSanitizer: each block is an operator new, and free
  /// ones wait in a stack per size, the last freed handed out first).
  static constexpr bool kKeepsBlocks = true;
#endif
  static constexpr std::size_t kGranule = 16;        // block sizes are multiples of this
  static constexpr std::size_t kMaxBlockSize = 512;  // larger requests go to operator new
  static constexpr std::size_t kClasses = kMaxBlockSize / kGranule;
  /// Blocks are cut from chunks of this size, aligned to it, each chunk
  /// opening with the address of the thread's shelf that owns it.
  static constexpr std::size_t kChunkSize = std::size_t{64} << 10;
  /// Enough for a gather() of a couple of hundred children, whose frames and
  /// tasks are all freed at its end: fanout_cached's 100 children found only
  /// half their blocks in a stack of 64 (8% more instructions a child).
  static constexpr std::size_t kRecent = 256;

  /// One block size's blocks freed last on a thread, up to kRecent, all of
  /// them the thread's own: a stack, handed out first, last freed first,
  /// while they are still in the cache (a task that yields gets back the
  /// handle it just freed). Full, it gives its older half back to the
  /// chunks' maps (block_pool.cpp). One count, no ring: a push or a pop
  /// changes a single word.
  struct RecentBlocks {
    std::array<void*, kRecent> blocks{};
    std::size_t count = 0;
  };

  // Inline, since every Handle, Future, Task and coroutine frame comes and
  // goes through here: the common case, a recent block, costs a few
  // instructions and no call; the rest is in block_pool.cpp.
  static void* allocate(std::size_t size) {
    if constexpr (kKeepsBlocks) {
      if (size - 1 < kMaxBlockSize && recent_ != nullptr) {
        RecentBlocks& list = recent_[(size - 1) / kGranule];
        if (list.count != 0) return list.blocks[--list.count];
      }
    }
    return allocate_from_chunks(size);
  }
  static void deallocate(void* block, std::size_t size) noexcept {
    if constexpr (kKeepsBlocks) {
      if (size - 1 < kMaxBlockSize && recent_ != nullptr && is_own(block)) {
        RecentBlocks& list = recent_[(size - 1) / kGranule];
        if (list.count != kRecent) {
          list.blocks[list.count++] = block;
          return;
        }
      }
    }
    deallocate_to_chunks(block, size);
  }

 private:
  friend class detail::ThreadShelf;
  static void* allocate_from_chunks(std::size_t size);
  static void deallocate_to_chunks(void* block, std::size_t size) noexcept;
  /// Whether `block` was cut from a chunk of this thread's shelf: a block
  /// of another goes back to it (block_pool.cpp), and is never used here,
  /// where its neighbours' cache lines belong to another thread.
  static bool is_own(void* block) noexcept {
    auto offset = reinterpret_cast<std::uintptr_t>(block) & (kChunkSize - 1);
    const void* owner = nullptr;
    std::memcpy(&owner, static_cast<std::byte*>(block) - offset, sizeof owner);
    return owner == shelf_;
  }
  /// This thread's shelf (block_pool.cpp) and its recent blocks, one stack
  /// per size (kClasses of them): null until the thread's first allocation,
  /// and again once it has ended. Under AddressSanitizer there are no stacks.
  static inline thread_local void* shelf_ = nullptr;
  static inline thread_local RecentBlocks* recent_ = nullptr;
};

/// Inherit from this to give a class its memory from the BlockPool.
struct PoolAllocated {
  static void* operator new(std::size_t size) { return BlockPool::allocate(size); }
  static void operator delete(void* block, std::size_t size) noexcept {
    BlockPool::deallocate(block, size);
  }
};

}  // namespace looplab
