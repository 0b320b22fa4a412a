#include "looplab/thread_pool_executor.hpp"

#include <pthread.h>
#include <sched.h>

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <iostream>

namespace looplab::concurrent {
namespace {

// Names the calling thread, as the system's tools show it (top -H, gdb,
// /proc/PID/task/TID/comm): at most 15 characters, the rest cut off.
void set_thread_name(const std::string& name) {
  std::string shown = name.substr(0, 15);
  ::pthread_setname_np(::pthread_self(), shown.c_str());
}

std::string default_prefix() {
  // thread.py's _counter: only the executors that were given no prefix count.
  static std::atomic<unsigned> counter{0};
  return "ThreadPoolExecutor-" + std::to_string(counter.fetch_add(1, std::memory_order_relaxed));
}

std::size_t checked_max_workers(std::optional<std::size_t> max_workers) {
  std::size_t count = max_workers.value_or(ThreadPoolExecutor::default_max_workers());
  if (count == 0) throw ValueError("max_workers must be greater than 0");
  return count;
}

// The pool whose worker the calling thread is, if it is one.
thread_local const void* current_pool = nullptr;
// Set while that worker completes a future: its done callbacks are running.
thread_local bool completing = false;

}  // namespace

namespace detail {
void report_worker_error(const std::exception_ptr& error) noexcept {
  try {
    std::cerr << "Exception in worker\n" << traceback_last_line(error) << std::endl;
  } catch (...) {  // nothing left to tell it to
  }
}
}  // namespace detail

ThreadPoolExecutor::ThreadPoolExecutor(std::optional<std::size_t> max_workers,
                                       std::string thread_name_prefix)
    : pool_(std::make_shared<Pool>()),
      max_workers_(checked_max_workers(max_workers)),  // before a prefix number is taken
      prefix_(thread_name_prefix.empty() ? default_prefix() : std::move(thread_name_prefix)) {}

ThreadPoolExecutor::~ThreadPoolExecutor() {
  if (on_own_thread()) {
    // The last owner let go inside one of the pool's own work items: this
    // thread cannot wait for itself. The threads end on their own once the
    // queue is empty, and own the Pool until then.
    shutdown(false);
    for (std::thread& worker_thread : pool_->threads) {
      if (worker_thread.joinable()) worker_thread.detach();
    }
    return;
  }
  shutdown(true);
}

bool ThreadPoolExecutor::on_own_thread() const noexcept { return current_pool == pool_.get(); }

// A worker counts itself idle while it completes its last future
// (worker()), but it cannot take work its own done callbacks submit until
// they return: one that waited for that work would wait for itself.
std::size_t ThreadPoolExecutor::Pool::idle_for_new_work() const noexcept {
  return idle - (completing && current_pool == this ? 1 : 0);
}

ThreadPoolExecutor::Pool::~Pool() {
  // Only items no thread ever took: one whose thread failed to start.
  while (head != nullptr) delete std::exchange(head, head->next);
}

std::size_t ThreadPoolExecutor::default_max_workers() {
  cpu_set_t cpus;
  CPU_ZERO(&cpus);
  std::size_t count = 0;
  if (::sched_getaffinity(0, sizeof cpus, &cpus) == 0) {
    count = static_cast<std::size_t>(CPU_COUNT(&cpus));
  } else {
    count = std::max(1u, std::thread::hardware_concurrency());
  }
  return std::min<std::size_t>(32, count + 4);
}

std::size_t ThreadPoolExecutor::thread_count() const {
  std::lock_guard lock(pool_->mutex);
  return pool_->started;
}

// [submit_work]
void ThreadPoolExecutor::submit_work(std::unique_ptr<detail::WorkItem> item) {
  // [submit_work_body]
  Pool& pool = *pool_;
  std::unique_lock lock(pool.mutex);
  if (pool.shutdown) throw RuntimeError("cannot schedule new futures after shutdown");
  detail::WorkItem* work = item.release();
  if (pool.tail == nullptr) {
    pool.head = work;
  } else {
    pool.tail->next = work;
  }
  pool.tail = work;
  ++pool.queued;
  // thread.py's _adjust_thread_count(): enough idle threads to take every
  // queued item, or one more thread, up to max_workers. Wake a thread only
  // if one sleeps: an idle thread that is still completing its last future
  // looks at the queue before it sleeps.
  if (pool.idle_for_new_work() >= pool.queued) {
    bool wake = pool.waiting > 0;
    lock.unlock();
    if (wake) pool.work_ready.notify_one();
  } else if (pool.started < max_workers_) {
    start_thread(lock);
  }
  // [submit_work_body]
}

void ThreadPoolExecutor::start_thread(std::unique_lock<std::mutex>& lock) {
  std::string name = prefix_ + "_" + std::to_string(pool_->started);
  pool_->threads.emplace_back([pool = pool_, name = std::move(name)] {
    set_thread_name(name);
    worker(pool);
  });
  ++pool_->started;
  ++pool_->idle;  // until it takes an item
  lock.unlock();
}
// [submit_work]

// [worker]
// thread.py's _worker(): take the oldest item, run it, again, until the
// executor shuts down and the queue is empty.
void ThreadPoolExecutor::worker(const std::shared_ptr<Pool>& shared) noexcept {
  Pool& pool = *shared;
  current_pool = &pool;
  std::unique_lock lock(pool.mutex);
  for (;;) {
    // [worker_body]
    while (pool.head == nullptr) {
      if (pool.shutdown) return;
      ++pool.waiting;
      pool.work_ready.wait(lock);
      --pool.waiting;
    }
    detail::WorkItem* item = pool.head;
    pool.head = item->next;
    if (pool.head == nullptr) pool.tail = nullptr;
    --pool.queued;
    --pool.idle;
    lock.unlock();
    item->call();
    // Idle from the moment the call returns, before the future completes:
    // a loop that submits the next item as soon as it hears of this one
    // finds this thread idle and starts no other. (CPython counts a thread
    // idle only once it finds the queue empty, after completing the
    // future, and may start a thread for each of a loop's sequential calls.)
    lock.lock();
    ++pool.idle;
    lock.unlock();
    complete_and_delete(item);
    lock.lock();
    // [worker_body]
  }
}
// [worker]

// Work the callbacks submit meanwhile cannot go to this thread, which is
// busy running them: idle_for_new_work() reads the flag.
void ThreadPoolExecutor::complete_and_delete(detail::WorkItem* item) noexcept {
  completing = true;
  item->complete();
  completing = false;
  delete item;
}

// [shutdown]
void ThreadPoolExecutor::shutdown(bool wait, bool cancel_futures) {
  // [shutdown_body]
  Pool& pool = *pool_;
  detail::WorkItem* cancelled = nullptr;
  {
    std::lock_guard lock(pool.mutex);
    pool.shutdown = true;  // no thread starts from now on: pool.threads is final
    if (cancel_futures) {
      cancelled = std::exchange(pool.head, nullptr);
      pool.tail = nullptr;
      pool.queued = 0;
    }
  }
  pool.work_ready.notify_all();  // every sleeping thread sees the shutdown
  // Outside the lock: cancelling runs the futures' callbacks.
  while (cancelled != nullptr) {
    detail::WorkItem* item = std::exchange(cancelled, cancelled->next);
    item->cancel();
    delete item;
  }
  if (!wait) return;
  // thread.py joins every thread, whoever calls: a work item cannot.
  if (on_own_thread()) throw RuntimeError("cannot join current thread");
  std::unique_lock lock(pool.mutex);
  if (pool.joining) {  // another caller joins them: wait as long as it does
    pool.all_joined.wait(lock, [&pool] { return pool.joined; });
    return;
  }
  pool.joining = true;
  lock.unlock();
  for (std::thread& worker_thread : pool.threads) worker_thread.join();
  lock.lock();
  pool.joined = true;
  pool.all_joined.notify_all();
  // [shutdown_body]
}
// [shutdown]

}  // namespace looplab::concurrent
