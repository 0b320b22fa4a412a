// demo.cpp: stage 08 in one page. Run it: build/dev/bin/demo_s08
//
// The same three children twice, one of which fails after 1 s: first
// under gather(), then in a TaskGroup. gather() hands its awaiter the first
// error at once, and the others run on, unsupervised; the group cancels
// them, waits for them, and raises every error together. The clock is
// virtual, so the output is the same on every machine.
#include <chrono>
#include <cstdio>
#include <string>
#include <vector>

#include "looplab/gather.hpp"
#include "looplab/run.hpp"
#include "looplab/sleep.hpp"
#include "looplab/task.hpp"
#include "looplab/task_group.hpp"

using namespace std::chrono_literals;
using looplab::Coro;
using looplab::TaskGroup;

// [demo]
void say(const std::string& what) {
  double now =
      std::chrono::duration<double>(looplab::get_running_loop().time().time_since_epoch()).count();
  std::printf("  t=%.0f s  %s\n", now, what.c_str());
}

Coro<int> child(std::string name, std::chrono::seconds work, bool fails) {
  try {
    co_await looplab::sleep(work);
  } catch (const looplab::CancelledError&) {
    say(name + " cancelled");
    throw;
  }
  if (fails) {
    say(name + " fails");
    throw looplab::ValueError(name + " failed");
  }
  say(name + " done");
  co_return 1;
}

Coro<void> with_gather() {
  looplab::EventLoop& loop = looplab::get_running_loop();
  std::vector<looplab::Future<int>> children{looplab::create_task(loop, child("a", 1s, true)),
                                             looplab::create_task(loop, child("b", 2s, false)),
                                             looplab::create_task(loop, child("c", 3s, false))};
  try {
    co_await looplab::gather(loop, children);
  } catch (const looplab::ValueError& error) {
    say(std::string("gather raised: ") + error.what());
  }
  co_await looplab::sleep(3s);  // meanwhile b and c run on
}

Coro<void> three_children(TaskGroup* group) {
  group->create_task(child("a", 1s, true));
  group->create_task(child("b", 2s, false));
  group->create_task(child("c", 3s, false));
  co_return;
}

Coro<void> with_task_group() {
  try {
    co_await looplab::task_group(three_children);
  } catch (const looplab::ExceptionGroup& group) {
    say(std::string("the group raised: ") + group.what());
    auto [value_errors, rest] = group.split<looplab::ValueError>();  // except* ValueError
    if (value_errors) say(std::to_string(value_errors->exceptions().size()) + " ValueError");
    if (rest) throw *rest;
  }
}

int main() {
  std::printf("gather():\n");
  looplab::VirtualClock gather_clock;
  looplab::run(with_gather(), gather_clock);
  std::printf("TaskGroup:\n");
  looplab::VirtualClock group_clock;
  looplab::run(with_task_group(), group_clock);
}
// [demo]
