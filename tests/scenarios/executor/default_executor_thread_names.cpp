// The default executor is made on the first run_in_executor(nullptr, ...),
// with the thread name prefix "asyncio": its threads are asyncio_0,
// asyncio_1, ... A thread starts when no idle one is there (two calls that
// wait for each other need two). An executor of one's own names them after
// its prefix.
#include <pthread.h>

#include <algorithm>
#include <barrier>
#include <string>
#include <vector>

#include "looplab/event_loop.hpp"
#include "looplab/gather.hpp"
#include "looplab/run.hpp"
#include "looplab/thread_pool_executor.hpp"
#include "looplab/to_thread.hpp"
#include "scenarios/executor/executor_trace.hpp"

using looplab::testing::executor::show;

namespace {

std::string thread_name() {
  char name[16] = "";
  pthread_getname_np(pthread_self(), name, sizeof name);
  return name;
}

bool starts_with_asyncio(const std::string& name) { return name.rfind("asyncio_", 0) == 0; }

looplab::Coro<void> main_coroutine() {
  looplab::EventLoop& loop = looplab::get_running_loop();
  looplab::Future<std::string> call = loop.run_in_executor(nullptr, thread_name);
  std::string name = co_await call;
  show("first call: ", name);
  std::barrier<> barrier(2);
  auto meet = [&barrier] {
    barrier.arrive_and_wait();
    return thread_name();
  };
  looplab::Future<std::vector<std::string>> both = looplab::gather(
      loop, loop.run_in_executor(nullptr, meet), loop.run_in_executor(nullptr, meet));
  std::vector<std::string> names = co_await both;
  std::sort(names.begin(), names.end());
  show("two calls that wait for each other: ", looplab::testing::executor::py_list(names));
  looplab::concurrent::ThreadPoolExecutor own(1, "resolver");
  call = loop.run_in_executor(&own, thread_name);
  name = co_await call;
  show("own executor: ", name);
  own.shutdown();
  looplab::Coro<std::string> in_thread = looplab::to_thread(thread_name);
  name = co_await std::move(in_thread);
  show("to_thread: ", starts_with_asyncio(name));
}

}  // namespace

LOOPLAB_SCENARIO(default_executor_thread_names) { looplab::run(main_coroutine()); }

// expect: first call: asyncio_0
// expect: two calls that wait for each other: ['asyncio_0', 'asyncio_1']
// expect: own executor: resolver_0
// expect: to_thread: True
