// A Coro runs once. One moved from (or given to a task) has no frame, and
// one that was awaited has run to its end: creating a task of the first, or
// awaiting either, raises what asyncio raises for None and for a coroutine
// awaited twice, and the loop goes on. A task of the second fails at its
// first step, as asyncio's does.
#include <gtest/gtest.h>

#include <string>
#include <utility>

#include "tasks/support.hpp"

namespace looplab {
namespace {

using testing::TestLoop;
using testing::thrown_by;

Coro<int> one() { co_return 1; }

TEST(UnusableCoro, CreateTaskOnAnEmptyCoroIsATypeError) {
  TestLoop t;
  Coro<int> coro = one();
  Task<int> first = create_task(t.loop, std::move(coro));
  EXPECT_EQ(thrown_by([&] { (void)create_task(t.loop, std::move(coro)); }),
            "TypeError: create_task(): a coroutine was expected, got an empty Coro");
  EXPECT_EQ(t.loop.run_until_complete(first), 1);  // the loop goes on
}

Coro<std::string> awaits_twice() {
  Coro<int> coro = one();
  int value = co_await std::move(coro);
  try {
    co_await std::move(coro);
  } catch (const RuntimeError& error) {
    co_return std::to_string(value) + ", then " + error.what();
  }
  co_return "awaited twice?!";
}

TEST(UnusableCoro, AwaitingACoroTwiceIsARuntimeError) {
  TestLoop t;
  Task<std::string> task = create_task(t.loop, awaits_twice());
  EXPECT_EQ(t.loop.run_until_complete(task), "1, then cannot reuse already awaited coroutine");
}

Coro<std::string> awaits_a_coro_given_away(EventLoop* loop) {
  Coro<int> coro = one();
  Task<int> task = create_task(*loop, std::move(coro));
  try {
    co_await std::move(coro);
  } catch (const TypeError& error) {
    co_return error.what();
  }
  co_return "no error?!";
}

TEST(UnusableCoro, AwaitingACoroGivenToATaskIsATypeError) {
  TestLoop t;
  Task<std::string> task = create_task(t.loop, awaits_a_coro_given_away(&t.loop));
  EXPECT_EQ(t.loop.run_until_complete(task),
            "co_await: a coroutine was expected, got an empty Coro");
}

// asyncio makes the task: its first step fails, and it took a number.
Coro<std::string> gives_an_awaited_coro_to_a_task(EventLoop* loop) {
  Coro<int> coro = one();
  co_await std::move(coro);
  Task<int> task = create_task(*loop, std::move(coro));
  std::string what = task.done() ? "done" : "pending";
  try {
    co_await task;
  } catch (const RuntimeError& error) {
    co_return what + " | " + error.what();
  }
  co_return "no error?!";
}

TEST(UnusableCoro, ATaskOfAnAwaitedCoroFailsAtItsFirstStep) {
  TestLoop t;
  Task<std::string> task = create_task(t.loop, gives_an_awaited_coro_to_a_task(&t.loop));
  EXPECT_EQ(t.loop.run_until_complete(task), "pending | cannot reuse already awaited coroutine");
}

// Python's coro.throw(CancelledError) on a finished coroutine raises the
// RuntimeError too: cancelled before its first step, the task fails with it.
Coro<std::string> cancels_a_task_of_an_awaited_coro(EventLoop* loop) {
  Coro<int> coro = one();
  co_await std::move(coro);
  Task<int> task = create_task(*loop, std::move(coro));
  task.cancel();
  try {
    co_await task;
  } catch (const RuntimeError& error) {
    co_return std::string(task.cancelled() ? "cancelled | " : "failed | ") + error.what();
  }
  co_return "no RuntimeError?!";
}

TEST(UnusableCoro, ATaskOfAnAwaitedCoroCancelledBeforeItsFirstStepFailsAllTheSame) {
  TestLoop t;
  Task<std::string> task = create_task(t.loop, cancels_a_task_of_an_awaited_coro(&t.loop));
  EXPECT_EQ(t.loop.run_until_complete(task), "failed | cannot reuse already awaited coroutine");
}

Coro<int> waits_a_second() {
  co_await sleep(std::chrono::seconds(1));
  co_return 2;
}

Coro<int> awaits(Coro<int>* shared) {
  int value = co_await std::move(*shared);
  co_return value;
}

Coro<std::string> awaits_it_too(Coro<int>* shared, EventLoop* loop) {
  std::string what = thrown_by([&] { (void)create_task(*loop, std::move(*shared)); });
  try {
    co_await std::move(*shared);
  } catch (const RuntimeError& error) {
    co_return what + " | " + error.what();
  }
  co_return "no error?!";
}

TEST(UnusableCoro, ACoroBeingAwaitedIsARuntimeErrorForAnyoneElse) {
  TestLoop t;
  Coro<int> shared = waits_a_second();
  Task<int> first = create_task(t.loop, awaits(&shared));
  t.turn();  // first now waits inside the shared coroutine
  Task<std::string> second = create_task(t.loop, awaits_it_too(&shared, &t.loop));
  EXPECT_EQ(t.loop.run_until_complete(second),
            "RuntimeError: coroutine is being awaited already | coroutine is being awaited "
            "already");
  EXPECT_EQ(t.loop.run_until_complete(first), 2);  // undisturbed
}

}  // namespace
}  // namespace looplab
