// call_soon() does not touch the heap for small callables once the loop is warm.
#include <gtest/gtest.h>

#include <array>

#include "looplab/event_loop.hpp"
#include "looplab/testing/allocation_counter.hpp"
#include "support/run_one_turn.hpp"

namespace looplab {
namespace {

using looplab::testing::AllocationCounter;

TEST(Allocation, CallSoonWithASmallCaptureAllocatesNothingOnceWarm) {
  EventLoop loop;
  std::array<long, 3> payload{1, 2, 3};  // 24 bytes of capture, plus a pointer
  long sum = 0;
  auto callback = [&sum, payload] { sum += payload[2]; };
  static_assert(Callback::fits_inline<decltype(callback)>());

  // Warm up: the ready queue and the handle pool grow to their working size.
  for (int i = 0; i < 1000; ++i) loop.call_soon(callback);
  testing::run_one_turn(loop);

  AllocationCounter counter;
  for (int i = 0; i < 1000; ++i) loop.call_soon(callback);
  testing::run_one_turn(loop);
  EXPECT_EQ(counter.count(), 0u);
  EXPECT_EQ(sum, 2 * 1000 * 3);
}

TEST(Allocation, TheCounterSeesAHeapAllocation) {
  // The guard above means something only if the counter can see allocations.
  EventLoop loop;
  std::array<long, 16> big{};  // 128 bytes: too big for the inline buffer
  auto callback = [big] { (void)big; };
  static_assert(!Callback::fits_inline<decltype(callback)>());
  loop.call_soon(callback);
  testing::run_one_turn(loop);

  AllocationCounter counter;
  loop.call_soon(callback);
  EXPECT_EQ(counter.count(), 1u);
  testing::run_one_turn(loop);
}

}  // namespace
}  // namespace looplab
