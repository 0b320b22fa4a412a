// ThreadPoolExecutor.shutdown(cancel_futures=true) cancels what is still
// queued; the running call finishes. Without it, shutdown(wait=true) lets the
// queue drain first. A concurrent future's result() waits for the worker.
#include <latch>
#include <string>
#include <vector>

#include "looplab/concurrent_future.hpp"
#include "looplab/thread_pool_executor.hpp"
#include "scenarios/executor/executor_trace.hpp"

using looplab::testing::trace;
using looplab::testing::executor::py;
using looplab::testing::executor::show;

namespace {

std::latch started(1);
std::latch release(1);

std::string blocking() {
  started.count_down();
  release.wait();
  return "running call";
}

std::string upper(std::string text) {
  for (char& c : text) c = static_cast<char>(c - 'a' + 'A');
  return text;
}

}  // namespace

LOOPLAB_SCENARIO(shutdown_cancel_futures) {
  looplab::concurrent::ThreadPoolExecutor executor(1);
  looplab::concurrent::Future<std::string> running = executor.submit(blocking);
  started.wait();
  std::vector<looplab::concurrent::Future<std::string>> queued;
  for (const char* name : {"a", "b"}) queued.push_back(executor.submit(upper, std::string(name)));
  executor.shutdown(false, true);
  trace(std::string("queued cancelled: [") + py(queued[0].cancelled()) + ", " +
        py(queued[1].cancelled()) + "]");
  show("running: ", running.running());
  release.count_down();
  show("running.result(): ", running.result());

  looplab::concurrent::ThreadPoolExecutor draining(1);
  std::vector<looplab::concurrent::Future<std::string>> futures;
  for (const char* name : {"c", "d", "e"})
    futures.push_back(draining.submit(upper, std::string(name)));
  draining.shutdown(true);
  std::vector<std::string> results;
  results.reserve(futures.size());
  for (const auto& future : futures) results.push_back(future.result());
  show("without cancel_futures: ", looplab::testing::executor::py_list(results));
}

// expect: queued cancelled: [True, True]
// expect: running: True
// expect: running.result(): running call
// expect: without cancel_futures: ['C', 'D', 'E']
