#include "looplab/plumbing/block_pool.hpp"

#include <sanitizer/asan_interface.h>  // no-ops unless built with AddressSanitizer

#include <array>
#include <cstddef>
#include <mutex>
#include <new>
#include <utility>

namespace looplab {
namespace {

// New blocks are cut in address order from chunks of kChunkSize bytes, one
// size to a chunk. So the blocks a program makes one after another (a lazy
// task tree's tasks, frames and handles) lie side by side in memory, where
// the CPU reads ahead on its own. Taken one by one from operator new, they
// lay scattered among everything else malloc hands out, and a lazy
// async_tree_none of 55,986 tasks ran 1.2 to 1.7 times as long.
//
// Under AddressSanitizer each new block is still an operator new of its
// own (BlockPool::kKeepsBlocks): LeakSanitizer then follows every block,
// and reports a leaked task or future, where a chunk would hide it.
constexpr std::size_t kChunkSize = std::size_t{64} << 10;
static_assert(__STDCPP_DEFAULT_NEW_ALIGNMENT__ >= BlockPool::kGranule);

// A size's free blocks form a stack. The list holds the top two itself, and
// each free block stores, in its first bytes, a link to the block two below
// it. So take() learns which block it will hand out two allocations later
// without reading the one in between, and can fetch it that early: a block
// freed long ago is out of the cache, and the one allocation's notice that a
// plain linked list gives is too short to bring it back (a lazy task tree
// waited for memory in a fifth of its time here).
struct FreeBlock {
  FreeBlock* two_below;  // in a shared list (Shelves): the next block
};

struct FreeList {
  FreeBlock* top = nullptr;
  FreeBlock* second = nullptr;
  std::size_t count = 0;
  std::byte* fresh = nullptr;      // the next block never handed out, in the newest chunk
  std::byte* fresh_end = nullptr;  // the end of that chunk
};

// A thread keeps up to kMaxCachedBlocks free blocks of a size; past that
// it gives kBatch of them to a list that all threads share, and a thread
// whose own list is empty takes kBatch from there before it cuts a new
// chunk. Without it a block made on one thread and always freed on another
// (the frame of a coroutine given to run_coroutine_threadsafe()) would pile
// up on the second while the first cut chunk after chunk.
constexpr std::size_t kMaxCachedBlocks = std::size_t{1} << 20;
constexpr std::size_t kBatch = 64;

constexpr std::size_t kClasses = BlockPool::kMaxBlockSize / BlockPool::kGranule;

std::size_t rounded(std::size_t size) {
  return (size + BlockPool::kGranule - 1) / BlockPool::kGranule * BlockPool::kGranule;
}
std::size_t class_of(std::size_t size) { return (size - 1) / BlockPool::kGranule; }

// One thread's free lists. A block may be freed on another thread than the
// one that cut it, into that thread's lists, so no chunk can ever be given
// back while the program runs: a thread that ends hands its shelf, lists and
// all, to the next thread that needs one (Shelves, below).
class Shelf {
 public:
  void* allocate(std::size_t size);
  void deallocate(void* block, std::size_t size) noexcept;
  std::size_t cached(std::size_t size) noexcept { return lists_[class_of(size)].count; }
  /// Gives every cached block back to operator delete (!kKeepsBlocks only).
  void release_all() noexcept {
    for (FreeList& list : lists_) {
      while (list.top != nullptr) ::operator delete(take(list));
    }
  }

  Shelf* next_spare = nullptr;  // in Shelves' list of spare shelves

