// asyncio.LifoQueue and PriorityQueue (CPython 3.13, Lib/asyncio/queues.py):
// the same queue as Queue, with another _put() and _get() (queue_items.hpp).
#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

#include "queues/support.hpp"

namespace looplab {
namespace {

using testing::TestLoop;

template <typename Q>
std::vector<int> drain(const Q& queue) {
  std::vector<int> items;
  while (!queue.empty()) items.push_back(queue.get_nowait());
  return items;
}

TEST(LifoQueue, GivesTheNewestItemFirst) {
  LifoQueue<int> queue;
  for (int item : {1, 2, 3}) queue.put_nowait(item);
  EXPECT_EQ(queue.repr(), "<LifoQueue maxsize=0 tasks=3>");
  EXPECT_EQ(drain(queue), (std::vector<int>{3, 2, 1}));
}

TEST(PriorityQueue, GivesTheSmallestItemFirst) {
  PriorityQueue<int> queue;
  for (int item : {5, 1, 4, 1, 3, 9, 2, 6}) queue.put_nowait(item);
  EXPECT_EQ(queue.repr(), "<PriorityQueue maxsize=0 tasks=8>");
  EXPECT_EQ(drain(queue), (std::vector<int>{1, 1, 2, 3, 4, 5, 6, 9}));
}

struct Job {
  int priority;
  char name;
  bool operator<(const Job& other) const { return priority < other.priority; }
};

TEST(PriorityQueue, EqualItemsComeOutInHeapqsOrder) {
  PriorityQueue<Job> queue;
  for (char name : std::string("abcde")) queue.put_nowait(Job{5, name});
  std::string order;
  while (!queue.empty()) order += queue.get_nowait().name;
  EXPECT_EQ(order, "acebd") << "heapq.heappop's order for five equal items pushed a..e";
}

TEST(PriorityQueue, AFullQueueMakesPutWaitAndGetTakesTheSmallest) {
  TestLoop t;
  PriorityQueue<std::pair<int, std::string>> queue(2);
  queue.put_nowait({2, "two"});
  queue.put_nowait({1, "one"});
  EXPECT_TRUE(queue.full());
  Task<void> putter = create_task(t.loop, queue.put({0, "zero"}));
  t.turn();
  EXPECT_FALSE(putter.done()) << "full: the put waits for room";
  EXPECT_EQ(queue.get_nowait().second, "one");
  t.turns(2);
  EXPECT_TRUE(putter.done());
  EXPECT_EQ(queue.get_nowait().second, "zero");
  EXPECT_EQ(queue.get_nowait().second, "two");
}

}  // namespace
}  // namespace looplab
