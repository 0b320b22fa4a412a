// Done callbacks (asyncio-semantics.md 5.2): never run inline, queued with
// call_soon in the order they were added, each in the Context current when
// it was added; remove_done_callback removes every copy.
#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "futures/support.hpp"
#include "looplab/event_loop.hpp"

namespace looplab {
namespace {

using testing::run_one_turn;

std::vector<std::string> g_calls;
void record_a(Future<int>&) { g_calls.push_back("a"); }
void record_b(Future<int>&) { g_calls.push_back("b"); }

ContextVar<std::string> request("request", "none");

class DoneCallbacks : public ::testing::Test {
 protected:
  void SetUp() override {
    g_calls.clear();
    Context::current() = Context();
  }
  void TearDown() override { Context::current() = Context(); }
};

TEST_F(DoneCallbacks, CompletingAFutureDoesNotRunItsCallbacksTheyRunInTheNextTurn) {
  VirtualClock clock;
  EventLoop loop(clock);
  Future<int> future = loop.create_future<int>();
  int calls = 0;
  int seen = 0;
  future.add_done_callback([&](Future<int>& f) {
    ++calls;
    seen = f.result();
  });
  future.set_result(5);
  EXPECT_EQ(calls, 0);  // not inline
  run_one_turn(loop);
  EXPECT_EQ(calls, 1);
  EXPECT_EQ(seen, 5);
  run_one_turn(loop);
  EXPECT_EQ(calls, 1);  // once
}

TEST_F(DoneCallbacks, ACallbackAddedToADoneFutureIsNotRunInlineEither) {
  VirtualClock clock;
  EventLoop loop(clock);
  Future<int> future = loop.create_future<int>();
  future.set_result(1);
  int calls = 0;
  future.add_done_callback([&](Future<int>&) { ++calls; });
  EXPECT_EQ(calls, 0);
  run_one_turn(loop);
  EXPECT_EQ(calls, 1);
}

TEST_F(DoneCallbacks, CompletionInsideACallbackRunsTheDoneCallbacksOneTurnLater) {
  VirtualClock clock;
  EventLoop loop(clock);
  Future<int> future = loop.create_future<int>();
  std::vector<std::string> order;
  future.add_done_callback([&](Future<int>&) { order.push_back("done callback"); });
  loop.call_soon([&] {
    future.set_result(1);
    order.push_back("set_result");
  });
  loop.call_soon([&] { order.push_back("same turn, after set_result"); });
  run_one_turn(loop);
  EXPECT_EQ(order, (std::vector<std::string>{"set_result", "same turn, after set_result"}));
  run_one_turn(loop);
  EXPECT_EQ(order.back(), "done callback");
}

TEST_F(DoneCallbacks, AddingToADoneFutureFromACallbackWaitsForTheNextTurn) {
  VirtualClock clock;
  EventLoop loop(clock);
  Future<int> future = loop.create_future<int>();
  future.set_result(1);
  std::vector<std::string> order;
  loop.call_soon([&] {
    future.add_done_callback([&](Future<int>&) { order.push_back("late callback"); });
    order.push_back("added");
  });
  loop.call_soon([&] { order.push_back("next in the turn"); });
  run_one_turn(loop);
  EXPECT_EQ(order, (std::vector<std::string>{"added", "next in the turn"}));
  run_one_turn(loop);
  EXPECT_EQ(order.back(), "late callback");
}

// asyncio-semantics.md 5.2: X, A, B, Y, C. Done callbacks join the ready
// queue when the future completes (or when added to a done future), FIFO
// with everything else call_soon queued.
TEST_F(DoneCallbacks, DoneCallbacksInterleaveFifoWithCallSoon) {
  VirtualClock clock;
  EventLoop loop(clock);
  Future<int> future = loop.create_future<int>();
  std::string order;
  loop.call_soon([&] { order += "X"; });
  future.add_done_callback([&](Future<int>&) { order += "A"; });
  future.add_done_callback([&](Future<int>&) { order += "B"; });
  future.set_result(0);
  loop.call_soon([&] { order += "Y"; });
  future.add_done_callback([&](Future<int>&) { order += "C"; });
  run_one_turn(loop);
  EXPECT_EQ(order, "XABYC");
}

TEST_F(DoneCallbacks, ManyCallbacksRunInTheOrderTheyWereAdded) {
  VirtualClock clock;
  EventLoop loop(clock);
  Future<> future = loop.create_future();
  std::vector<int> order;
  for (int i = 0; i < 50; ++i)
    future.add_done_callback([&order, i](Future<>&) { order.push_back(i); });
  future.cancel();
  run_one_turn(loop);
  ASSERT_EQ(order.size(), 50u);
  for (int i = 0; i < 50; ++i) EXPECT_EQ(order[static_cast<std::size_t>(i)], i);
}

TEST_F(DoneCallbacks, TheCallbackReceivesTheFutureItself) {
  VirtualClock clock;
  EventLoop loop(clock);
  Future<std::string> future = loop.create_future<std::string>();
  bool same = false;
  std::string value;
  future.add_done_callback([&](Future<std::string>& f) {
    same = (f == future);
    value = f.result();
  });
  future.set_result("payload");
  run_one_turn(loop);
  EXPECT_TRUE(same);
  EXPECT_EQ(value, "payload");
}

TEST_F(DoneCallbacks, SetExceptionAndCancelScheduleTheCallbacksToo) {
  VirtualClock clock;
  EventLoop loop(clock);
  Future<int> failed = loop.create_future<int>();
  Future<int> cancelled = loop.create_future<int>();
  std::vector<std::string> seen;
  failed.add_done_callback(
      [&](Future<int>& f) { seen.push_back("failed: " + describe_exception(f.exception())); });
  cancelled.add_done_callback(
      [&](Future<int>& f) { seen.push_back(f.cancelled() ? "cancelled" : "?"); });
  failed.set_exception(ValueError("bad"));
  cancelled.cancel();
  EXPECT_TRUE(seen.empty());
  run_one_turn(loop);
  EXPECT_EQ(seen, (std::vector<std::string>{"failed: ValueError: bad", "cancelled"}));
}

TEST_F(DoneCallbacks, EachCallbackRunsInTheContextCurrentWhenItWasAdded) {
  VirtualClock clock;
  EventLoop loop(clock);
  Future<int> future = loop.create_future<int>();
  std::vector<std::string> seen;
  request.set("first");
  future.add_done_callback([&](Future<int>&) { seen.push_back(request.get()); });
  request.set("second");
  future.add_done_callback([&](Future<int>&) {
    seen.push_back(request.get());
    request.set("changed inside");  // stays inside this callback's context
  });
  request.set("at completion");
  future.set_result(0);
  request.set("at the turn");
  run_one_turn(loop);
  EXPECT_EQ(seen, (std::vector<std::string>{"first", "second"}));
  EXPECT_EQ(request.get(), "at the turn");
}

TEST_F(DoneCallbacks, ACallbackAddedToADoneFutureRunsInTheContextOfTheAdder) {
  VirtualClock clock;
  EventLoop loop(clock);
  Future<int> future = loop.create_future<int>();
  future.set_result(0);
  std::string seen;
  request.set("adder");
  future.add_done_callback([&](Future<int>&) { seen = request.get(); });
  request.set("later");
  run_one_turn(loop);
  EXPECT_EQ(seen, "adder");
}

TEST_F(DoneCallbacks, AReportAboutAPlainFutureRunsTheHandlerInTheCurrentContext) {
  // asyncio picks the future before the handle, and a plain future has no
  // Context: the handle's is not used even when the report names one.
  VirtualClock clock;
  EventLoop loop(clock);
  std::string seen;
  loop.set_exception_handler([&](EventLoop&, const ExceptionContext&) { seen = request.get(); });
  request.set("the handle's");
  Handle handle = loop.call_soon([] {});
  request.set("current");
  Future<int> future = loop.create_future<int>();
  loop.call_exception_handler({.message = "both", .handle = handle, .future = &future.state()});
  EXPECT_EQ(seen, "current");
  loop.call_exception_handler({.message = "the handle only", .handle = handle});
  EXPECT_EQ(seen, "the handle's");
}

TEST_F(DoneCallbacks, RemovingAFunctionAddedTwiceRemovesBothAndReturnsTwo) {
  VirtualClock clock;
  EventLoop loop(clock);
  Future<int> future = loop.create_future<int>();
  DoneCallbackId a1 = future.add_done_callback(record_a);
  DoneCallbackId b = future.add_done_callback(&record_b);
  DoneCallbackId a2 = future.add_done_callback(&record_a);
  EXPECT_EQ(a1, a2);  // the same function, the same id
  EXPECT_NE(a1, b);
  EXPECT_EQ(future.remove_done_callback(a1), 2u);
  EXPECT_EQ(future.remove_done_callback(a1), 0u);
  future.set_result(0);
  run_one_turn(loop);
  EXPECT_EQ(g_calls, std::vector<std::string>{"b"});
}

TEST_F(DoneCallbacks, EachLambdaHasItsOwnIdAndRemovingOneKeepsTheOthers) {
  VirtualClock clock;
  EventLoop loop(clock);
  Future<int> future = loop.create_future<int>();
  std::string order;
  auto add = [&](char c) {
    return future.add_done_callback([&order, c](Future<int>&) { order += c; });
  };
  DoneCallbackId first = add('1');
  DoneCallbackId second = add('2');
  DoneCallbackId third = add('3');
  EXPECT_NE(first, second);
  EXPECT_NE(second, third);
  EXPECT_EQ(future.remove_done_callback(second), 1u);
  EXPECT_EQ(future.remove_done_callback(second), 0u);
  future.set_result(0);
  run_one_turn(loop);
  EXPECT_EQ(order, "13");
}

// The first callback is stored apart from the others (callback0_, as in
// CPython's C Future): removing it, or all of them, must not change the
// order of those that remain or come later.
TEST_F(DoneCallbacks, RemovingTheFirstCallbackKeepsTheOrderOfTheRestAndOfLaterOnes) {
  VirtualClock clock;
  EventLoop loop(clock);
  Future<int> future = loop.create_future<int>();
  std::string order;
  auto add = [&](char c) {
    return future.add_done_callback([&order, c](Future<int>&) { order += c; });
  };
  DoneCallbackId first = add('1');
  add('2');
  EXPECT_EQ(future.remove_done_callback(first), 1u);
  add('3');
  DoneCallbackId fourth = add('4');
  add('5');
  EXPECT_EQ(future.remove_done_callback(fourth), 1u);
  future.set_result(0);
  run_one_turn(loop);
  EXPECT_EQ(order, "235");
}

TEST_F(DoneCallbacks, AFutureWhoseCallbacksWereAllRemovedTakesNewOnesInOrder) {
  VirtualClock clock;
  EventLoop loop(clock);
  Future<int> future = loop.create_future<int>();
  DoneCallbackId a = future.add_done_callback(record_a);
  DoneCallbackId b = future.add_done_callback(record_b);
  EXPECT_EQ(future.remove_done_callback(a), 1u);
  EXPECT_EQ(future.remove_done_callback(b), 1u);
  future.add_done_callback(record_b);
  future.add_done_callback(record_a);
  future.set_result(0);
  run_one_turn(loop);
  EXPECT_EQ(g_calls, (std::vector<std::string>{"b", "a"}));
}

TEST_F(DoneCallbacks, RemoveAfterCompletionReturnsZeroAndTheCallbackStillRuns) {
  VirtualClock clock;
  EventLoop loop(clock);
  Future<int> future = loop.create_future<int>();
  DoneCallbackId id = future.add_done_callback(record_a);
  future.set_result(0);
  EXPECT_EQ(future.remove_done_callback(id), 0u);  // already queued on the loop
  run_one_turn(loop);
  EXPECT_EQ(g_calls, std::vector<std::string>{"a"});
}

// Completion hands every stored callback to the loop and keeps none, the
// first (callback0_) and the rest alike, even when queueing them fails (a
// closed loop refuses): a callback left stored would keep what it captured
// alive for as long as the future lives.
TEST_F(DoneCallbacks, CompletionLeavesNoCallbackStoredEvenWhenQueueingThemFails) {
  VirtualClock clock;
  EventLoop loop(clock);
  Future<int> future = loop.create_future<int>();
  DoneCallbackId first = future.add_done_callback([](Future<int>&) {});
  DoneCallbackId second = future.add_done_callback([](Future<int>&) {});
  future.set_result(0);
  EXPECT_EQ(future.remove_done_callback(first) + future.remove_done_callback(second), 0u);
  run_one_turn(loop);

  Future<int> refused = loop.create_future<int>();
  first = refused.add_done_callback([](Future<int>&) {});
  second = refused.add_done_callback([](Future<int>&) {});
  loop.close();
  EXPECT_THROW(refused.set_result(1), RuntimeError);  // the closed loop refuses the callbacks
  EXPECT_EQ(refused.remove_done_callback(first) + refused.remove_done_callback(second), 0u);
}

TEST_F(DoneCallbacks, RemoveOfAnIdThatWasNeverAddedReturnsZero) {
  VirtualClock clock;
  EventLoop loop(clock);
  Future<int> future = loop.create_future<int>();
  Future<int> other = loop.create_future<int>();
  DoneCallbackId id = other.add_done_callback([](Future<int>&) {});
  EXPECT_EQ(future.remove_done_callback(id), 0u);
  EXPECT_EQ(other.remove_done_callback(id), 1u);
}

TEST_F(DoneCallbacks, ADoneFutureOutlivesItsOwnerUntilItsCallbacksHaveRun) {
  VirtualClock clock;
  EventLoop loop(clock);
  auto value = std::make_shared<int>(9);
  std::weak_ptr<int> watch = value;
  int seen = 0;
  {
    Future<std::shared_ptr<int>> future = loop.create_future<std::shared_ptr<int>>();
    future.add_done_callback([&](Future<std::shared_ptr<int>>& f) { seen = *f.result(); });
    future.set_result(std::move(value));
  }  // the owner lets go; the queued callback holds the future
  EXPECT_FALSE(watch.expired());
  run_one_turn(loop);
  EXPECT_EQ(seen, 9);
  EXPECT_TRUE(watch.expired());  // and once it has run, the future is gone
}

TEST_F(DoneCallbacks, APendingFutureIsNotKeptAliveByItsCallbacks) {
  VirtualClock clock;
  EventLoop loop(clock);
  auto token = std::make_shared<int>(1);
  std::weak_ptr<int> watch = token;
  {
    Future<int> future = loop.create_future<int>();
    future.add_done_callback([token](Future<int>&) {});
    token.reset();
    EXPECT_FALSE(watch.expired());
  }
  EXPECT_TRUE(watch.expired());  // the future and its callbacks are gone
}

TEST_F(DoneCallbacks, AThrowingCallbackIsReportedAndTheNextOneStillRuns) {
  testing::TestLoop r;
  Future<int> future = r.loop.create_future<int>();
  bool second_ran = false;
  future.add_done_callback([](Future<int>&) { throw ValueError("in a done callback"); });
  future.add_done_callback([&](Future<int>&) { second_ran = true; });
  future.set_result(0);
  run_one_turn(r.loop);
  EXPECT_TRUE(second_ran);
  ASSERT_EQ(r.reports.size(), 1u);
  EXPECT_TRUE(r.reports[0].starts_with("Exception in callback")) << r.reports[0];
  EXPECT_TRUE(r.reports[0].ends_with("ValueError: in a done callback")) << r.reports[0];
}

TEST_F(DoneCallbacks, ACallbackAddedFromAnotherCallbackOfTheSameFutureRunsNextTurn) {
  VirtualClock clock;
  EventLoop loop(clock);
  Future<int> future = loop.create_future<int>();
  std::vector<std::string> order;
  future.add_done_callback([&](Future<int>& f) {
    order.push_back("first");
    f.add_done_callback([&](Future<int>&) { order.push_back("added by first"); });
  });
  future.add_done_callback([&](Future<int>&) { order.push_back("second"); });
  future.set_result(0);
  run_one_turn(loop);
  EXPECT_EQ(order, (std::vector<std::string>{"first", "second"}));
  run_one_turn(loop);
  EXPECT_EQ(order.back(), "added by first");
}

// asyncio's add_done_callback(fn, context=ctx).
TEST_F(DoneCallbacks, ACallbackAddedWithAContextRunsInIt) {
  VirtualClock clock;
  EventLoop loop(clock);
  Future<int> future = loop.create_future<int>();
  request.set("given");
  Context given = Context::copy_current();
  request.set("caller");
  std::vector<std::string> seen;
  future.add_done_callback([&](Future<int>&) { seen.push_back(request.get()); }, given);
  future.add_done_callback([&](Future<int>&) { seen.push_back(request.get()); });
  future.set_result(1);
  run_one_turn(loop);
  EXPECT_EQ(seen, (std::vector<std::string>{"given", "caller"}));
}

}  // namespace
}  // namespace looplab
