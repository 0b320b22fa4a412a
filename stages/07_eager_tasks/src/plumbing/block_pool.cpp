#include "looplab/plumbing/block_pool.hpp"

#include <sanitizer/asan_interface.h>  // no-ops unless built with AddressSanitizer

#include <algorithm>
#include <array>
#include <atomic>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <mutex>
#include <new>
#include <type_traits>
#include <utility>

namespace looplab {
namespace {

constexpr std::size_t kGranule = BlockPool::kGranule;
constexpr std::size_t kClasses = BlockPool::kClasses;
constexpr std::size_t kRecent = BlockPool::kRecent;
static_assert(__STDCPP_DEFAULT_NEW_ALIGNMENT__ >= kGranule);

std::size_t rounded(std::size_t size) { return (size + kGranule - 1) / kGranule * kGranule; }
std::size_t class_of(std::size_t size) { return (size - 1) / kGranule; }

// A free block's first bytes: the link to the next one, in a stack.
struct FreeBlock {
  FreeBlock* next;
};

// ---- the pool of release builds: chunks, each with a map of its free blocks

// Blocks are cut from chunks of kChunkSize bytes, aligned to their size, one
// block size to a chunk: a block's chunk is its address with the low bits
// cleared. The chunk's header holds a map with one bit per granule, set where
// a free block starts, and a thread hands out the lowest free block of the
// chunk it is working through. So a program that makes thousands of objects
// one after another (a lazy task tree's tasks, frames and handles) gets them
// side by side, in rising addresses, which the CPU reads ahead of the loop on
// its own, whatever order the previous ones were freed in.
//
// The last blocks freed of a size, up to kRecent, wait in a small stack,
// and are handed out first, last freed first: they are still in the cache
// (a task that yields gets back the handle it just freed). Past those, the
// map. The stacks are the thread's, and BlockPool's inline functions (the
// header) work them without a call; what they cannot do comes here.
//
// A stack of all the free blocks, last freed on top, goes wrong once blocks
// are freed in another order than they were made (the leaves of a tree that
// sleep and those that do not): the next tree's objects lie scattered over
// megabytes of cold memory, one cache miss each. async_tree_memoization
// grew from 570 to 840 ns per task over six trees on one loop; with the
// free lists sorted by address before each tree, it stayed at 400; with the
// map, it stays between 430 and 480.
constexpr std::size_t kChunkSize = BlockPool::kChunkSize;
constexpr std::size_t kGranules = kChunkSize / kGranule;  // 4,096 bits in the map
constexpr std::size_t kWords = kGranules / 64;

class ChunkShelf;

// Chunks are cut in turn from slabs of 2 MiB that all threads share, so
// they lie side by side too (one operator new each, aligned to 64 KiB,
// would leave a gap before each one that malloc hands to others).
constexpr std::size_t kSlabSize = std::size_t{2} << 20;

void* cut_chunk() {
  struct Slab {  // made once and never destroyed, for threads that run after main()
    std::mutex mutex;
    std::byte* next = nullptr;
    std::byte* end = nullptr;
  };
  static auto* slab = new Slab;
  std::lock_guard lock(slab->mutex);
  if (slab->next == slab->end) {
    slab->next = static_cast<std::byte*>(::operator new (kSlabSize, std::align_val_t{kChunkSize}));
    slab->end = slab->next + kSlabSize;
  }
  return std::exchange(slab->next, slab->next + kChunkSize);
}

// The header opens the chunk. Every chunk's header thus falls in the same
// few cache sets; moving each one in by up to 15 cache lines, chosen by the
// chunk's address, measured a few percent slower on the trees here, not faster.
struct Chunk {
  // The one shelf that hands its blocks out; first, as BlockPool::is_own() reads it.
  ChunkShelf* owner;
  std::array<std::uint64_t, kWords> free;  // bit g: a free block starts at granule g
  std::size_t size_class;
  Chunk* next_queued = nullptr;  // in its list's queue of chunks with freed blocks
  bool queued = false;

