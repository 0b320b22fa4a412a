// call_soon_threadsafe(): any thread hands the loop a callback; it runs on
// the loop's thread, in a later turn, in FIFO order per posting thread,
// exactly once, and a loop asleep in its selector wakes for it.
#include <gtest/gtest.h>

#include <atomic>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "looplab/context.hpp"
#include "looplab/event_loop.hpp"
#include "support/run_one_turn.hpp"
#include "support/test_loop.hpp"

namespace looplab {
namespace {

TEST(CallSoonThreadsafe, WakesALoopAsleepWithNothingElseToDo) {
  EventLoop loop;  // the real clock: only the other thread can wake it
  std::thread::id ran_on;
  std::thread poster;
  loop.call_soon([&] {
    poster = std::thread([&] {
      loop.call_soon_threadsafe([&] {
        ran_on = std::this_thread::get_id();
        loop.stop();
      });
    });
  });
  loop.run_forever();  // would sleep forever if the post did not wake it
  poster.join();
  EXPECT_EQ(ran_on, std::this_thread::get_id());
}

constexpr int kThreads = 4;
constexpr int kPerThread = 10'000;

TEST(CallSoonThreadsafe, EachThreadsCallbacksRunOnceInTheOrderItPostedThem) {
  EventLoop loop;
  std::vector<std::vector<int>> seen(kThreads);
  int total = 0;
  std::vector<std::thread> posters;
  loop.call_soon([&] {
    for (int t = 0; t < kThreads; ++t) {
      posters.emplace_back([&loop, &seen, &total, t] {
        for (int i = 0; i < kPerThread; ++i) {
          loop.call_soon_threadsafe([&loop, &seen, &total, t, i] {
            seen[static_cast<std::size_t>(t)].push_back(i);  // the loop's thread only
            if (++total == kThreads * kPerThread) loop.stop();
          });
        }
      });
    }
  });
  loop.run_forever();
  for (std::thread& poster : posters) poster.join();
  for (int t = 0; t < kThreads; ++t) {
    const std::vector<int>& got = seen[static_cast<std::size_t>(t)];
    ASSERT_EQ(got.size(), static_cast<std::size_t>(kPerThread)) << "thread " << t;
    for (int i = 0; i < kPerThread; ++i) ASSERT_EQ(got[static_cast<std::size_t>(i)], i);
  }
}

TEST(CallSoonThreadsafe, SharesOneFifoWithCallSoon) {
  // asyncio appends a posted callback to the ready queue at once, so posts
  // and call_soon()s made before the run keep their order (CPython: A B C).
  testing::TestLoop t;
  std::string ran;
  t.loop.call_soon_threadsafe([&] { ran += 'A'; });
  t.loop.call_soon([&] { ran += 'B'; });
  t.loop.call_soon_threadsafe([&] { ran += 'C'; });
  t.turn();
  EXPECT_EQ(ran, "ABC");
}

TEST(CallSoonThreadsafe, FromTheLoopsOwnThreadIsCallSoon) {
  testing::TestLoop t;
  std::string ran;
  t.loop.call_soon([&] {
    t.loop.call_soon_threadsafe([&] { ran += 'X'; });
    t.loop.call_soon([&] { ran += 'Y'; });
  });
  t.turn();
  EXPECT_EQ(ran, "");  // a later turn, as call_soon()
  t.turn();
  EXPECT_EQ(ran, "XY");
  EXPECT_EQ(t.loop.threadsafe_queue().self_pipe().writes(), 0U);  // nobody to wake
}

TEST(CallSoonThreadsafe, AClosedLoopRefusesItFromAnyThread) {
  EventLoop loop;
  loop.close();
  EXPECT_EQ(testing::thrown_by([&] { loop.call_soon_threadsafe([] {}); }),
            "RuntimeError: Event loop is closed");
  std::string from_thread;
  std::thread([&] {
    from_thread = testing::thrown_by([&] { loop.call_soon_threadsafe([] {}); });
  }).join();
  EXPECT_EQ(from_thread, "RuntimeError: Event loop is closed");
}

TEST(CallSoonThreadsafe, CloseDropsWhatWasPostedWithoutRunningIt) {
  auto captured = std::make_shared<int>(0);
  bool ran = false;
  {
    EventLoop loop;
    std::thread([&] { loop.call_soon_threadsafe([&ran, captured] { ran = true; }); }).join();
    EXPECT_EQ(captured.use_count(), 2);
    loop.close();
    EXPECT_EQ(captured.use_count(), 1);  // released by close(), not leaked
  }
  EXPECT_FALSE(ran);
}

TEST(CallSoonThreadsafe, AHandleCancelledByItsThreadNeverRuns) {
  testing::TestLoop t;
  bool ran = false;
  Handle handle;
  std::thread([&] { handle = t.loop.call_soon_threadsafe([&] { ran = true; }); }).join();
  std::thread([&] { handle.cancel(); }).join();
  t.turn();
  EXPECT_FALSE(ran);
  EXPECT_TRUE(handle.cancelled());
}

TEST(CallSoonThreadsafe, RunsInACopyOfThePostingThreadsContext) {
  static ContextVar<std::string> request_id("request_id", "none");
  testing::TestLoop t;
  std::string seen;
  std::thread([&] {
    request_id.set("from-thread");
    t.loop.call_soon_threadsafe([&] { seen = request_id.get(); });
  }).join();
  t.turn();
  EXPECT_EQ(seen, "from-thread");
  EXPECT_EQ(request_id.get(), "none");  // the loop thread's own Context is untouched
}

TEST(CallSoonThreadsafe, AnEmptyCallbackIsATypeError) {
  testing::TestLoop t;
  std::function<void()> empty;
  EXPECT_EQ(testing::thrown_by([&] { t.loop.call_soon_threadsafe(empty); }),
            "TypeError: a callable object was expected by call_soon_threadsafe(), got an empty "
            "callback");
  bool ran = false;
  t.loop.call_soon_threadsafe([&] { ran = true; });  // the loop is still usable
  t.turn();
  EXPECT_TRUE(ran);
}

}  // namespace
}  // namespace looplab
