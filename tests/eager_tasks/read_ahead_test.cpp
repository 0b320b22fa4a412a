// Reading the ready queue ahead (stage 07 on): run_ready() prefetches the
// handle a few places on (plumbing/prefetch.hpp) through RingBuffer's
// operator[], which must count from the oldest element across the wrap; and
// a long queue must still run in order, skipping what a callback cancelled
// ahead of itself.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "eager_tasks/support.hpp"
#include "looplab/plumbing/prefetch.hpp"
#include "looplab/plumbing/ring_buffer.hpp"

namespace looplab {
namespace {

using testing::TestLoop;

TEST(ReadAhead, RingIndexCountsFromTheOldestAcrossTheWrap) {
  RingBuffer<int> ring;
  for (int i = 0; i < 16; ++i) ring.push_back(i);   // the first growth: 16 slots, full
  for (int i = 0; i < 10; ++i) ring.pop_front();    // the oldest is now in slot 10
  for (int i = 16; i < 24; ++i) ring.push_back(i);  // slots 0 to 7: wrapped
  ASSERT_EQ(ring.size(), 14U);
  for (std::size_t k = 0; k < ring.size(); ++k) EXPECT_EQ(ring[k], 10 + static_cast<int>(k));
}

TEST(ReadAhead, PrefetchChangesNothing) {
  std::vector<int> values{1, 2, 3};
  prefetch(&values);
  prefetch(values.data());
  EXPECT_EQ(values, (std::vector<int>{1, 2, 3}));
}

TEST(ReadAhead, ALongQueueRunsInOrderAndSkipsWhatWasCancelledAhead) {
  TestLoop t;
  std::vector<int> ran;
  std::vector<Handle> handles;
  for (int i = 0; i < 40; ++i) {
    handles.push_back(t.loop.call_soon([&ran, &handles, i] {
      ran.push_back(i);
      // The first one cancels handles the loop has already read ahead to.
      if (i == 0) {
        handles[3].cancel();
        handles[9].cancel();
        handles[39].cancel();
      }
    }));
  }
  t.turn();
  std::vector<int> expected;
  for (int i = 0; i < 40; ++i) {
    if (i != 3 && i != 9 && i != 39) expected.push_back(i);
  }
  EXPECT_EQ(ran, expected);
}

}  // namespace
}  // namespace looplab
