#include "looplab/plumbing/block_pool.hpp"

#include <sanitizer/asan_interface.h>  // no-ops unless built with AddressSanitizer

#include <array>
#include <cstddef>
#include <mutex>
#include <new>
#include <utility>
#include <vector>

namespace looplab {
namespace {

#if defined(__SANITIZE_ADDRESS__)
constexpr bool kAddressSanitizer = true;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
constexpr bool kAddressSanitizer = true;
#else
constexpr bool kAddressSanitizer = false;
#endif
#else
constexpr bool kAddressSanitizer = false;
#endif

// New blocks are cut in address order from chunks of kChunkSize bytes, one
// size to a chunk. So the blocks a program makes one after another (a lazy
// task tree's tasks, frames and handles) lie side by side in memory, where
// the CPU reads ahead on its own. Taken one by one from operator new, they
// lay scattered among everything else malloc hands out, and a lazy
// async_tree_none of 55,986 tasks ran about 1.7 times as long. Under
// AddressSanitizer a poisoned granule follows each block, so that writing
// past a block into the next one is still reported.
constexpr std::size_t kChunkSize = std::size_t{64} << 10;
constexpr std::size_t kRedzone = kAddressSanitizer ? BlockPool::kGranule : 0;

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
  std::byte* fresh = nullptr;      // the next block never handed out, in the newest chunk
  std::byte* fresh_end = nullptr;  // the end of that chunk
};

constexpr std::size_t kClasses = BlockPool::kMaxBlockSize / BlockPool::kGranule;

std::size_t rounded(std::size_t size) {
  return (size + BlockPool::kGranule - 1) / BlockPool::kGranule * BlockPool::kGranule;
}

// One thread's free lists. A block may be freed on another thread than the
// one that cut it, into that thread's lists, so no chunk can ever be given
// back while the program runs: a thread that ends hands its shelf, lists and
// all, to the next thread that starts (shelves() below).
class Shelf {
 public:
  void* allocate(std::size_t size) {
    FreeList& list = list_for(size);
    void* block = list.top != nullptr ? take(list) : cut(list, size);
    ASAN_UNPOISON_MEMORY_REGION(block, size);
    return block;
  }
  void deallocate(void* block, std::size_t size) noexcept { put(list_for(size), block, size); }
  std::size_t cached(std::size_t size) noexcept { return list_for(size).count; }

 private:
  FreeList& list_for(std::size_t size) { return lists_[(size - 1) / BlockPool::kGranule]; }

  // A cached block is poisoned for AddressSanitizer, link included, so that a
  // use after free reads as one (not as a bad vtable pointer: the link sits
  // where an object's vtable pointer was). Only the pool itself unpoisons it.
  static void put(FreeList& list, void* block, std::size_t size) noexcept {
    list.second = std::exchange(list.top, ::new (block) FreeBlock{list.second});
    ++list.count;
    ASAN_POISON_MEMORY_REGION(block, rounded(size));
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
  static void* cut(FreeList& list, std::size_t size);

  std::array<FreeList, kClasses> lists_{};
};

// What outlives every thread: the chunks, and the shelves of the threads
// that ended. Made once and never destroyed, so that a thread (or a static
// object's destructor) that runs after main() returns still finds it, and
// every chunk stays reachable: no leak is reported.
class Shelves {
 public:
  std::byte* new_chunk() {
    auto* chunk = static_cast<std::byte*>(::operator new(kChunkSize));
    ASAN_POISON_MEMORY_REGION(chunk, kChunkSize);  // until cut
    std::lock_guard lock(mutex_);
    chunks_.push_back(chunk);
    return chunk;
  }
  Shelf* adopt() {
    {
      std::lock_guard lock(mutex_);
      if (!spare_.empty()) {
        Shelf* shelf = spare_.back();
        spare_.pop_back();
        return shelf;
      }
    }
    return new Shelf;
  }
  void retire(Shelf* shelf) {
    std::lock_guard lock(mutex_);
    spare_.push_back(shelf);
  }

 private:
  std::mutex mutex_;
  std::vector<std::byte*> chunks_;  // every chunk ever cut, for the program's life
  std::vector<Shelf*> spare_;       // of threads that ended, for the next ones
};

Shelves& shelves() {
  static auto* all = new Shelves;
  return *all;
}

void* Shelf::cut(FreeList& list, std::size_t size) {
  std::size_t stride = rounded(size) + kRedzone;
  if (static_cast<std::size_t>(list.fresh_end - list.fresh) < stride) {
    list.fresh = shelves().new_chunk();
    list.fresh_end = list.fresh + kChunkSize;
  }
  return std::exchange(list.fresh, list.fresh + stride);
}

// This thread's shelf: `current` points to it, from the thread's first
// allocation until the thread ends and hands it on (a plain pointer, read
// on every allocation without the guard a thread_local object needs).
thread_local Shelf* current = nullptr;
// Set once the shelf is handed on: a block made or freed later, by a static
// object's destructor at exit, goes to the late comers' shelf instead.
thread_local bool ended = false;

class ThreadShelf {
 public:
  ThreadShelf() : shelf_(shelves().adopt()) { current = shelf_; }
  ThreadShelf(const ThreadShelf&) = delete;
  ThreadShelf& operator=(const ThreadShelf&) = delete;
  ~ThreadShelf() {
    current = nullptr;
    ended = true;
    shelves().retire(shelf_);
  }

 private:
  Shelf* shelf_;
};

Shelf& first_shelf() {
  thread_local ThreadShelf shelf;
  return *current;
}

// Shared by the threads whose own shelf is gone; rarely used, so a lock will do.
struct LateShelf {
  std::mutex mutex;
  Shelf shelf;
};

LateShelf& late_shelf() {
  static auto* late = new LateShelf;
  return *late;
}

bool pooled(std::size_t size) { return size != 0 && size <= BlockPool::kMaxBlockSize; }

}  // namespace

void* BlockPool::allocate(std::size_t size) {
  if (!pooled(size)) return ::operator new(size);
  if (current != nullptr) return current->allocate(size);
  if (ended) {
    std::lock_guard lock(late_shelf().mutex);
    return late_shelf().shelf.allocate(size);
  }
  return first_shelf().allocate(size);
}

void BlockPool::deallocate(void* block, std::size_t size) noexcept {
  if (!pooled(size)) return ::operator delete(block);
  if (current != nullptr) return current->deallocate(block, size);
  if (ended) {
    std::lock_guard lock(late_shelf().mutex);
    return late_shelf().shelf.deallocate(block, size);
  }
  first_shelf().deallocate(block, size);
}

std::size_t BlockPool::cached(std::size_t size) noexcept {
  return pooled(size) && current != nullptr ? current->cached(size) : 0;
}

}  // namespace looplab
