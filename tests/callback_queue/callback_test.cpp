// Callback: the small-buffer, move-only callable behind every Handle.
#include "looplab/plumbing/callback.hpp"

#include <gtest/gtest.h>

#include <array>
#include <memory>
#include <string>

namespace looplab {
namespace {

struct Tracker {
  int* destroyed;
  explicit Tracker(int* counter) : destroyed(counter) {}
  Tracker(Tracker&& other) noexcept : destroyed(std::exchange(other.destroyed, nullptr)) {}
  ~Tracker() {
    if (destroyed != nullptr) ++*destroyed;
  }
};

TEST(Callback, CallsTheStoredCallable) {
  int calls = 0;
  Callback callback([&calls] { ++calls; });
  callback();
  callback();
  EXPECT_EQ(calls, 2);
}

TEST(Callback, IsEmptyByDefaultAndAfterReset) {
  Callback callback;
  EXPECT_FALSE(callback);
  callback = Callback([] {});
  EXPECT_TRUE(callback);
  callback.reset();
  EXPECT_FALSE(callback);
}

TEST(Callback, MovingTransfersTheCallableAndEmptiesTheSource) {
  std::string seen;
  Callback first([&seen, text = std::string("moved")] { seen = text; });
  Callback second(std::move(first));
  EXPECT_FALSE(first);  // NOLINT(bugprone-use-after-move): that is the point
  second();
  EXPECT_EQ(seen, "moved");
}

TEST(Callback, DestroysInlineCapturesExactlyOnce) {
  int destroyed = 0;
  {
    Callback callback([tracker = Tracker(&destroyed)] {});
    Callback moved(std::move(callback));
    Callback assigned;
    assigned = std::move(moved);
  }
  EXPECT_EQ(destroyed, 1);
}

TEST(Callback, DestroysHeapCapturesExactlyOnce) {
  int destroyed = 0;
  {
    std::array<char, 100> padding{};
    Callback callback([tracker = Tracker(&destroyed), padding] { (void)padding; });
    Callback moved(std::move(callback));
    moved();
  }
  EXPECT_EQ(destroyed, 1);
}

TEST(Callback, AssigningOverAFullCallbackDestroysTheOldCallable) {
  auto first = std::make_shared<int>(1);
  std::weak_ptr<int> watch = first;
  Callback callback([first = std::move(first)] {});
  callback = Callback([] {});
  EXPECT_TRUE(watch.expired());
}

TEST(Callback, OnlySmallNothrowMovableCallablesAreInline) {
  auto small = [p = static_cast<void*>(nullptr)] { (void)p; };
  std::array<char, Callback::kInlineSize + 1> big{};
  auto large = [big] { (void)big; };
  EXPECT_TRUE(Callback::fits_inline<decltype(small)>());
  EXPECT_FALSE(Callback::fits_inline<decltype(large)>());
}

}  // namespace
}  // namespace looplab
