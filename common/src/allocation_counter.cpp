#include "looplab/testing/allocation_counter.hpp"

#include <cstdlib>
#include <new>

namespace {
thread_local std::size_t allocations = 0;

void* counted_allocation(std::size_t size) {
  ++allocations;
  if (size == 0) size = 1;
  if (void* block = std::malloc(size)) return block;
  throw std::bad_alloc();
}
}  // namespace

// The replaceable global allocation functions ([new.delete]). The array
// forms forward to these by default. The nothrow forms are replaced too:
// under ASan they would otherwise stay the sanitizer's own, and a block
// from its nothrow new (std::stable_sort's buffer) freed by this delete is
// an alloc-dealloc mismatch.
void* operator new(std::size_t size) { return counted_allocation(size); }
void* operator new(std::size_t size, const std::nothrow_t& /*tag*/) noexcept {
  try {
    return counted_allocation(size);
  } catch (const std::bad_alloc&) {
    return nullptr;
  }
}
void operator delete(void* block) noexcept { std::free(block); }
void operator delete(void* block, std::size_t /*size*/) noexcept { std::free(block); }
void operator delete(void* block, const std::nothrow_t& /*tag*/) noexcept { std::free(block); }

namespace looplab::testing {

AllocationCounter::AllocationCounter() : start_(allocations) {}
std::size_t AllocationCounter::count() const { return allocations - start_; }

}  // namespace looplab::testing
