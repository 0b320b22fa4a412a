// call_soon() does not touch the heap for small callables once the loop is warm.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cstddef>
#include <functional>
#include <random>
#include <thread>
#include <unordered_set>
#include <vector>

#include "looplab/event_loop.hpp"
#include "looplab/plumbing/block_pool.hpp"
#include "looplab/testing/allocation_counter.hpp"
#include "support/run_one_turn.hpp"

namespace looplab {
namespace {

using looplab::testing::AllocationCounter;

TEST(Allocation, CallSoonWithASmallCaptureAllocatesNothingOnceWarm) {
  EventLoop loop;
  std::array<long, 3> payload{1, 2, 3};  // 24 bytes of capture, plus a pointer
  long sum = 0;
  auto callback = [&sum, payload] { sum += payload[2]; };
  static_assert(Callback::fits_inline<decltype(callback)>());

  // Warm up: the ready queue and the handle pool grow to their working size.
  for (int i = 0; i < 1000; ++i) loop.call_soon(callback);
  testing::run_one_turn(loop);

  AllocationCounter counter;
  for (int i = 0; i < 1000; ++i) loop.call_soon(callback);
  testing::run_one_turn(loop);
  EXPECT_EQ(counter.count(), 0u);
  EXPECT_EQ(sum, 2 * 1000 * 3);
}

TEST(Allocation, TheCounterSeesAHeapAllocation) {
  // The guard above means something only if the counter can see allocations.
  EventLoop loop;
  std::array<long, 16> big{};  // 128 bytes: too big for the inline buffer
  auto callback = [big] { (void)big; };
  static_assert(!Callback::fits_inline<decltype(callback)>());
  loop.call_soon(callback);
  testing::run_one_turn(loop);

  AllocationCounter counter;
  loop.call_soon(callback);
  EXPECT_EQ(counter.count(), 1u);
  testing::run_one_turn(loop);
}

// Blocks freed in any order come back in rising addresses, past the few
// freed last (which are handed out first, while they are in the cache: at
// least half of BlockPool::kRecent, as a full stack gives its older half
// back); under AddressSanitizer the pool is a stack: the last freed comes
// back first.
TEST(Allocation, FreedBlocksComeBackLowestAddressFirst) {
  constexpr std::size_t kSize = 8;  // a size the loop's own objects never have
  constexpr std::size_t kCount = 2'000;
  std::vector<void*> blocks(kCount);
  for (void*& block : blocks) block = BlockPool::allocate(kSize);
  std::vector<void*> freed = blocks;
  std::mt19937 shuffle(7);  // fixed seed: the same order every run
  std::shuffle(freed.begin(), freed.end(), shuffle);
  for (void* block : freed) BlockPool::deallocate(block, kSize);

  std::vector<void*> again(kCount);
  for (void*& block : again) block = BlockPool::allocate(kSize);
  if constexpr (BlockPool::kKeepsBlocks) {
    constexpr std::size_t kRecent = BlockPool::kRecent;
    for (std::size_t i = 0; i < kRecent / 2; ++i) EXPECT_EQ(again[i], freed[kCount - 1 - i]);
    std::size_t descents = 0;  // once per chunk at most: the blocks may span two
    for (std::size_t i = kRecent + 1; i < kCount; ++i)
      descents += std::less<>()(again[i], again[i - 1]) ? 1 : 0;
    EXPECT_LE(descents, 1u);
  } else {
    for (std::size_t i = 0; i < kCount; ++i) EXPECT_EQ(again[i], freed[kCount - 1 - i]);
  }
  for (void* block : again) BlockPool::deallocate(block, kSize);
}

// A block freed on another thread goes back to the thread that made it, so
// blocks made here and always freed there (the frame of a coroutine given to
// run_coroutine_threadsafe()) do not pile up there while this thread cuts
// new ones. Under AddressSanitizer it stays with the thread that freed it.
TEST(Allocation, ABlockFreedOnAnotherThreadGoesBackToTheThreadThatMadeIt) {
  constexpr std::size_t kSize = 24;  // a size the loop's own objects never have
  constexpr std::size_t kCount = 5'000;
  constexpr int kRounds = 20;
  std::unordered_set<void*> seen;
  for (int round = 0; round < kRounds; ++round) {
    std::vector<void*> blocks(kCount);
    for (void*& block : blocks) block = BlockPool::allocate(kSize);
    seen.insert(blocks.begin(), blocks.end());
    bool reused_by_the_freeing_thread = false;
    std::thread other([&] {
      // A block of its own first: the thread has a shelf and a stack of
      // recent blocks, which each block of this thread's must pass by.
      BlockPool::deallocate(BlockPool::allocate(kSize), kSize);
      for (void* block : blocks) BlockPool::deallocate(block, kSize);
      void* block = BlockPool::allocate(kSize);
      reused_by_the_freeing_thread = block == blocks.back();
      BlockPool::deallocate(block, kSize);
    });
    other.join();
    EXPECT_EQ(reused_by_the_freeing_thread, !BlockPool::kKeepsBlocks);
  }
  // 20 rounds of 5,000 blocks took little more than one round's memory.
  if constexpr (BlockPool::kKeepsBlocks) {
    EXPECT_LT(seen.size(), 2 * kCount);
  }
}

}  // namespace
}  // namespace looplab
