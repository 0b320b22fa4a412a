// One worker runs the calls in the order they were submitted, and their
// results come back in that order: the asyncio futures' done callbacks run in
// submission order, whatever order the coroutine awaits them in.
#include <string>
#include <vector>

#include "looplab/event_loop.hpp"
#include "looplab/gather.hpp"
#include "looplab/run.hpp"
#include "looplab/thread_pool_executor.hpp"
#include "scenarios/executor/executor_trace.hpp"

using looplab::testing::trace;
using looplab::testing::executor::show;

namespace {

int square(int n) { return n * n; }

void show_done(int n, int result) {
  trace("done: square(" + std::to_string(n) + ") = " + std::to_string(result));
}

looplab::Coro<void> main_coroutine() {
  looplab::EventLoop& loop = looplab::get_running_loop();
  looplab::concurrent::ThreadPoolExecutor executor(1);
  std::vector<looplab::Future<int>> futures;
  for (int n = 1; n <= 4; ++n) futures.push_back(loop.run_in_executor(&executor, square, n));
  for (int n = 1; n <= 4; ++n) {
    futures[n - 1].add_done_callback(
        [n](looplab::Future<int>& done) { show_done(n, done.result()); });
  }
  looplab::Future<int> last = futures.back();
  int result = co_await last;
  show("awaited last first: ", result);
  looplab::Future<std::vector<int>> all = looplab::gather(loop, futures);
  std::vector<int> results = co_await all;
  show("gather: ", looplab::testing::executor::py_list(results));
  executor.shutdown();
}

}  // namespace

LOOPLAB_SCENARIO(single_worker_fifo) { looplab::run(main_coroutine()); }

// expect: done: square(1) = 1
// expect: done: square(2) = 4
// expect: done: square(3) = 9
// expect: done: square(4) = 16
// expect: awaited last first: 16
// expect: gather: [1, 4, 9, 16]