 private:
  friend class Shelves;
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

// What outlives every thread: the chunks, the blocks the threads share, and
// the shelves of the threads that ended. Made once and never destroyed, so
// that a thread (or a static object's destructor) that runs after main()
// returns still finds it, and all its memory stays reachable: no leak is
// reported. Linked lists, so that giving back never allocates.
class Shelves {
 public:
  std::byte* new_chunk() {
    auto* chunk = static_cast<std::byte*>(::operator new(kChunkSize));
    std::lock_guard lock(mutex_);
    chunks_ = ::new (chunk) FreeBlock{chunks_};  // in the chunk's header
    return chunk;
  }
  // Moves kBatch blocks from `list` to the shared list of its size.
  void give(FreeList& list, std::size_t size) noexcept {
    if constexpr (!BlockPool::kKeepsBlocks) {
      for (std::size_t i = 0; i < kBatch && list.top != nullptr; ++i)
        ::operator delete(Shelf::take(list));
      return;
    }
    std::lock_guard lock(mutex_);
    FreeBlock*& shared = shared_[class_of(size)];
    for (std::size_t i = 0; i < kBatch && list.top != nullptr; ++i) {
      void* block = Shelf::take(list);
      shared = ::new (block) FreeBlock{shared};
      ASAN_POISON_MEMORY_REGION(block, rounded(size));
    }
  }
  // Moves up to kBatch shared blocks of this size to `list`.
  void take_shared(FreeList& list, std::size_t size) noexcept {
    std::lock_guard lock(mutex_);
    FreeBlock*& shared = shared_[class_of(size)];
    for (std::size_t i = 0; i < kBatch && shared != nullptr; ++i) {
      FreeBlock* block = shared;
      ASAN_UNPOISON_MEMORY_REGION(block, sizeof(FreeBlock));
      shared = block->two_below;
      Shelf::put(list, block, size);
    }
  }
  Shelf* adopt() {
    {
      std::lock_guard lock(mutex_);
      if (spare_ != nullptr) return std::exchange(spare_, spare_->next_spare);
    }
    return new Shelf;
  }
  void retire(Shelf* shelf) noexcept {
    std::lock_guard lock(mutex_);
    shelf->next_spare = std::exchange(spare_, shelf);
  }

 private:
  std::mutex mutex_;
  FreeBlock* chunks_ = nullptr;  // every chunk ever cut (in release builds), for the program's life
  std::array<FreeBlock*, kClasses> shared_{};  // the blocks the threads gave, per size
  Shelf* spare_ = nullptr;                     // shelves of threads that ended, for the next ones
};

Shelves& shelves() {
  static auto* all = new Shelves;
  return *all;
}

// The chunk's first granule holds the link to the other chunks.
constexpr std::size_t kChunkHeader = BlockPool::kGranule;

bool chunk_has_room(const FreeList& list, std::size_t size) {
  return static_cast<std::size_t>(list.fresh_end - list.fresh) >= rounded(size);
}

// A new block: one that another thread gave, if the chunk is used up (one
// lock a batch), else the next one the chunk holds.
void* Shelf::cut(FreeList& list, std::size_t size) {
  if constexpr (!BlockPool::kKeepsBlocks) return ::operator new(rounded(size));
  if (!chunk_has_room(list, size)) {
    shelves().take_shared(list, size);
    if (list.top != nullptr) return take(list);
    std::byte* chunk = shelves().new_chunk();
    list.fresh = chunk + kChunkHeader;
    list.fresh_end = chunk + kChunkSize;
  }
  return std::exchange(list.fresh, list.fresh + rounded(size));
}

inline void* Shelf::allocate(std::size_t size) {
  FreeList& list = lists_[class_of(size)];
  void* block = list.top != nullptr ? take(list) : cut(list, size);
  // Only the object's own bytes are usable (take() opened the link's).
  ASAN_POISON_MEMORY_REGION(block, rounded(size));
  ASAN_UNPOISON_MEMORY_REGION(block, size);
  return block;
}

inline void Shelf::deallocate(void* block, std::size_t size) noexcept {
  FreeList& list = lists_[class_of(size)];
  put(list, block, size);
  if (list.count > kMaxCachedBlocks) shelves().give(list, size);
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
    if constexpr (!BlockPool::kKeepsBlocks) shelf_->release_all();
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
    if constexpr (!BlockPool::kKeepsBlocks) return ::operator new(size);
    std::lock_guard lock(late_shelf().mutex);
    return late_shelf().shelf.allocate(size);
  }
  return first_shelf().allocate(size);
}

void BlockPool::deallocate(void* block, std::size_t size) noexcept {
  if (!pooled(size)) return ::operator delete(block);
  if (current != nullptr) return current->deallocate(block, size);
  if (ended) {
    if constexpr (!BlockPool::kKeepsBlocks) return ::operator delete(block);
    std::lock_guard lock(late_shelf().mutex);
    return late_shelf().shelf.deallocate(block, size);
  }
  first_shelf().deallocate(block, size);
}

std::size_t BlockPool::cached(std::size_t size) noexcept {
  return pooled(size) && current != nullptr ? current->cached(size) : 0;
}

}  // namespace looplab
