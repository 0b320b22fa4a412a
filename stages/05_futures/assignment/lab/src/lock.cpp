#include "looplab/lab/lock.hpp"

#include <algorithm>
#include <stdexcept>

#include "looplab/exceptions.hpp"

namespace looplab::lab {

Lock::Lock(EventLoop& loop) : state_(new State(loop)) {}

Lock::~Lock() { state_->waiters.clear(); }

bool Lock::locked() const noexcept { return state_->locked; }

Future<bool> Lock::acquire() {
  // [lock_acquire_body]
  State& state = *state_;
  Future<bool> waiter = state.loop->create_future<bool>();
  // Fair: a waiter woken but not yet run still counts; only cancelled
  // waiters may be jumped.
  bool all_cancelled = std::all_of(state.waiters.begin(), state.waiters.end(),
                                   [](const Future<bool>& other) { return other.cancelled(); });
  if (!state.locked && all_cancelled) {
    state.locked = true;
    waiter.set_result(true);
    return waiter;
  }
  state.waiters.push_back(waiter);
  // Added first, so it runs before the caller's callbacks.
  waiter.add_done_callback([state = state_](Future<bool>& done) { waiter_done(*state, done); });
  return waiter;
  // [lock_acquire_body]
}

void Lock::release() {
  // [lock_release_body]
  if (!state_->locked) throw RuntimeError("Lock is not acquired.");
  state_->locked = false;
  wake_up_first(*state_);
  // [lock_release_body]
}

void Lock::wake_up_first(State& state) {
  // [lock_wake_up_first_body]
  if (state.waiters.empty()) return;
  // done(): woken already (it will claim the lock), or cancelled (its
  // callback will wake the next one).
  const Future<bool>& first = state.waiters.front();
  if (!first.done()) first.set_result(true);
  // [lock_wake_up_first_body]
}

void Lock::waiter_done(State& state, const Future<bool>& waiter) {
  // [lock_waiter_done_body]
  auto found = std::find(state.waiters.begin(), state.waiters.end(), waiter);
  if (found != state.waiters.end()) state.waiters.erase(found);
  if (waiter.cancelled()) {
    if (!state.locked) wake_up_first(state);
    return;
  }
  state.locked = true;
  // [lock_waiter_done_body]
}

std::string Lock::repr() const {
  std::string extra = state_->locked ? "locked" : "unlocked";
  if (!state_->waiters.empty()) extra += ", waiters:" + std::to_string(state_->waiters.size());
  return "<Lock [" + extra + "]>";
}

}  // namespace looplab::lab
