// demo.cpp: stage 10 in one page. Run it: build/dev/bin/demo_s10
//
// Blocking calls kept off the loop. A task hands a blocking function to
// the loop's default executor with run_in_executor() and awaits its
// result; to_thread() does the same in a copy of the task's Context, so the
// thread sees the task's request id; two blocking calls that can only
// finish together (each waits for the other at a latch) prove that two
// threads run them; an exception thrown in a thread comes back to the
// awaiting task; a numeric address resolves without any thread. run()
// then shuts the default executor down before it closes the loop. Only
// the loop's thread prints, so the output is the same on every run.
#include <pthread.h>
#include <sys/socket.h>

#include <cstdio>
#include <latch>
#include <string>

#include "looplab/context.hpp"
#include "looplab/event_loop.hpp"
#include "looplab/run.hpp"
#include "looplab/task.hpp"
#include "looplab/to_thread.hpp"

using looplab::Coro;

// [demo]
looplab::ContextVar<std::string> request_id("request_id", "none");

// Strings are put together in plain functions, never inside a coroutine
// (g++ 12 -O2 warns falsely there).
void say(const char* what, const char* detail) { std::printf("  loop: %s%s\n", what, detail); }
void say(const char* what, const std::string& detail) { say(what, detail.c_str()); }

std::string thread_name() {
  char name[16] = {};
  pthread_getname_np(pthread_self(), name, sizeof name);
  return name;
}

// Blocking functions: each would stop the loop if the loop called it.
std::string who_runs_me() { return thread_name() + ", request " + request_id.get(); }
int meet_at(std::latch* latch, int value) {
  latch->arrive_and_wait();  // returns only once the other call has arrived too
  return value;
}
int refuse() { throw looplab::ValueError("the thread refused"); }

std::string threads_of(looplab::EventLoop& loop) {
  return std::to_string(loop.default_executor_if_any()->thread_count());
}

Coro<void> main_task() {
  looplab::EventLoop& loop = looplab::get_running_loop();
  request_id.set("r-17");

  looplab::Future<std::string> plain = loop.run_in_executor(nullptr, who_runs_me);
  say("run_in_executor() ran in ", co_await plain);
  say("to_thread() ran in ", co_await looplab::to_thread(who_runs_me));

  std::latch both(2);
  looplab::Future<int> first = loop.run_in_executor(nullptr, meet_at, &both, 1);
  looplab::Future<int> second = loop.run_in_executor(nullptr, meet_at, &both, 2);
  co_await first;
  co_await second;
  say("two calls that wait for each other returned; threads started: ", threads_of(loop));

  try {
    co_await looplab::to_thread(refuse);
  } catch (const looplab::ValueError& error) {
    say("the task caught the thread's ValueError: ", error.what());
  }

  looplab::Future<std::vector<looplab::AddrInfo>> numeric =
      loop.getaddrinfo("127.0.0.1", "8080", 0, SOCK_STREAM);
  say("getaddrinfo(\"127.0.0.1\") answered without a thread: ", numeric.done() ? "yes" : "no");
}

int main() {
  std::printf("Blocking calls, each on a thread of the default executor:\n");
  looplab::run(main_task());
  std::printf("run() returned: the executor's threads have ended\n");
}
// [demo]