  static Chunk* of(void* block) {
    std::size_t offset = reinterpret_cast<std::uintptr_t>(block) & (kChunkSize - 1);
    return reinterpret_cast<Chunk*>(static_cast<std::byte*>(block) - offset);
  }
  std::byte* start() { return reinterpret_cast<std::byte*>(this); }
};
static_assert(offsetof(Chunk, owner) == 0,
              "BlockPool::is_own() reads the owner at a chunk's start");
constexpr std::size_t kHeaderGranules = (sizeof(Chunk) + kGranule - 1) / kGranule;

// One block size's state on a shelf. `chunk` is the chunk being handed out:
// `bits` holds the free blocks of its word `word`, taken out of its map. A
// block of that chunk freed below `word` moves the sweep back to it, so
// the chunk hands out its lowest free block first. The chunks that had
// blocks freed while another was being handed out wait in a queue, oldest
// first, to be swept from their start.
struct FreeList {
  Chunk* chunk = nullptr;
  std::size_t word = kWords;
  std::uint64_t bits = 0;
  Chunk* first_queued = nullptr;
  Chunk* last_queued = nullptr;

  std::byte* block_at(int bit) const {
    return chunk->start() + (word * 64 + static_cast<std::size_t>(bit)) * kGranule;
  }
};

// One thread's lists. Its chunks' maps are touched by that thread only,
// with no atomic operation: a block freed on another thread travels back
// through `remote_`, a stack that any thread pushes on and the owner empties
// when it runs out of free blocks, before it cuts a new chunk. So a block
// made on one thread and freed on another (the frame of a coroutine given to
// run_coroutine_threadsafe()) never piles up on the second.
//
// A chunk is never given back: a thread that ends hands its shelf, chunks
// and all, to the next thread that needs one (Shelves, below).
class ChunkShelf {
 public:
  // What BlockPool::allocate() does, recent blocks first, then the map.
  void* allocate(std::size_t size) {
    BlockPool::RecentBlocks& recent = recent_[class_of(size)];
    if (recent.count != 0) return recent.blocks[--recent.count];
    FreeList& list = lists_[class_of(size)];
    if (list.bits == 0) [[unlikely]]
      refill(list, size);
    int bit = std::countr_zero(list.bits);
    list.bits &= list.bits - 1;
    return list.block_at(bit);
  }

  // What BlockPool::deallocate() does: onto the recent stack, which, full,
  // first gives its older half back, oldest first.
  void deallocate(void* block, std::size_t size) noexcept {
    ChunkShelf* owner = Chunk::of(block)->owner;
    if (owner != this) return owner->free_from_elsewhere(block);
    BlockPool::RecentBlocks& recent = recent_[class_of(size)];
    if (recent.count == kRecent) {
      constexpr std::size_t kHalf = kRecent / 2;
      FreeList& list = lists_[class_of(size)];
      for (std::size_t i = 0; i < kHalf; ++i) free_here(list, Place(recent.blocks[i]));
      std::copy(recent.blocks.begin() + kHalf, recent.blocks.end(), recent.blocks.begin());
      recent.count = kRecent - kHalf;
    }
    recent.blocks[recent.count++] = block;
  }

  BlockPool::RecentBlocks* recent() noexcept { return recent_.data(); }

  // From any thread, even one that has no shelf (or has ended).
  void free_from_elsewhere(void* block) noexcept {
    auto* freed = ::new (block) FreeBlock{remote_.load(std::memory_order_relaxed)};
    while (!remote_.compare_exchange_weak(freed->next, freed, std::memory_order_release,
                                          std::memory_order_relaxed)) {
    }
  }

  /// Nothing goes back at a thread's end: the next thread takes the shelf over.
  static void release_all() noexcept {}

  ChunkShelf* next_spare = nullptr;  // in Shelves' list of spare shelves

 private:
  // Where a block lies: its chunk, and its bit in the chunk's map.
  struct Place {
    explicit Place(void* block) : chunk(Chunk::of(block)) {
      auto granule =
          static_cast<std::size_t>(static_cast<std::byte*>(block) - chunk->start()) / kGranule;
      word = granule / 64;
      bit = std::uint64_t{1} << (granule % 64);
    }
    Chunk* chunk;
    std::size_t word;
    std::uint64_t bit;
  };

