// handoff_pool.hpp: recycles blocks that one thread allocates and another frees.
//
// call_soon_threadsafe() makes a handle on the posting thread, and the loop
// frees it on its own. The BlockPool's per-thread lists would pile every block
// up on the loop's thread while the posters kept asking malloc for new ones,
// and malloc fares no better: its per-thread cache fills on the freeing thread
// too, so under a flood of posts each allocation took malloc's slow path
// (a quarter of threadsafe_flood's time, measured with perf).
//
// So the blocks travel back. Each thread keeps a short list of free blocks; a
// thread that frees more than it allocates (the loop) hands a batch of them
// to a shared list, and a thread whose list is empty (a poster) takes a batch
// from it. The shared list has a lock, taken once per batch, not per block.
#pragma once

#include <cstddef>

namespace looplab {

class HandoffPool {
 public:
  /// The one block size served; a larger request goes to operator new.
  static constexpr std::size_t kBlockSize = 128;
  /// Blocks moved at once to or from the shared list: its lock is taken once
  /// per batch (256 took a tenth off threadsafe_flood against 64; 1024 no more).
  static constexpr std::size_t kBatch = 256;
  /// Blocks the shared list keeps; more are given back to malloc.
  static constexpr std::size_t kMaxShared = std::size_t{1} << 16;

  static void* allocate(std::size_t size);
  static void deallocate(void* block, std::size_t size) noexcept;

  /// Blocks in the shared list, and in this thread's own (for tests).
  static std::size_t shared_blocks() noexcept;
  static std::size_t this_thread_blocks() noexcept;
};

}  // namespace looplab
