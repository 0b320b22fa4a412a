// thread_pool_executor.hpp: concurrent::ThreadPoolExecutor, a pool of
// threads that run blocking functions (Python's
// concurrent.futures.ThreadPoolExecutor, concurrent/futures/thread.py).
//
// The loop must never block: one read of a slow disk, one DNS lookup, one
// call into a library without an asynchronous API, and every task waits.
// Such a call goes to another thread instead. submit(fn, args...) queues
// the call as a work item and returns a concurrent::Future of its result
// at once; one of the pool's threads takes the item, calls fn(args...) and
// completes the future. The loop's side of it (run_in_executor(), which
// turns that future into a loop's, and to_thread()) is in event_loop.hpp
// and to_thread.hpp.
//
// The pool is CPython's: threads start lazily, one per submit that finds
// no idle thread, up to max_workers; the work items wait in one FIFO queue
// behind one mutex and one condition variable; shutdown() lets the threads
// finish what is queued (or cancels it) and joins them.
#pragma once

#include <condition_variable>
#include <cstddef>
#include <exception>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

#include "looplab/concurrent_future.hpp"
#include "looplab/exceptions.hpp"

namespace looplab::concurrent {

/// What fn(args...) returns, as a future holds it: by value.
template <typename F, typename... Args>
using call_result_t = std::remove_cvref_t<std::invoke_result_t<F, Args...>>;

namespace detail {

/// "Exception in worker" and the error, on standard error, as thread.py
/// logs an error of the worker itself (not of the function it calls).
void report_worker_error(const std::exception_ptr& error) noexcept;

// [work_item]
/// One call waiting for a thread (thread.py's _WorkItem). Intrusive: the
/// queue links the items themselves, so queueing one allocates nothing more.
/// A worker runs it in two steps: call() runs the function and keeps its
/// outcome; complete() hands the outcome to the future, whose callbacks run
/// in the worker's thread. Between the two the worker counts itself idle.
class WorkItem {
 public:
  WorkItem() = default;
  WorkItem(const WorkItem&) = delete;
  WorkItem& operator=(const WorkItem&) = delete;
  virtual ~WorkItem() = default;

  /// Runs the function, unless the future was cancelled while the item was
  /// queued: then it never runs.
  virtual void call() noexcept = 0;
  /// Completes the future with what call() kept (nothing if it did not run).
  virtual void complete() noexcept = 0;
  /// shutdown(cancel_futures=true): the item leaves the queue unrun.
  virtual void cancel() noexcept = 0;

  WorkItem* next = nullptr;  // the queue's link
};

template <typename R, typename F, typename... Args>
class Work final : public WorkItem {
 public:
  Work(Future<R> future, F fn, Args... args)
      : future_(std::move(future)), fn_(std::move(fn)), args_(std::move(args)...) {}

  void call() noexcept override {
    // [work_item_body]
    // Cancelled while it waited in the queue: the call never happens.
    if (!starts_running()) return;
    ran_ = true;
    try {
      if constexpr (std::is_void_v<R>) {
        std::apply(std::move(fn_), std::move(args_));
      } else {
        value_.emplace(std::apply(std::move(fn_), std::move(args_)));
      }
    } catch (...) {
      error_ = std::current_exception();
    }
    // [work_item_body]
  }

  void complete() noexcept override {
    if (!ran_) return;
    try {
      if (error_) {
        // Moved, not copied: this thread keeps no share of the exception,
        // which the loop's thread may read and free (event_loop.hpp).
        future_.set_exception(std::move(error_));
      } else if constexpr (std::is_void_v<R>) {
        future_.set_result();
      } else {
        future_.set_result(std::move(*value_));
      }
    } catch (...) {  // set_result() refused: nobody is left to tell
    }
  }

  void cancel() noexcept override { future_.cancel(); }

 private:
  // set_running_or_notify_cancel(), which refuses a future completed by
  // hand while its item waited. CPython's worker logs that error and ends;
  // this one logs it too, and goes on to the next item.
  bool starts_running() noexcept {
    try {
      return future_.set_running_or_notify_cancel();
    } catch (...) {
      report_worker_error(std::current_exception());
      return false;
    }
  }