  void free_here(FreeList& list, const Place& place) noexcept {
    Chunk* chunk = place.chunk;
    if (chunk == list.chunk && place.word <= list.word) {
      if (place.word < list.word) {  // below the sweep: move it back
        if (list.bits != 0) chunk->free[list.word] |= list.bits;
        list.word = place.word;
        list.bits = std::exchange(chunk->free[place.word], 0);
      }
      list.bits |= place.bit;
      return;
    }
    chunk->free[place.word] |= place.bit;
    if (chunk != list.chunk && !chunk->queued) {
      chunk->queued = true;
      chunk->next_queued = nullptr;
      (list.first_queued == nullptr ? list.first_queued : list.last_queued->next_queued) = chunk;
      list.last_queued = chunk;
    }
  }

  // Finds the next free block: further on in the chunk, or in the oldest
  // queued chunk, or among the blocks freed elsewhere, or in a new chunk.
  [[gnu::noinline]] void refill(FreeList& list, std::size_t size) {
    while (!next_word(list)) {
      if (list.first_queued == nullptr) {
        take_back_freed_elsewhere();
        if (list.bits != 0) return;  // some were this chunk's
      }
      Chunk* next = list.first_queued;
      if (next == nullptr) {
        next = new_chunk(size);
      } else {
        list.first_queued = next->next_queued;
        next->queued = false;
      }
      list.chunk = next;
      list.word = 0;
      list.bits = std::exchange(next->free[0], 0);
      if (list.bits != 0) return;
    }
  }

  // Moves the sweep on to the chunk's next word that holds free blocks.
  static bool next_word(FreeList& list) {
    if (list.chunk == nullptr) return false;
    for (std::size_t word = list.word + 1; word < kWords; ++word) {
      if (list.chunk->free[word] != 0) {
        list.word = word;
        list.bits = std::exchange(list.chunk->free[word], 0);
        return true;
      }
    }
    list.word = kWords;
    return false;
  }

  void take_back_freed_elsewhere() noexcept {
    FreeBlock* block = remote_.exchange(nullptr, std::memory_order_acquire);
    while (block != nullptr) {
      FreeBlock* next = block->next;
      Place place(block);
      free_here(lists_[place.chunk->size_class], place);
      block = next;
    }
  }

  // A new chunk: every block it holds is free.
  Chunk* new_chunk(std::size_t size) {
    auto* chunk = ::new (cut_chunk()) Chunk{this, {}, class_of(size)};
    std::size_t step = rounded(size) / kGranule;
    for (std::size_t granule = kHeaderGranules; granule + step <= kGranules; granule += step)
      chunk->free[granule / 64] |= std::uint64_t{1} << (granule % 64);
    return chunk;
  }

  std::array<BlockPool::RecentBlocks, kClasses> recent_{};
  std::array<FreeList, kClasses> lists_{};
  std::atomic<FreeBlock*> remote_{nullptr};  // blocks of this shelf freed on other threads
};

// ---- the pool of AddressSanitizer builds: a stack per size, of blocks from operator new

// LeakSanitizer does not look inside a block that the pool keeps, so a task
// leaked from a chunk would go unseen: under AddressSanitizer, each block is
// an operator new of its own, and a free one waits in a stack, poisoned
// (link included: a use after free reads as one, not as a bad vtable
// pointer, as the link sits where an object's vtable pointer was). A thread
// keeps up to 2^20 free blocks of a size and gives the rest back to operator
// delete; so does a block freed after its thread's end.
class StackShelf {
 public:
  void* allocate(std::size_t size) {
    Stack& stack = stacks_[class_of(size)];
    void* block = nullptr;
    if (stack.top == nullptr) {
      block = ::operator new(rounded(size));
    } else {
      ASAN_UNPOISON_MEMORY_REGION(stack.top, sizeof(FreeBlock));
      --stack.count;
      block = std::exchange(stack.top, stack.top->next);
    }
    ASAN_POISON_MEMORY_REGION(block, rounded(size));
    ASAN_UNPOISON_MEMORY_REGION(block, size);  // only the object's own bytes are usable
    return block;
  }
  void deallocate(void* block, std::size_t size) noexcept {
    Stack& stack = stacks_[class_of(size)];
    if (stack.count == kMaxCachedBlocks) return ::operator delete(block);
    stack.top = ::new (block) FreeBlock{stack.top};
    ++stack.count;
    ASAN_POISON_MEMORY_REGION(block, rounded(size));
  }
  /// Gives every block back to operator delete, at the thread's end.
  void release_all() noexcept {
    for (Stack& stack : stacks_) {
      while (stack.top != nullptr) {
        ASAN_UNPOISON_MEMORY_REGION(stack.top, sizeof(FreeBlock));
        ::operator delete(std::exchange(stack.top, stack.top->next));
      }
      stack.count = 0;
    }
  }

