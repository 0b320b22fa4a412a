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

// The replaceable global allocation functions ([new.delete]). Every other
// form (nothrow, array, sized delete) forwards to these by default.
void* operator new(std::size_t size) { return counted_allocation(size); }
void operator delete(void* block) noexcept { std::free(block); }
void operator delete(void* block, std::size_t /*size*/) noexcept { std::free(block); }

namespace looplab::testing {

AllocationCounter::AllocationCounter() : start_(allocations) {}
std::size_t AllocationCounter::count() const { return allocations - start_; }

}  // namespace looplab::testing
