#include "looplab/threadsafe_queue.hpp"

#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>
#include <utility>

#include "looplab/exceptions.hpp"

namespace looplab {

ThreadsafeQueue::WakeRule default_wake_rule() {
  const char* chosen = std::getenv("LOOPLAB_WAKE");
  if (chosen == nullptr || *chosen == '\0') return ThreadsafeQueue::WakeRule::kOncePerDrain;
  std::string_view name = chosen;
  if (name == "every_post") return ThreadsafeQueue::WakeRule::kEveryPost;
  if (name == "once_per_drain") return ThreadsafeQueue::WakeRule::kOncePerDrain;
  throw ValueError("LOOPLAB_WAKE=" + std::string(name) + ": expected every_post or once_per_drain");
}

// [threadsafe_post_body]
Handle ThreadsafeQueue::post(Callback callback, const Context* context, SourceLocation where) {
  // [post_body]
  auto [queued, handle] = ThreadsafeHandleState::make(
      std::move(callback), context != nullptr ? *context : Context::copy_current(), where);
  bool wake = false;
  {
    std::lock_guard lock(mutex_);
    if (closed_) throw RuntimeError("Event loop is closed");
    posted_.push_back(std::move(queued));
    nonempty_.store(true, std::memory_order_release);
    wake = rule_ == WakeRule::kEveryPost || !wake_pending_;
    wake_pending_ = true;
  }
  // Outside the lock: the loop may be taking the queue meanwhile, and a
  // write it does not need costs a spare turn, never a lost callback.
  if (wake) pipe_.write_to_self();
  return std::move(handle);
  // [post_body]
}
// [threadsafe_post_body]

// [threadsafe_take_all]
void ThreadsafeQueue::take_all(RingBuffer<Ref<HandleState>>& ready) {
  // [take_all_body]
  {
    std::lock_guard lock(mutex_);
    posted_.swap(taking_);
    nonempty_.store(false, std::memory_order_relaxed);
  }
  for (Ref<HandleState>& handle : taking_) ready.push_back(std::move(handle));
  taking_.clear();
  // [take_all_body]
}
// [threadsafe_take_all]

// [threadsafe_drain]
void ThreadsafeQueue::drain() {
  // Read first, then clear the flag. Cleared first, a post in between
  // would write and set the flag again, and the read would then take that
  // byte away: the flag would stay set over an empty pipe, no later post
  // would write, and the loop could sleep with work queued.
  pipe_.read_from_self();
  std::lock_guard lock(mutex_);
  wake_pending_ = false;
}
// [threadsafe_drain]

void ThreadsafeQueue::close() {
  std::vector<Ref<HandleState>> dropped;
  {
    std::lock_guard lock(mutex_);
    closed_ = true;
    dropped.swap(posted_);
    nonempty_.store(false, std::memory_order_relaxed);
  }
  // Released outside the lock: a callback's captures may post (and be refused).
}

}  // namespace looplab
