// run_in_executor() hands the call to a worker at once; the worker's result
// comes back as a posted callback (call_soon_threadsafe), which sets the
// asyncio future in its turn: a call_soon() made after the post runs after
// it, and the awaiting task resumes one turn later, after the done callbacks.
#include "looplab/event_loop.hpp"
#include "looplab/run.hpp"
#include "looplab/thread_pool_executor.hpp"
#include "scenarios/executor/executor_trace.hpp"

using looplab::testing::executor::show;

namespace {

int compute() { return 42; }
void nothing() {}

looplab::Coro<void> main_coroutine() {
  looplab::EventLoop& loop = looplab::get_running_loop();
  looplab::concurrent::ThreadPoolExecutor executor(1);
  looplab::Future<int> future = loop.run_in_executor(&executor, compute);
  future.add_done_callback(
      [](looplab::Future<int>& done) { show("done callback: result ", done.result()); });
  // One worker: once it has run the next item, it has posted compute's result.
  executor.submit(nothing).result();
  show("the worker has posted; done() = ", future.done());
  loop.call_soon([future] { show("call_soon made after the post: done() = ", future.done()); });
  int result = co_await future;
  show("the task resumes with ", result);
  executor.shutdown();
}

}  // namespace

LOOPLAB_SCENARIO(result_arrives_after_the_post) { looplab::run(main_coroutine()); }

// expect: the worker has posted; done() = False
// expect: call_soon made after the post: done() = True
// expect: done callback: result 42
// expect: the task resumes with 42