  /// None: every block goes through allocate() and deallocate(), poisoned.
  static BlockPool::RecentBlocks* recent() noexcept { return nullptr; }

  StackShelf* next_spare = nullptr;

 private:
  static constexpr std::size_t kMaxCachedBlocks = std::size_t{1} << 20;
  struct Stack {
    FreeBlock* top = nullptr;
    std::size_t count = 0;
  };
  std::array<Stack, kClasses> stacks_{};
};

using Shelf = std::conditional_t<BlockPool::kKeepsBlocks, ChunkShelf, StackShelf>;

// ---- shelves and threads

// The shelves of the threads that ended, for the next ones. Made once and
// never destroyed, so that a thread (or a static object's destructor) that
// runs after main() returns still finds it.
class Shelves {
 public:
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
  Shelf* spare_ = nullptr;
};

Shelves& shelves() {
  static auto* all = new Shelves;
  return *all;
}

// This thread's shelf is BlockPool::shelf_, from the thread's first
// allocation until the thread ends and hands it on (a plain pointer, read
// on every allocation without the guard a thread_local object needs).
// Set once the shelf is handed on: a block made later, by a static object's
// destructor at exit, comes from the late comers' shelf instead.
thread_local bool ended = false;

}  // namespace

// Named in the header, so that it may set BlockPool's shelf_ and recent_.
class detail::ThreadShelf {
 public:
  ThreadShelf() : shelf_(shelves().adopt()) {
    BlockPool::shelf_ = shelf_;
    BlockPool::recent_ = shelf_->recent();
  }
  ThreadShelf(const ThreadShelf&) = delete;
  ThreadShelf& operator=(const ThreadShelf&) = delete;
  ~ThreadShelf() {
    BlockPool::recent_ = nullptr;
    BlockPool::shelf_ = nullptr;
    ended = true;
    shelf_->release_all();
    shelves().retire(shelf_);
  }

  Shelf& shelf() noexcept { return *shelf_; }

 private:
  Shelf* shelf_;
};

namespace {

Shelf& first_shelf() {
  thread_local detail::ThreadShelf shelf;
  return shelf.shelf();
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

void* BlockPool::allocate_from_chunks(std::size_t size) {
  if (!pooled(size)) return ::operator new(size);
  if (shelf_ != nullptr) return static_cast<Shelf*>(shelf_)->allocate(size);
  if (ended) {
    if constexpr (!BlockPool::kKeepsBlocks) return ::operator new(rounded(size));
    std::lock_guard lock(late_shelf().mutex);
    return late_shelf().shelf.allocate(size);
  }
  return first_shelf().allocate(size);
}

void BlockPool::deallocate_to_chunks(void* block, std::size_t size) noexcept {
  if (!pooled(size)) return ::operator delete(block);
  if (shelf_ != nullptr) return static_cast<Shelf*>(shelf_)->deallocate(block, size);
  if constexpr (BlockPool::kKeepsBlocks) {
    Chunk::of(block)->owner->free_from_elsewhere(block);  // not this thread's: it has no shelf
  } else if (ended) {
    ::operator delete(block);
  } else {
    first_shelf().deallocate(block, size);
  }
}

}  // namespace looplab
