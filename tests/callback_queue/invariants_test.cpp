// check_invariant(): in a Debug build a broken precondition stops the
// program with the rule it broke, instead of reading freed or foreign memory.
#include <gtest/gtest.h>

#include "looplab/plumbing/callback.hpp"
#include "looplab/plumbing/check.hpp"
#include "looplab/plumbing/ref.hpp"
#include "looplab/plumbing/ring_buffer.hpp"

namespace looplab {
namespace {

struct Counted : RefCounted {};

class Invariants : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!kCheckInvariants) GTEST_SKIP() << "invariants are checked in Debug builds only (NDEBUG)";
    ::testing::GTEST_FLAG(death_test_style) = "threadsafe";
  }
};

TEST_F(Invariants, PoppingAnEmptyRingBufferStops) {
  RingBuffer<int> ring;
  EXPECT_DEATH(ring.pop_front(),
               "invariant broken: RingBuffer::pop_front\\(\\) on an empty buffer");
}

TEST_F(Invariants, CallingAnEmptyCallbackStops) {
  Callback empty;
  EXPECT_DEATH(empty(), "invariant broken: an empty Callback was called");
}

TEST_F(Invariants, DereferencingANullRefStops) {
  Ref<Counted> none;
  EXPECT_DEATH((void)*none, "invariant broken: a null Ref was dereferenced");
}

TEST_F(Invariants, CorrectUseGoesThroughUntouched) {
  RingBuffer<int> ring;
  ring.push_back(1);
  ring.push_back(2);
  EXPECT_EQ(ring.pop_front(), 1);
  EXPECT_EQ(ring.pop_front(), 2);
  EXPECT_TRUE(ring.empty());
}

}  // namespace
}  // namespace looplab
