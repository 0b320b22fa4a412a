// Condition: wait() releases the lock and takes it again before it returns, so a notified
// consumer resumes only after the notifier has left its block; wait_for() checks its predicate
// first and after each wake-up.
#include <vector>

#include "looplab/condition.hpp"
#include "scenarios/tasks/task_trace.hpp"

using looplab::testing::py;
using looplab::testing::run_turns;
using looplab::testing::say;

namespace {

using Items = std::vector<std::string>;

looplab::Coro<void> consumer(std::string name, looplab::Condition condition, Items* items) {
  looplab::LockGuard held = co_await condition.guard();
  say(name + " waits");
  auto has_items = [items] { return !items->empty(); };
  co_await condition.wait_for(has_items);
  say(name + " takes " + items->front());
  items->erase(items->begin());
}

looplab::Coro<void> producer(looplab::Condition condition, Items* items) {
  {
    looplab::LockGuard held = co_await condition.guard();
    items->push_back("apple");
    condition.notify();
    say(std::string("producer notified one; locked() -> ") + py(condition.locked()));
    co_await looplab::sleep(std::chrono::seconds(0));
    say("producer leaves its block");
  }
  co_await looplab::sleep(std::chrono::seconds(0));
  looplab::LockGuard held = co_await condition.guard();
  items->push_back("pear");
  items->push_back("plum");
  condition.notify_all();
  say("producer notified all");
}

looplab::Coro<void> wait_unlocked(looplab::Condition condition) { co_await condition.wait(); }

}  // namespace

LOOPLAB_SCENARIO(condition_notified_waiter_resumes_after_the_notifier_releases) {
  looplab::VirtualClock clock;
  looplab::EventLoop loop(clock);
  looplab::Condition condition;
  Items items;
  for (const char* name : {"a", "b"})
    (void)looplab::create_task(loop, consumer(name, condition, &items));
  run_turns(loop, 1);
  (void)looplab::create_task(loop, producer(condition, &items));
  run_turns(loop, 8);
  std::string left;
  for (const std::string& item : items) left += (left.empty() ? "'" : ", '") + item + "'";
  say("items left: [" + left + "], locked() -> " + py(condition.locked()));
  try {
    condition.notify();
  } catch (const looplab::RuntimeError& error) {
    say(std::string("RuntimeError: ") + error.what());
  }
  try {
    loop.run_until_complete(wait_unlocked(condition));
  } catch (const looplab::RuntimeError& error) {
    say(std::string("RuntimeError: ") + error.what());
  }
  loop.close();
}

// expect: turn 1: a waits
// expect: turn 1: b waits
// expect: turn 2: producer notified one; locked() -> True
// expect: turn 3: producer leaves its block
// expect: turn 4: a takes apple
// expect: turn 4: producer notified all
// expect: turn 5: b takes pear
// expect: turn 9: items left: ['plum'], locked() -> False
// expect: turn 9: RuntimeError: cannot notify on un-acquired lock
// expect: turn 9: RuntimeError: cannot wait on un-acquired lock
