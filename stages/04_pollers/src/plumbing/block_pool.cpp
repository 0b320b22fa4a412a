#include "looplab/plumbing/block_pool.hpp"

#include <sanitizer/asan_interface.h>  // no-ops unless built with AddressSanitizer

#include <array>
#include <new>
#include <utility>

namespace looplab {
namespace {

// A size's free blocks form a stack. The list holds the top two itself, and
// each free block stores, in its first bytes, a link to the block two below
// it. So take() learns which block it will hand out two allocations later
// without reading the one in between, and can fetch it that early: a block
// freed long ago is out of the cache, and the one allocation's notice that a
// plain linked list gives is too short to bring it back (a lazy task tree
// waited for memory in a fifth of its time here).
struct FreeBlock {
  FreeBlock* two_below;
};

struct FreeList {
  FreeBlock* top = nullptr;
  FreeBlock* second = nullptr;
  std::size_t count = 0;
};

constexpr std::size_t kClasses = BlockPool::kMaxBlockSize / BlockPool::kGranule;

class ThreadCache {
 public:
  ThreadCache() = default;
  ThreadCache(const ThreadCache&) = delete;
  ThreadCache& operator=(const ThreadCache&) = delete;
  ~ThreadCache() {
    destroyed = true;
    for (FreeList& list : lists_) {
      while (list.top != nullptr) ::operator delete(take(list));
    }
  }
  FreeList& list_for(std::size_t size) { return lists_[(size - 1) / BlockPool::kGranule]; }

  // A cached block is poisoned for AddressSanitizer, link included, so that a
  // use after free reads as one (not as a bad vtable pointer: the link sits
  // where an object's vtable pointer was). Only the pool itself unpoisons it.
  static void put(FreeList& list, void* block, std::size_t size) noexcept {
    list.second = std::exchange(list.top, ::new (block) FreeBlock{list.second});
    ++list.count;
    ASAN_POISON_MEMORY_REGION(block, size);
  }
  static void* take(FreeList& list) noexcept {
    ASAN_UNPOISON_MEMORY_REGION(list.top, sizeof(FreeBlock));
    --list.count;
    FreeBlock* block = std::exchange(list.top, list.second);
    list.second = block->two_below;
    // Handed out two allocations from now. For writing, as its caller will
    // construct an object in it. (A prefetch never faults: a null link
    // needs no test.)
    __builtin_prefetch(list.second, 1);
    return block;
  }

  // Set once this thread's cache is gone: a Handle freed later, by a static
  // object's destructor at exit, goes straight back to operator delete.
  static thread_local bool destroyed;

 private:
  std::array<FreeList, kClasses> lists_{};
};

thread_local bool ThreadCache::destroyed = false;

ThreadCache& this_thread_cache() {
  thread_local ThreadCache cache;
  return cache;
}

std::size_t rounded(std::size_t size) {
  return (size + BlockPool::kGranule - 1) / BlockPool::kGranule * BlockPool::kGranule;
}

}  // namespace

void* BlockPool::allocate(std::size_t size) {
  if (size == 0 || size > kMaxBlockSize || ThreadCache::destroyed) return ::operator new(size);
  FreeList& list = this_thread_cache().list_for(size);
  if (list.top == nullptr) return ::operator new(rounded(size));
  void* block = ThreadCache::take(list);
  ASAN_UNPOISON_MEMORY_REGION(block, size);
  return block;
}

void BlockPool::deallocate(void* block, std::size_t size) noexcept {
  if (size == 0 || size > kMaxBlockSize || ThreadCache::destroyed) return ::operator delete(block);
  FreeList& list = this_thread_cache().list_for(size);
  if (list.count >= kMaxCachedBlocks) return ::operator delete(block);
  ThreadCache::put(list, block, rounded(size));
}

std::size_t BlockPool::cached(std::size_t size) noexcept {
  if (size == 0 || size > kMaxBlockSize || ThreadCache::destroyed) return 0;
  return this_thread_cache().list_for(size).count;
}

}  // namespace looplab
