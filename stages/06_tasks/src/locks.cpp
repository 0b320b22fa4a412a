#include "looplab/locks.hpp"

#include <algorithm>

#include "looplab/exceptions.hpp"
#include "looplab/plumbing/scope_exit.hpp"

namespace looplab {

namespace detail {

std::string WaiterQueue::repr_as(const char* kind, const char* state) const {
  std::string text = std::string("<") + kind + " [" + state;
  if (!waiters.empty()) text += ", waiters:" + std::to_string(waiters.size());
  return text + "]>";
}

}  // namespace detail

// ---- Event ------------------------------------------------------------------

Event::Event() : state_(new State) {}

void Event::set() const {
  if (state_->value) return;
  state_->value = true;
  // A waiter woken and not yet resumed is still queued: done, so skipped.
  for (const Future<bool>& waiter : state_->waiters) {
    if (!waiter.done()) waiter.set_result(true);
  }
}

Coro<bool> Event::wait_in(Ref<State> state) {
  if (state->value) co_return true;
  Future<bool> waiter = state->get_loop().create_future<bool>();
  state->waiters.push_back(waiter);
  // finally: out of the queue however the wait ends, the frame destroyed included.
  ScopeExit forget([&state, &waiter] { std::erase(state->waiters, waiter); });
  co_await waiter;
  co_return true;
}

std::string Event::repr() const { return state_->repr(); }

// ---- Lock -------------------------------------------------------------------

Lock::Lock() : state_(new State) {}

// [lock_acquire]
// Lock.acquire() in Lib/asyncio/locks.py, line for line.
Coro<bool> Lock::acquire_in(Ref<State> state) {
  // Fair: only a queue of cancelled waiters may be jumped.
  if (!state->locked && std::all_of(state->waiters.begin(), state->waiters.end(),
                                    [](const Future<bool>& w) { return w.cancelled(); })) {
    state->locked = true;
    co_return true;
  }
  Future<bool> waiter = state->get_loop().create_future<bool>();
  state->waiters.push_back(waiter);
  try {
    // finally: out of the queue however the wait ends, the frame destroyed included.
    ScopeExit forget([&state, &waiter] { std::erase(state->waiters, waiter); });
    co_await waiter;
  } catch (const CancelledError&) {
    // Cancelled while waiting, or woken and cancelled before resuming:
    // the lock is not ours, so it must not stay free with waiters queued.
    if (!state->locked) wake_up_first(*state);
    throw;
  }
  // Claimed only now, as the woken task resumes: until then a newcomer
  // finds this waiter queued and not cancelled, and waits behind it.
  state->locked = true;
  co_return true;
}
// [lock_acquire]

void Lock::release() const {
  if (!state_->locked) throw RuntimeError("Lock is not acquired.");
  state_->locked = false;
  wake_up_first(*state_);
}

// Done already: woken (it will claim the lock), or cancelled (its
// CancelledError branch will wake the next one).
void Lock::wake_up_first(State& state) {
  if (state.waiters.empty()) return;
  const Future<bool>& first = state.waiters.front();
  if (!first.done()) first.set_result(true);
}

Coro<LockGuard> Lock::guard() const { return guard_of(*this); }

Coro<LockGuard> Lock::guard_of(Lock lock) {
  co_await lock.acquire();
  co_return LockGuard(lock);
}

std::string Lock::repr() const { return state_->repr(); }

}  // namespace looplab
