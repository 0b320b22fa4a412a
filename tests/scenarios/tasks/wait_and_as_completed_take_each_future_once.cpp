// wait() and as_completed() take a future given twice once (asyncio makes a set of them); an
// as_completed() next() still waiting goes on after its iterator is gone, and a consumer woken and
// then cancelled passes its result on to the next one.
#include <string>
#include <vector>

#include "looplab/wait.hpp"
#include "scenarios/tasks/task_trace.hpp"

using looplab::Future;
using looplab::testing::py;
using looplab::testing::say_at;
using namespace std::chrono_literals;

namespace {

looplab::Coro<int> answer(std::chrono::seconds delay, int value) {
  co_await looplab::sleep(delay);
  co_return value;
}

looplab::Coro<void> consumer(std::string name, looplab::Coro<int> next_result) {
  try {
    int value = co_await std::move(next_result);
    say_at(looplab::get_running_loop(), name + " got " + std::to_string(value));
  } catch (const looplab::CancelledError&) {
    say_at(looplab::get_running_loop(), name + " cancelled");
    throw;
  }
}

looplab::Coro<void> main_task() {
  looplab::EventLoop& loop = looplab::get_running_loop();
  Future<int> t = looplab::create_task(loop, answer(1s, 1));
  Future<int> u = looplab::create_task(loop, answer(2s, 2));
  std::vector<Future<int>> twice{t, t, u};
  looplab::WaitResult<int> waited = co_await looplab::wait(twice);
  say_at(loop, "wait([t, t, u]): " + std::to_string(waited.done.size()) + " done, " +
                   std::to_string(waited.pending.size()) + " pending");
  Future<int> v = looplab::create_task(loop, answer(1s, 3));
  std::vector<Future<int>> v_twice{v, v};
  looplab::AsCompleted<int> each = looplab::as_completed(v_twice);
  std::string results;
  while (each.size() > 0)
    results += (results.empty() ? "" : ", ") + std::to_string(co_await each.next());
  say_at(loop, "as_completed([v, v]) gave [" + results + "]");
  std::vector<Future<int>> w{looplab::create_task(loop, answer(1s, 4))};
  looplab::Coro<int> next_result = looplab::as_completed(w).next();  // the iterator is gone here
  int four = co_await std::move(next_result);
  say_at(loop, "a next() whose iterator is gone -> " + std::to_string(four));
  Future<int> f1 = loop.create_future<int>();
  Future<int> f2 = loop.create_future<int>();
  std::vector<Future<int>> both{f1, f2};
  looplab::AsCompleted<int> it = looplab::as_completed(both);
  looplab::Task<void> a = looplab::create_task(loop, consumer("a", it.next()));
  looplab::Task<void> b = looplab::create_task(loop, consumer("b", it.next()));
  co_await looplab::sleep(0s);
  f1.set_result(5);
  loop.call_soon([a] { a.cancel(); });  // right after a is woken for f1's result
  co_await looplab::sleep(500ms);
  say_at(loop, std::string("b done: ") + py(b.done()));
  f2.set_result(6);
  co_await looplab::sleep(0s);
}

}  // namespace

LOOPLAB_SCENARIO(wait_and_as_completed_take_each_future_once) {
  looplab::VirtualClock clock;
  looplab::EventLoop loop(clock);
  loop.run_until_complete(main_task());
  loop.close();
}

// expect: t=2.000 wait([t, t, u]): 2 done, 0 pending
// expect: t=3.000 as_completed([v, v]) gave [3]
// expect: t=4.000 a next() whose iterator is gone -> 4
// expect: t=4.000 a cancelled
// expect: t=4.000 b got 5
// expect: t=4.500 b done: True
