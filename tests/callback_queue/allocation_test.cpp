// call_soon() does not touch the heap for small callables once the loop is warm.
#include <gtest/gtest.h>

#include <array>
#include <cstddef>
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

TEST(Allocation, AThreadKeepsAMillionFreeBlocksOfASizeAndSharesTheRest) {
  constexpr std::size_t kSize = 8;  // a size the loop's own objects never have
  constexpr std::size_t kKept = std::size_t{1} << 20;
  std::vector<void*> blocks(kKept + 1000);
  for (void*& block : blocks) block = BlockPool::allocate(kSize);
  for (void* block : blocks) BlockPool::deallocate(block, kSize);
  EXPECT_LE(BlockPool::cached(kSize), kKept);
  EXPECT_GE(BlockPool::cached(kSize), kKept - 64);

  // Another thread draws on the shared blocks before its memory grows much:
  // made here and freed there, blocks do not pile up on one side. (Under
  // AddressSanitizer the pool gives them back to operator delete instead.)
  if constexpr (!BlockPool::kKeepsBlocks) return;
  std::unordered_set<void*> freed(blocks.begin(), blocks.end());
  bool drew_a_shared_block = false;
  std::thread other([&] {
    std::vector<void*> made;
    while (!drew_a_shared_block && made.size() < 10'000) {
      made.push_back(BlockPool::allocate(kSize));
      drew_a_shared_block = freed.contains(made.back());
    }
    for (void* block : made) BlockPool::deallocate(block, kSize);
  });
  other.join();
  EXPECT_TRUE(drew_a_shared_block);
}

}  // namespace
}  // namespace looplab
