// allocation_counter.hpp: counts heap allocations made by this thread.
//
// The test binaries replace the global operator new with one that counts
// (src/allocation_counter.cpp), so a test can assert that a hot path such as
// call_soon() allocates nothing:
//
//   AllocationCounter counter;
//   loop.call_soon(noop);
//   EXPECT_EQ(counter.count(), 0);
#pragma once

#include <cstddef>

namespace looplab::testing {

class AllocationCounter {
 public:
  AllocationCounter();
  ~AllocationCounter() = default;
  AllocationCounter(const AllocationCounter&) = delete;
  AllocationCounter& operator=(const AllocationCounter&) = delete;

  /// operator new calls on this thread since this counter was created.
  std::size_t count() const;

 private:
  std::size_t start_;
};

}  // namespace looplab::testing
