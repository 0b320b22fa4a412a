// Eager tasks: in the same fan-out, the three cache hits are done when create_task() returns
// and never reach the loop; only the miss goes on as a task, and the parent resumes a turn earlier.
#include <map>
#include <vector>

#include "looplab/gather.hpp"
#include "scenarios/tasks/task_trace.hpp"

using namespace std::chrono_literals;
using looplab::testing::py;
using looplab::testing::run_turns;
using looplab::testing::say;

namespace {

const std::map<std::string, int> cache = {{"a", 1}, {"b", 2}, {"d", 4}};

looplab::Coro<int> lookup(std::string key) {
  if (cache.contains(key)) {
    say(key + ": cache hit");
    co_return cache.at(key);  // returns without awaiting anything
  }
  say(key + ": cache miss, asks the server");
  co_await looplab::sleep(0s);  // the server: one turn
  co_return 3;
}

looplab::Coro<void> parent(looplab::EventLoop* loop) {
  std::vector<looplab::Future<int>> lookups;
  for (char key : std::string("abcd")) {
    lookups.push_back(looplab::create_task(*loop, lookup(std::string(1, key))));
  }
  std::string done;
  for (const auto& task : lookups) done += std::string(done.empty() ? "" : ", ") + py(task.done());
  say("created 4 lookups; done: [" + done +
      "]; all_tasks: " + std::to_string(looplab::all_tasks(*loop).size()));
  looplab::Future<std::vector<int>> gathering = looplab::gather(*loop, lookups);
  std::vector<int> values = co_await gathering;
  std::string shown;
  for (int value : values) shown += (shown.empty() ? "" : ", ") + std::to_string(value);
  say("parent resumes with [" + shown + "]");
}

}  // namespace

LOOPLAB_SCENARIO(cached_fanout_eager) {
  looplab::VirtualClock clock;
  looplab::EventLoop loop(clock);
  loop.set_task_factory(looplab::eager_task_factory);
  // The loop is not running yet: lazy.
  looplab::Task<void> task = looplab::create_task(loop, parent(&loop));
  run_turns(loop, 5);
  say(std::string("parent done: ") + py(task.done()));
  loop.close();
}

// requires-python: 3.12
// expect: turn 1: a: cache hit
// expect: turn 1: b: cache hit
// expect: turn 1: c: cache miss, asks the server
// expect: turn 1: d: cache hit
// expect: turn 1: created 4 lookups; done: [True, True, False, True]; all_tasks: 2
// expect: turn 4: parent resumes with [1, 2, 3, 4]
// expect: turn 5: parent done: True
