#include "looplab/plumbing/handoff_pool.hpp"

#include <sanitizer/asan_interface.h>  // no-ops unless built with AddressSanitizer

#include <mutex>
#include <new>
#include <vector>

namespace looplab {
namespace {

class SharedList {
 public:
  /// Moves up to kBatch blocks from `from` to the shared list (the rest of
  /// a batch that would pass kMaxShared goes back to malloc).
  void give(std::vector<void*>& from) {
    std::lock_guard lock(mutex_);
    for (std::size_t i = 0; i < HandoffPool::kBatch && !from.empty(); ++i) {
      void* block = from.back();
      from.pop_back();
      if (blocks_.size() < HandoffPool::kMaxShared) {
        blocks_.push_back(block);
      } else {
        ::operator delete(block);
      }
    }
  }
  /// Moves up to kBatch blocks from the shared list to `to`.
  void take(std::vector<void*>& to) {
    std::lock_guard lock(mutex_);
    for (std::size_t i = 0; i < HandoffPool::kBatch && !blocks_.empty(); ++i) {
      to.push_back(blocks_.back());
      blocks_.pop_back();
    }
  }
  std::size_t size() {
    std::lock_guard lock(mutex_);
    return blocks_.size();
  }

 private:
  std::mutex mutex_;
  std::vector<void*> blocks_;  // guarded by mutex_
};

// Never destroyed: a thread that exits after main() returns still gives its
// blocks back here. Its blocks stay reachable, so no leak is reported.
SharedList& shared_list() {
  static SharedList* list = new SharedList;
  return *list;
}

// The blocks to hand out were last written on another thread (the loop freed
// them), so their lines sit in that CPU's cache, and fetching one takes
// longer than a post. Asking for a block's lines four allocations before it
// is handed out lets the transfers overlap the posts in between: one ahead
// hid about half of the wait in threadsafe_flood, four nearly all of it
// (sixteen evicted blocks before their turn came).
constexpr std::size_t kPrefetchAhead = 4;

void prefetch_for_write(void* block) {
  for (std::size_t offset = 0; offset < HandoffPool::kBlockSize; offset += 64) {
    __builtin_prefetch(static_cast<char*>(block) + offset, 1);
  }
}

class ThreadList {
 public:
  ThreadList() { blocks_.reserve(2 * HandoffPool::kBatch); }
  ThreadList(const ThreadList&) = delete;
  ThreadList& operator=(const ThreadList&) = delete;
  ~ThreadList() {
    destroyed = true;
    while (!blocks_.empty()) shared_list().give(blocks_);
  }

  void* take() {
    if (blocks_.empty()) shared_list().take(blocks_);
    if (blocks_.empty()) return nullptr;
    void* block = blocks_.back();
    blocks_.pop_back();
    if (blocks_.size() >= kPrefetchAhead)
      prefetch_for_write(blocks_[blocks_.size() - kPrefetchAhead]);
    ASAN_UNPOISON_MEMORY_REGION(block, HandoffPool::kBlockSize);
    return block;
  }
  void put(void* block) {
    // Poisoned while free, so that a use after free reads as one.
    ASAN_POISON_MEMORY_REGION(block, HandoffPool::kBlockSize);
    blocks_.push_back(block);
    if (blocks_.size() >= 2 * HandoffPool::kBatch) shared_list().give(blocks_);
  }
  std::size_t size() const noexcept { return blocks_.size(); }

  // Set once this thread's list is gone: a block freed later, by a static
  // object's destructor at exit, goes straight back to operator delete.
  static thread_local bool destroyed;

 private:
  std::vector<void*> blocks_;
};

thread_local bool ThreadList::destroyed = false;

ThreadList& this_thread_list() {
  thread_local ThreadList list;
  return list;
}

}  // namespace

void* HandoffPool::allocate(std::size_t size) {
  if (size > kBlockSize || ThreadList::destroyed) return ::operator new(size);
  void* block = this_thread_list().take();
  return block != nullptr ? block : ::operator new(kBlockSize);
}

void HandoffPool::deallocate(void* block, std::size_t size) noexcept {
  if (size > kBlockSize || ThreadList::destroyed) {
    ::operator delete(block);
    return;
  }
  this_thread_list().put(block);
}

std::size_t HandoffPool::shared_blocks() noexcept { return shared_list().size(); }

std::size_t HandoffPool::this_thread_blocks() noexcept {
  return ThreadList::destroyed ? 0 : this_thread_list().size();
}

}  // namespace looplab
