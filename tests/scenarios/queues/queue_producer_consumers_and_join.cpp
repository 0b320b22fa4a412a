// A producer fills a queue of maxsize 2 for two consumers, who each work one turn on an
// item before task_done(); join() returns a turn after the last one. Each line says in
// which turn it happened: a put waits only while the queue is full, a get that finds an
// item costs no turn, and each wake-up costs one.
#include <chrono>
#include <string>

#include "looplab/queues.hpp"
#include "scenarios/tasks/task_trace.hpp"

using namespace std::chrono_literals;
using looplab::Coro;
using looplab::Queue;
using looplab::testing::py;
using looplab::testing::run_turns;
using looplab::testing::say;

namespace {

Coro<void> producer(Queue<int> queue, int count) {
  for (int item = 1; item <= count; ++item) {
    co_await queue.put(item);
    say("producer put " + std::to_string(item) + "; qsize() -> " + std::to_string(queue.qsize()));
  }
}

Coro<void> consumer(std::string name, Queue<int> queue) {
  for (;;) {
    int item = co_await queue.get();
    say(name + " got " + std::to_string(item));
    co_await looplab::sleep(0s);  // works on it for one turn
    queue.task_done();
  }
}

Coro<void> joiner(Queue<int> queue) {
  co_await queue.join();
  say("join() returns");
}

}  // namespace

LOOPLAB_SCENARIO(queue_producer_consumers_and_join) {
  looplab::VirtualClock clock;
  looplab::EventLoop loop(clock);
  Queue<int> queue(2);
  (void)looplab::create_task(loop, producer(queue, 5));
  looplab::Task<void> c1 = looplab::create_task(loop, consumer("c1", queue));
  looplab::Task<void> c2 = looplab::create_task(loop, consumer("c2", queue));
  (void)looplab::create_task(loop, joiner(queue));
  run_turns(loop, 6);
  c1.cancel();
  c2.cancel();
  run_turns(loop, 1);
  say(std::string("consumers cancelled: ") + py(c1.cancelled() && c2.cancelled()));
  loop.close();
}

// expect: turn 1: producer put 1; qsize() -> 1
// expect: turn 1: producer put 2; qsize() -> 2
// expect: turn 1: c1 got 1
// expect: turn 1: c2 got 2
// expect: turn 2: producer put 3; qsize() -> 1
// expect: turn 2: producer put 4; qsize() -> 2
// expect: turn 2: c1 got 3
// expect: turn 2: c2 got 4
// expect: turn 3: producer put 5; qsize() -> 1
// expect: turn 3: c1 got 5
// expect: turn 5: join() returns
// expect: turn 7: consumers cancelled: True
