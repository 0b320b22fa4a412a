// An example of an instructor's hidden tests for assignment 06 (the format:
// GoogleTest files named *_test.cpp in one folder; `make grade HIDDEN=dir`).
#include <gtest/gtest.h>

#include <chrono>
#include <string>

#include "tasks/support.hpp"

namespace looplab {
namespace {

using namespace std::chrono_literals;
using testing::Log;
using testing::TestLoop;

Coro<int> sleeper(EventLoop* loop, Log* log, int value) {
  log->push_back("start " + std::to_string(value));
  co_await sleep(*loop, 1s);
  log->push_back("woke " + std::to_string(value));
  co_return value * 2;
}

TEST(HiddenExample, ATaskThatAwaitsASleepReturnsItsValueAtTheDeadline) {
  TestLoop t;
  Log log;
  Task<int> task = create_task(t.loop, sleeper(&t.loop, &log, 21));
  t.run_until_done(task);
  EXPECT_EQ(task.result(), 42);
  EXPECT_EQ(log, (Log{"start 21", "woke 21"}));
  EXPECT_EQ(t.now(), 1.0);
}

TEST(HiddenExample, CancellingASleepingTaskEndsItCancelled) {
  TestLoop t;
  Log log;
  Task<int> task = create_task(t.loop, sleeper(&t.loop, &log, 1));
  t.turn();  // the first step: the task now waits in its sleep
  EXPECT_TRUE(task.cancel());
  t.run_until_done(task);
  EXPECT_TRUE(task.cancelled());
  EXPECT_EQ(log, (Log{"start 1"}));
}

}  // namespace
}  // namespace looplab
