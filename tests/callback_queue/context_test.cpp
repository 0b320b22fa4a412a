// Contexts: captured when a callback is scheduled, entered while it runs.
#include <gtest/gtest.h>

#include <new>
#include <regex>
#include <string>
#include <vector>

#include "looplab/event_loop.hpp"
#include "support/run_one_turn.hpp"

namespace looplab {
namespace {

// Python's reprs hold addresses: only the shape of a message can match.
bool has_shape(const char* text, const char* pattern) {
  return std::regex_match(text, std::regex(pattern));
}

ContextVar<std::string> request_id("request_id", "none");
ContextVar<int> counter("counter");  // no default

// Each test starts from an empty thread context.
class ContextTest : public ::testing::Test {
 protected:
  void SetUp() override { Context::current() = Context(); }
  void TearDown() override { Context::current() = Context(); }
};

TEST_F(ContextTest, TheCallbackSeesTheValueSetBeforeCallSoonEvenIfChangedAfter) {
  EventLoop loop;
  std::string seen;
  request_id.set("req-1");
  loop.call_soon([&] { seen = request_id.get(); });
  request_id.set("req-2");
  testing::run_one_turn(loop);
  EXPECT_EQ(seen, "req-1");
  EXPECT_EQ(request_id.get(), "req-2");
}

TEST_F(ContextTest, ChangesInsideACallbackDoNotLeakOut) {
  EventLoop loop;
  std::vector<std::string> seen;
  request_id.set("outer");
  loop.call_soon([&] {
    request_id.set("inside");
    seen.push_back(request_id.get());
  });
  loop.call_soon([&] { seen.push_back(request_id.get()); });  // scheduled before the change ran
  testing::run_one_turn(loop);
  EXPECT_EQ(seen, (std::vector<std::string>{"inside", "outer"}));
  EXPECT_EQ(request_id.get(), "outer");
}

TEST_F(ContextTest, ACallbackScheduledFromACallbackInheritsItsContext) {
  EventLoop loop;
  std::string seen;
  loop.call_soon([&] {
    request_id.set("from-parent");
    loop.call_soon([&] { seen = request_id.get(); });
  });
  testing::run_one_turn(loop);
  testing::run_one_turn(loop);
  EXPECT_EQ(seen, "from-parent");
  EXPECT_EQ(request_id.get(), "none");
}

TEST_F(ContextTest, TheHandleKeepsTheChangesItsCallbackMade) {
  EventLoop loop;
  Handle handle = loop.call_soon([] { counter.set(5); });
  testing::run_one_turn(loop);
  int inside = handle.get_context().run([] { return counter.get(); });
  EXPECT_EQ(inside, 5);
  EXPECT_THROW(counter.get(), LookupError);
}

TEST_F(ContextTest, GetFallsBackToTheDefaultThenToTheArgument) {
  EXPECT_EQ(request_id.get(), "none");
  EXPECT_EQ(counter.get(41), 41);
  try {
    counter.get();
    FAIL() << "no LookupError";
  } catch (const LookupError& e) {
    // Python's message is the variable's repr; only the address differs.
    EXPECT_TRUE(has_shape(e.what(), "<ContextVar name='counter' at 0x[0-9a-f]+>")) << e.what();
  }
}

TEST_F(ContextTest, ResetRestoresTheOldValueOrAbsence) {
  auto first = counter.set(1);
  EXPECT_FALSE(first.old_value().has_value());
  auto second = counter.set(2);
  EXPECT_EQ(second.old_value(), 1);
  counter.reset(second);
  EXPECT_EQ(counter.get(), 1);
  counter.reset(first);
  EXPECT_THROW(counter.get(), LookupError);
}

TEST_F(ContextTest, ATokenWorksOnceOnItsOwnVariableInItsOwnContext) {
  auto token = counter.set(1);
  counter.reset(token);
  EXPECT_THROW(counter.reset(token), RuntimeError);

  ContextVar<int> other("other");
  auto foreign = other.set(1);
  EXPECT_THROW(counter.reset(foreign), ValueError);

  auto outer = counter.set(3);
  Context elsewhere;
  EXPECT_THROW(elsewhere.run([&] { counter.reset(outer); }), ValueError);
}

// Python's messages name the token and the variable by their reprs.
TEST_F(ContextTest, TokenErrorsNameTheTokenAsPythonDoes) {
  auto token = counter.set(1);
  counter.reset(token);
  try {
    counter.reset(token);
    FAIL() << "no RuntimeError";
  } catch (const RuntimeError& e) {
    EXPECT_TRUE(has_shape(e.what(),
                          "<Token used var=<ContextVar name='counter' at 0x[0-9a-f]+> "
                          "at 0x[0-9a-f]+> has already been used once"))
        << e.what();
  }
  auto outer = counter.set(2);
  Context elsewhere;
  try {
    elsewhere.run([&] { counter.reset(outer); });
    FAIL() << "no ValueError";
  } catch (const ValueError& e) {
    EXPECT_TRUE(has_shape(e.what(),
                          "<Token var=<ContextVar name='counter' at 0x[0-9a-f]+> "
                          "at 0x[0-9a-f]+> was created in a different Context"))
        << e.what();
  }
}

// A Token knows its Context by an identity that is never reused: a Context
// made where a dead one was (a handle's, once the handle has run and its
// block is recycled) is another Context, as in Python.
TEST_F(ContextTest, ATokenFromADeadContextIsRefusedByANewOneInTheSameMemory) {
  alignas(Context) unsigned char memory[sizeof(Context)];
  auto* dead = new (memory) Context();
  auto token = dead->run([] { return counter.set(1); });
  dead->~Context();
  auto* reborn = new (memory) Context();  // the same address
  EXPECT_THROW(reborn->run([&] { counter.reset(token); }), ValueError);
  reborn->~Context();
}

TEST_F(ContextTest, VariablesOfDifferentTypesNeverShareAValue) {
  // Each is a key of its own in the one map a Context holds, whatever its
  // type: reading one never finds the other's value.
  ContextVar<long> deadline("deadline");
  ContextVar<short> retries("retries");
  deadline.set(30);
  EXPECT_EQ(retries.get(0), 0);
  retries.set(3);
  EXPECT_EQ(deadline.get(), 30);
  EXPECT_EQ(retries.get(), 3);
}

TEST_F(ContextTest, AContextAssignedToIsAnotherContextForTokensAndAMovedOneIsTheSame) {
  // Python: ctx = copy_context() binds the name to a new Context, where a
  // token made in the old one is refused. A move hands the same one over.
  Context context;
  auto token = context.run([] { return counter.set(1); });
  context = Context::copy_current();  // move-assigned
  EXPECT_THROW(context.run([&] { counter.reset(token); }), ValueError);
  Context other;
  auto other_token = other.run([] { return counter.set(1); });
  other = context;  // copy-assigned
  EXPECT_THROW(other.run([&] { counter.reset(other_token); }), ValueError);

  Context original;
  auto kept = original.run([] { return counter.set(2); });
  Context moved = std::move(original);
  moved.run([&] { counter.reset(kept); });
  EXPECT_EQ(moved.run([] { return counter.get(-1); }), -1);
}

TEST_F(ContextTest, ACopyIsASnapshot) {
  counter.set(1);
  Context snapshot = Context::copy_current();
  counter.set(2);
  EXPECT_EQ(snapshot.run([] { return counter.get(); }), 1);
  EXPECT_EQ(counter.get(), 2);
}

TEST_F(ContextTest, AContextCannotBeEnteredTwice) {
  Context context;
  try {
    context.run([&] { context.run([] {}); });
    FAIL() << "no RuntimeError";
  } catch (const RuntimeError& e) {
    EXPECT_TRUE(has_shape(e.what(),
                          "cannot enter context: <_contextvars.Context object "
                          "at 0x[0-9a-f]+> is already entered"))
        << e.what();
  }
  EXPECT_NO_THROW(context.run([] {}));  // and it left cleanly
}

TEST_F(ContextTest, RunLeavesTheContextEvenWhenTheFunctionThrows) {
  Context context;
  EXPECT_THROW(context.run([] {
    counter.set(9);
    throw ValueError("boom");
  }),
               ValueError);
  EXPECT_THROW(counter.get(), LookupError);  // we are back in the thread's own context
  EXPECT_EQ(context.run([] { return counter.get(); }), 9);
}

// asyncio's call_soon(callback, context=ctx): the callback runs in a copy of
// `ctx`, whatever is current when call_soon() is called or when it runs.
TEST_F(ContextTest, CallSoonWithAContextRunsTheCallbackInIt) {
  EventLoop loop;
  request_id.set("given");
  Context given = Context::copy_current();
  request_id.set("caller");
  std::vector<std::string> seen;
  loop.call_soon([&] { seen.push_back(request_id.get()); }, given);
  loop.call_soon([&] { seen.push_back(request_id.get()); });
  testing::run_one_turn(loop);
  EXPECT_EQ(seen, (std::vector<std::string>{"given", "caller"}));
}

}  // namespace
}  // namespace looplab