  Future<R> future_;
  F fn_;
  std::tuple<Args...> args_;
  bool ran_ = false;
  std::optional<std::conditional_t<std::is_void_v<R>, bool, R>> value_;
  std::exception_ptr error_;
};
// [work_item]

}  // namespace detail

// [thread_pool_executor]
class ThreadPoolExecutor {
 public:
  /// ThreadPoolExecutor(max_workers, thread_name_prefix): at most
  /// `max_workers` threads (default: default_max_workers()), named
  /// `<prefix>_0`, `<prefix>_1`, ... (default prefix: `ThreadPoolExecutor-<k>`,
  /// k counting the executors made without one). ValueError for 0.
  explicit ThreadPoolExecutor(std::optional<std::size_t> max_workers = std::nullopt,
                              std::string thread_name_prefix = "");
  ThreadPoolExecutor(const ThreadPoolExecutor&) = delete;
  ThreadPoolExecutor& operator=(const ThreadPoolExecutor&) = delete;
  /// shutdown(true). Run on one of its own threads (the last owner let go
  /// in a work item), shutdown(false), and the threads are detached: that
  /// one cannot join itself.
  ~ThreadPoolExecutor();

  /// min(32, CPUs + 4), the CPUs this process may run on (3.13's
  /// os.process_cpu_count()): enough threads for I/O-bound work, not so
  /// many that a large machine starts hundreds.
  static std::size_t default_max_workers();

  /// executor.submit(fn, *args): fn(args...) runs on one of the pool's
  /// threads; the future gets its result or exception. fn and args are
  /// moved into the work item and called once. RuntimeError("cannot
  /// schedule new futures after shutdown") once shutdown() was called.
  template <typename F, typename... Args>
  auto submit(F fn, Args... args) -> Future<call_result_t<F, Args...>> {
    using R = call_result_t<F, Args...>;
    Future<R> future;
    submit_work(
        std::make_unique<detail::Work<R, F, Args...>>(future, std::move(fn), std::move(args)...));
    return future;
  }

  /// executor.shutdown(wait, cancel_futures): no new work from now on. The
  /// threads finish what is queued (cancel_futures: the queued items are
  /// cancelled instead, and never run) and end. With `wait`, returns once
  /// they have, for every caller, and RuntimeError("cannot join current
  /// thread") when called by one of the pool's own work items. Calling it
  /// again is harmless.
  void shutdown(bool wait = true, bool cancel_futures = false);

  std::size_t max_workers() const noexcept { return max_workers_; }
  /// Threads started so far (len(executor._threads)); they are never
  /// stopped before shutdown, so this only grows.
  std::size_t thread_count() const;
  const std::string& thread_name_prefix() const noexcept { return prefix_; }

 private:
  // What the threads share with the executor. Owned jointly, so that a
  // thread detached by a destructor it ran itself still has it.
  struct Pool {
    Pool() = default;
    Pool(const Pool&) = delete;
    Pool& operator=(const Pool&) = delete;
    ~Pool();

    std::mutex mutex;
    std::condition_variable work_ready;  // a worker waits here for an item
    detail::WorkItem* head = nullptr;    // the FIFO of work items
    detail::WorkItem* tail = nullptr;
    std::size_t queued = 0;   // items in the FIFO
    std::size_t idle = 0;     // threads not inside a call
    std::size_t waiting = 0;  // of those, threads asleep on work_ready
    std::size_t started = 0;  // threads started so far
    bool shutdown = false;
    /// The idle threads that can take an item submitted now, by this thread.
    std::size_t idle_for_new_work() const noexcept;
    std::vector<std::thread> threads;    // every thread started
    bool joining = false;                // a shutdown(true) is joining them
    bool joined = false;                 // it has: they have all ended
    std::condition_variable all_joined;  // other shutdown(true) calls wait here
  };

  void submit_work(std::unique_ptr<detail::WorkItem> item);
  void start_thread(std::unique_lock<std::mutex>& lock);
  static void worker(const std::shared_ptr<Pool>& pool) noexcept;
  /// The end of a worker's round: completes the item's future, whose done
  /// callbacks run on this thread meanwhile, and deletes the item.
  static void complete_and_delete(detail::WorkItem* item) noexcept;
  /// Is the calling thread one of this pool's workers?
  bool on_own_thread() const noexcept;

  std::shared_ptr<Pool> pool_;
  std::size_t max_workers_;
  std::string prefix_;
};
// [thread_pool_executor]

}  // namespace looplab::concurrent
