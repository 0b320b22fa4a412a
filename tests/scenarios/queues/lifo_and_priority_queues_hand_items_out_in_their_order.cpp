// LifoQueue gives the newest item first, PriorityQueue the smallest, and items that compare equal
// come out in heapq's order (not the order they were put in); a getter waiting on either is
// woken by the next put, a turn later.
#include <string>
#include <vector>

#include "looplab/queues.hpp"
#include "scenarios/tasks/task_trace.hpp"

using looplab::testing::run_turns;
using looplab::testing::say;

namespace {

/// Ordered by priority only: two jobs of one priority compare equal.
struct Job {
  int priority;
  std::string name;
  bool operator<(const Job& other) const { return priority < other.priority; }
};

looplab::Coro<void> getter(looplab::PriorityQueue<Job> queue) {
  Job job = co_await queue.get();
  say("getter got " + job.name);
}

template <typename Queue, typename Show>
std::string take_all(const Queue& queue, std::size_t count, Show show) {
  std::string text;
  for (std::size_t i = 0; i < count; ++i) text += (i == 0 ? "" : ", ") + show(queue.get_nowait());
  return "[" + text + "]";
}

}  // namespace

LOOPLAB_SCENARIO(lifo_and_priority_queues_hand_items_out_in_their_order) {
  looplab::VirtualClock clock;
  looplab::EventLoop loop(clock);
  looplab::LifoQueue<int> lifo;
  for (int item : {3, 1, 2}) lifo.put_nowait(item);
  say("LifoQueue gives " + take_all(lifo, 3, [](int item) { return std::to_string(item); }));
  looplab::PriorityQueue<Job> jobs;
  auto quoted = [](const Job& job) { return "'" + job.name + "'"; };
  for (const Job& job :
       std::vector<Job>{{2, "b1"}, {1, "a1"}, {2, "b2"}, {1, "a2"}, {2, "b3"}, {0, "z"}})
    jobs.put_nowait(job);
  say("PriorityQueue gives " + take_all(jobs, 6, quoted));
  for (const char* name : {"a", "b", "c", "d", "e"}) jobs.put_nowait(Job{5, name});
  say("five equal jobs come out as " + take_all(jobs, 5, quoted));
  try {
    (void)jobs.get_nowait();
  } catch (const looplab::QueueEmpty&) {
    say("empty: QueueEmpty");
  }
  (void)looplab::create_task(loop, getter(jobs));
  run_turns(loop, 1);
  jobs.put_nowait(Job{1, "late"});
  say("put a job for the waiting getter");
  run_turns(loop, 1);
  loop.close();
}

// expect: turn 0: LifoQueue gives [2, 1, 3]
// expect: turn 0: PriorityQueue gives ['z', 'a1', 'a2', 'b2', 'b1', 'b3']
// expect: turn 0: five equal jobs come out as ['a', 'c', 'e', 'b', 'd']
// expect: turn 0: empty: QueueEmpty
// expect: turn 1: put a job for the waiting getter
// expect: turn 2: getter got late
