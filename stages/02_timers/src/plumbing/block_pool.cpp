#include "looplab/plumbing/block_pool.hpp"

#include <sanitizer/asan_interface.h>  // no-ops unless built with AddressSanitizer

#include <array>
#include <new>
#include <utility>

namespace looplab {
namespace {

// A free block stores the link to the next free block in its first bytes.
struct FreeBlock {
  FreeBlock* next;
};

struct FreeList {
  FreeBlock* head = nullptr;
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
      while (list.head != nullptr) ::operator delete(take(list));
    }
  }
  FreeList& list_for(std::size_t size) { return lists_[(size - 1) / BlockPool::kGranule]; }

  // A cached block is poisoned for AddressSanitizer, link included, so that a
  // use after free reads as one (not as a bad vtable pointer: the link sits
  // where an object's vtable pointer was). Only the pool itself unpoisons it.
  static void put(FreeList& list, void* block, std::size_t size) noexcept {
    list.head = ::new (block) FreeBlock{list.head};
    ++list.count;
    ASAN_POISON_MEMORY_REGION(block, size);
  }
  static void* take(FreeList& list) noexcept {
    ASAN_UNPOISON_MEMORY_REGION(list.head, sizeof(FreeBlock));
    --list.count;
    void* block = std::exchange(list.head, list.head->next);
    // The next take() reads the new head's link: a block freed long ago is
    // out of the cache, and that read would stall the allocation. Fetch it
    // now, for writing, as its caller will construct an object in it. (A
    // prefetch never faults: an empty list's null head needs no test.)
    __builtin_prefetch(list.head, 1);
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
  if (list.head == nullptr) return ::operator new(rounded(size));
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
