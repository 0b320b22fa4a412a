// The HandoffPool: blocks that call_soon_threadsafe() allocates on a posting
// thread and the loop frees on its own find their way back to the posters.
#include "looplab/plumbing/handoff_pool.hpp"

#include <gtest/gtest.h>

#include <cstddef>
#include <set>
#include <thread>
#include <vector>

namespace looplab {
namespace {

constexpr std::size_t kSize = HandoffPool::kBlockSize;

std::vector<void*> allocate_on_a_thread(std::size_t count) {
  std::vector<void*> blocks;
  std::thread([&] {
    for (std::size_t i = 0; i < count; ++i) blocks.push_back(HandoffPool::allocate(kSize));
  }).join();
  return blocks;
}

TEST(HandoffPool, BlocksFreedOnOneThreadAreReusedOnAnother) {
  std::vector<void*> made = allocate_on_a_thread(4 * HandoffPool::kBatch);
  // This thread frees them all: it keeps a few, and hands the rest on in batches.
  for (void* block : made) HandoffPool::deallocate(block, kSize);
  EXPECT_LT(HandoffPool::this_thread_blocks(), 2 * HandoffPool::kBatch);
  EXPECT_GE(HandoffPool::shared_blocks(), 2 * HandoffPool::kBatch);

  // A third thread, with an empty list of its own, allocates them again.
  std::vector<void*> again = allocate_on_a_thread(HandoffPool::kBatch);
  std::set<void*> freed(made.begin(), made.end());
  for (void* block : again) {
    EXPECT_EQ(freed.count(block), 1U) << "a block came from malloc, not from the pool";
  }
  for (void* block : again) HandoffPool::deallocate(block, kSize);
}

TEST(HandoffPool, AThreadThatExitsGivesItsBlocksBack) {
  std::size_t held = 0;
  std::size_t shared_before_exit = 0;
  std::thread([&] {
    std::vector<void*> blocks;
    for (int i = 0; i < 10; ++i) blocks.push_back(HandoffPool::allocate(kSize));
    for (void* block : blocks) HandoffPool::deallocate(block, kSize);
    held = HandoffPool::this_thread_blocks();
    shared_before_exit = HandoffPool::shared_blocks();
  }).join();
  EXPECT_GE(held, 10U);
  EXPECT_EQ(HandoffPool::shared_blocks(), shared_before_exit + held);
}

TEST(HandoffPool, LargerBlocksGoStraightToOperatorNew) {
  std::size_t before = HandoffPool::this_thread_blocks();
  void* block = HandoffPool::allocate(kSize + 1);
  HandoffPool::deallocate(block, kSize + 1);
  EXPECT_EQ(HandoffPool::this_thread_blocks(), before);
}

TEST(HandoffPool, TheSharedListIsBounded) {
  // A burst bigger than the bound: what passes it goes back to malloc.
  std::vector<void*> made = allocate_on_a_thread(HandoffPool::kMaxShared + 4 * HandoffPool::kBatch);
  for (void* block : made) HandoffPool::deallocate(block, kSize);
  EXPECT_EQ(HandoffPool::shared_blocks(), HandoffPool::kMaxShared);
}

}  // namespace
}  // namespace looplab
