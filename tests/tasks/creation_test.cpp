// Creating a task (asyncio-semantics.md 6.1): the first step runs in a later
// turn, queued with call_soon() like any callback; names are Task-N from a
// process-wide counter; the task runs in a copy of its creator's Context.
#include <gtest/gtest.h>

#include <chrono>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "looplab/context.hpp"
#include "looplab/gather.hpp"
#include "looplab/plumbing/one_thread.hpp"
#include "tasks/support.hpp"

namespace looplab {
namespace {

using namespace std::chrono_literals;

using testing::Log;
using testing::TestLoop;

Coro<int> record(Log* log, std::string what, int value) {
  log->push_back(what);
  co_return value;
}

TEST(Creation, TheFirstStepRunsInALaterTurnNotInsideCreateTask) {
  TestLoop t;
  Log log;
  Task<int> task = create_task(t.loop, record(&log, "step", 1));
  EXPECT_TRUE(log.empty());
  EXPECT_FALSE(task.done());
  t.turn();
  EXPECT_EQ(log, Log{"step"});
  EXPECT_TRUE(task.done());
  EXPECT_EQ(task.result(), 1);
}

TEST(Creation, TheFirstStepIsQueuedFifoWithCallSoon) {
  TestLoop t;
  Log log;
  t.loop.call_soon([&] { log.push_back("callback before"); });
  Task<int> first = create_task(t.loop, record(&log, "task 1", 1));
  t.loop.call_soon([&] { log.push_back("callback between"); });
  Task<int> second = create_task(t.loop, record(&log, "task 2", 2));
  t.loop.call_soon([&] { log.push_back("callback after"); });
  t.turn();
  EXPECT_EQ(log,
            (Log{"callback before", "task 1", "callback between", "task 2", "callback after"}));
}

TEST(Creation, ATaskCreatedByATaskStartsInTheNextTurn) {
  TestLoop t;
  Log log;
  auto parent = [](EventLoop* loop, Log* log) -> Coro<void> {
    log->push_back("parent creates");
    Task<int> child = create_task(*loop, record(log, "child runs", 0));
    log->push_back("parent goes on");
    co_return;
  };
  Task<void> task = create_task(t.loop, parent, &t.loop, &log);
  t.turn();
  EXPECT_EQ(log, (Log{"parent creates", "parent goes on"}));
  t.turn();
  EXPECT_EQ(log, (Log{"parent creates", "parent goes on", "child runs"}));
}

TEST(Creation, NamesAreTaskNFromOneCounter) {
  TestLoop t;
  Log log;
  Task<int> a = create_task(t.loop, record(&log, "a", 1));
  Task<int> b = create_task(t.loop, record(&log, "b", 2));
  ASSERT_TRUE(a.get_name().starts_with("Task-"));
  int n = std::stoi(a.get_name().substr(5));
  EXPECT_EQ(b.get_name(), "Task-" + std::to_string(n + 1));
  b.set_name("worker");
  EXPECT_EQ(b.get_name(), "worker");
  EXPECT_EQ(b.base().get_name(), "worker");
  // The counter is process-wide: another loop's task takes the next number.
  TestLoop other;
  Task<int> c = create_task(other.loop, record(&log, "c", 3));
  EXPECT_EQ(c.get_name(), "Task-" + std::to_string(n + 2));
  t.turn();
  other.turn();
}

ContextVar<std::string> request_id("request_id", "none");

Coro<void> context_reader(Log* log) {
  log->push_back("task sees " + request_id.get());
  request_id.set("set by the task");
  co_await sleep(0s);
  log->push_back("task sees " + request_id.get() + " in its next step");
}

TEST(Creation, TheTaskRunsInACopyOfTheCreatorsContext) {
  TestLoop t;
  Log log;
  Context isolated;  // a fresh context, so that this test leaves the thread's untouched
  isolated.run([&] {
    request_id.set("at creation");
    Task<void> task = create_task(t.loop, context_reader(&log));
    request_id.set("changed after creation");  // the task has its own copy already
    t.loop.run_until_complete(task);
    EXPECT_EQ(log, (Log{"task sees at creation", "task sees set by the task in its next step"}));
    // What the task set stayed in the task's context.
    EXPECT_EQ(request_id.get(), "changed after creation");
  });
}

TEST(Creation, TwoTasksFromOneContextDoNotSeeEachOthersChanges) {
  TestLoop t;
  Log log;
  Context isolated;
  isolated.run([&] {
    request_id.set("shared start");
    Task<void> a = create_task(t.loop, context_reader(&log));
    Task<void> b = create_task(t.loop, context_reader(&log));
    t.loop.run_until_complete(b);
    EXPECT_EQ(log, (Log{"task sees shared start", "task sees shared start",
                        "task sees set by the task in its next step",
                        "task sees set by the task in its next step"}));
  });
}

TEST(Creation, CreateTaskWithALambdaKeepsItsCapturesAliveInTheTask) {
  TestLoop t;
  auto counted = std::make_shared<int>(40);
  std::weak_ptr<int> watch = counted;
  Task<int> task = [&] {
    // The lambda is a temporary of this block; create_task copies it into
    // the task's frame (pitfall P3: a coroutine lambda's captures live in the
    // closure, not in the coroutine frame).
    auto add = [counted = std::move(counted)](int k) -> Coro<int> {
      co_await sleep(1ms);
      co_return *counted + k;
    };
    return create_task(t.loop, add, 2);
  }();
  EXPECT_FALSE(watch.expired());  // held by the task
  EXPECT_EQ(t.loop.run_until_complete(task), 42);
  EXPECT_TRUE(watch.expired());  // released with the finished task's frame
}

TEST(Creation, CreateTaskOnAClosedLoopIsARuntimeErrorAndTheCoroutineIsDropped) {
  TestLoop t;
  t.loop.close();
  Log log;
  int destroyed = 0;
  auto body = [](Log* log, testing::DestructionCounter) -> Coro<int> {
    log->push_back("ran");
    co_return 1;
  };
  EXPECT_EQ(testing::thrown_by([&] {
              (void)create_task(t.loop, body(&log, testing::DestructionCounter(&destroyed)));
            }),
            "RuntimeError: Event loop is closed");
  EXPECT_EQ(destroyed, 1);  // the frame (and its parameters) went
  EXPECT_TRUE(all_tasks(t.loop).empty());
  EXPECT_TRUE(log.empty());
  EXPECT_TRUE(t.reports.empty());
}

TEST(Creation, RunUntilCompleteOfATaskReturnsItsResult) {
  TestLoop t;
  Log log;
  EXPECT_EQ(t.loop.run_until_complete(create_task(t.loop, record(&log, "x", 7))), 7);
}

// create_task(..., {.name, .context}): asyncio's name= and context=.
Coro<std::string> name_and_request(const ContextVar<std::string>* var) {
  co_return TaskBase::current()->get_name() + " " + var->get();
}

Coro<int> result_of(Future<int> future) { co_return co_await future; }

// CPython's repr without its coro=<...> part.
TEST(Creation, ReprShowsTheStateAndTheName) {
  TestLoop t;
  Future<int> never = t.loop.create_future<int>();
  Task<int> waiting = create_task(t.loop, result_of(never), {.name = "waiting"});
  EXPECT_EQ(waiting.repr(), "<Task pending name='waiting'>");
  never.set_exception(ValueError("no"));
  t.turns(2);
  EXPECT_EQ(waiting.repr(), "<Task finished name='waiting' exception=ValueError('no')>");
  Future<int> as_future = waiting;
  EXPECT_EQ(as_future.repr(), waiting.repr()) << "a Task held as a Future is still a Task";
  (void)waiting.exception();
  Task<int> cancelled = create_task(t.loop, result_of(never), {.name = "c"});
  cancelled.cancel();
  t.turns(1);
  EXPECT_EQ(cancelled.repr(), "<Task cancelled name='c'>");
  Future<int> ready = t.loop.create_future<int>();
  ready.set_result(3);
  Task<int> returned = create_task(t.loop, result_of(ready), {.name = "r"});
  t.turns(1);
  EXPECT_EQ(returned.repr(), "<Task finished name='r' result=3>");
}

TEST(Creation, ReprSaysCancellingWhileACancelledTaskIsStillPending) {
  // base_tasks.py: a task not done with cancelling() > 0 is "cancelling".
  TestLoop t;
  Future<int> never = t.loop.create_future<int>();
  Task<int> task = create_task(t.loop, result_of(never), {.name = "w"});
  t.turns(1);
  EXPECT_EQ(task.repr(), "<Task pending name='w'>");
  task.cancel();
  EXPECT_EQ(task.repr(), "<Task cancelling name='w'>");
  EXPECT_EQ(task.uncancel(), 0);
  EXPECT_EQ(task.repr(), "<Task pending name='w'>");
  task.cancel();
  t.turns(2);
  EXPECT_EQ(task.repr(), "<Task cancelled name='w'>");
}

TEST(Creation, ANamedTaskKeepsItsNameAndTheNextUnnamedOneTakesTheNextNumber) {
  TestLoop t;
  static ContextVar<std::string> request("request", "none");
  Task<std::string> before = create_task(t.loop, name_and_request(&request));
  Task<std::string> named = create_task(t.loop, name_and_request(&request), {.name = "fetcher"});
  Task<std::string> after = create_task(t.loop, name_and_request(&request));
  EXPECT_EQ(named.get_name(), "fetcher");
  int first = std::stoi(before.get_name().substr(5));
  EXPECT_EQ(after.get_name(), "Task-" + std::to_string(first + 1));
}

TEST(Creation, ATaskMadeWithAContextRunsItsStepsInIt) {
  TestLoop t;
  static ContextVar<std::string> request("request", "none");
  Context::current() = Context();
  request.set("caller");
  Context given = Context::copy_current();
  given.run([] { request.set("given"); });
  Task<std::string> task = create_task(t.loop, name_and_request(&request), {.context = given});
  Task<std::string> plain = create_task(t.loop, name_and_request(&request));
  t.turn();
  EXPECT_TRUE(task.result().ends_with(" given"));
  EXPECT_TRUE(plain.result().ends_with(" caller"));
  EXPECT_EQ(task.get_context().run([] { return request.get(); }), "given");
  Context::current() = Context();
}

// run_until_complete(coro) and gather(coros): each coroutine becomes a task.
Coro<std::string> named_after_sleep(std::chrono::seconds delay, std::string result) {
  std::string value = co_await sleep(delay, std::move(result));
  co_return TaskBase::current()->get_name() == "" ? "no task" : value;
}

TEST(Creation, RunUntilCompleteOfACoroutineRunsItAsATask) {
  TestLoop t;
  EXPECT_EQ(t.loop.run_until_complete(named_after_sleep(2s, "slept")), "slept");
  EXPECT_EQ(t.now(), 2.0);
  EXPECT_TRUE(all_tasks(t.loop).empty());
}

TEST(Creation, ACoroutineTaskLeftPendingByRunUntilCompleteIsNotReportedAtClose) {
  TestLoop t;
  t.loop.call_soon([&] { t.loop.stop(); });
  EXPECT_EQ(testing::thrown_by([&] { t.loop.run_until_complete(named_after_sleep(5s, "x")); }),
            "RuntimeError: Event loop stopped before Future completed.");
  EXPECT_EQ(all_tasks(t.loop).size(), 1U);
  t.loop.close();
  EXPECT_TRUE(t.reports.empty());  // asyncio: _log_destroy_pending = False
}

TEST(Creation, GatherOfCoroutinesRunsThemConcurrentlyInArgumentOrder) {
  TestLoop t;
  std::vector<std::string> results = t.loop.run_until_complete(
      gather(t.loop, named_after_sleep(2s, "slow"), named_after_sleep(1s, "fast")));
  EXPECT_EQ(results, (std::vector<std::string>{"slow", "fast"}));
  EXPECT_EQ(t.now(), 2.0);  // together, not 3 s one after the other
  std::vector<Coro<std::string>> coros;
  coros.push_back(named_after_sleep(1s, "a"));
  coros.push_back(named_after_sleep(1s, "b"));
  std::vector<Outcome<std::string>> outcomes =
      t.loop.run_until_complete(gather_return_exceptions(t.loop, std::move(coros)));
  EXPECT_EQ(outcomes.size(), 2U);
  EXPECT_EQ(t.now(), 3.0);
}

// asyncio's registry of tasks is one for the process: a task made on one
// thread may end on another, when a loop is handed to a thread after its
// first tasks were made, and the registry stays whole.
TEST(Registry, ATaskMadeOnOneThreadMayEndOnAnother) {
  TestLoop t;
  Task<int> task = create_task(
      t.loop,
      [](int value) -> Coro<int> {
        co_await sleep(0s);
        co_return value;
      },
      7);
  Task<int> other = create_task(
      t.loop, [](int value) -> Coro<int> { co_return value; }, 8);
  EXPECT_EQ(all_tasks(t.loop).size(), 2U);
  std::thread runner([&t, task] { t.loop.run_until_complete(task); });
  runner.join();
  EXPECT_EQ(task.result(), 7);
  EXPECT_EQ(other.result(), 8);
  EXPECT_TRUE(all_tasks(t.loop).empty());
  // The registry still works for tasks made here afterwards.
  Task<int> later = create_task(
      t.loop, [](int value) -> Coro<int> { co_return value; }, 9);
  EXPECT_EQ(all_tasks(t.loop).size(), 1U);
  t.loop.run_until_complete(later);
  EXPECT_TRUE(all_tasks(t.loop).empty());
}

// The counter and the registry skip their atomic instruction and lock while
// the process has one thread (plumbing/one_thread.hpp). With four threads
// making tasks at once, a count taken without them would hand out some
// number twice, and the registry's list would lose tasks.
TEST(Creation, TasksMadeOnManyThreadsAtOnceGetDistinctNumbersAndAllFinish) {
  constexpr int kThreads = 4;
  constexpr int kPerThread = 2'000;
  std::vector<std::vector<std::string>> names(kThreads);
  std::vector<std::thread> threads;
  for (int i = 0; i < kThreads; ++i) {
    threads.emplace_back([&names, i] {
      TestLoop t;
      std::vector<Task<int>> tasks;
      for (int k = 0; k < kPerThread; ++k) {
        tasks.push_back(create_task(
            t.loop, [](int value) -> Coro<int> { co_return value; }, k));
        names[static_cast<std::size_t>(i)].push_back(tasks.back().get_name());
      }
      t.turn();  // each finishes in its first step
      for (const Task<int>& task : tasks) EXPECT_TRUE(task.done());
      EXPECT_TRUE(all_tasks(t.loop).empty());
    });
  }
  for (std::thread& thread : threads) thread.join();
  std::set<std::string> distinct;
  for (const auto& some : names) distinct.insert(some.begin(), some.end());
  EXPECT_EQ(distinct.size(), static_cast<std::size_t>(kThreads * kPerThread));
}

TEST(OneThread, OnceASecondThreadHasBeenMadeTheRegistryLockIsTaken) {
  std::thread([] {}).join();  // glibc's flag never goes back to "one thread"
  EXPECT_FALSE(only_one_thread());
  std::mutex mutex;
  LockUnlessAlone lock(mutex);
  bool taken = true;
  std::thread([&mutex, &taken] {
    taken = mutex.try_lock();
    if (taken) mutex.unlock();
  }).join();
  EXPECT_FALSE(taken);
}

}  // namespace
}  // namespace looplab
