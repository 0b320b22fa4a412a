#include "looplab/semaphore.hpp"

#include <algorithm>

#include "looplab/exceptions.hpp"
#include "looplab/plumbing/scope_exit.hpp"

namespace looplab {

Semaphore::Semaphore(int value) : Semaphore(value, std::nullopt) {}

Semaphore::Semaphore(int value, std::optional<int> bound) : state_(new State) {
  if (value < 0) throw ValueError("Semaphore initial value must be >= 0");
  state_->value = value;
  state_->bound = bound;
}

bool Semaphore::State::locked() const noexcept {
  return value == 0 || std::any_of(waiters.begin(), waiters.end(),
                                   [](const Future<bool>& w) { return !w.cancelled(); });
}

bool Semaphore::locked() const noexcept { return state_->locked(); }

// Semaphore.acquire() in CPython 3.13's Lib/asyncio/locks.py, line for line.
Coro<bool> Semaphore::acquire_in(Ref<State> state) {
  if (!state->locked()) {
    --state->value;  // first in, first out: no place is taken past a waiter
    co_return true;
  }
  Future<bool> waiter = state->get_loop().create_future<bool>();
  state->waiters.push_back(waiter);
  try {
    // finally: out of the queue however the wait ends, the frame destroyed included.
    ScopeExit forget([&state, &waiter] { std::erase(state->waiters, waiter); });
    co_await waiter;
  } catch (const CancelledError&) {
    // Woken (the place was counted as ours), then cancelled before resuming:
    // give the place back.
    if (waiter.done() && !waiter.cancelled()) ++state->value;
    wake_up_while_free(*state);
    throw;
  }
  wake_up_while_free(*state);
  co_return true;
}

void Semaphore::release() const {
  if (state_->bound && state_->value >= *state_->bound)
    throw ValueError("BoundedSemaphore released too many times");
  ++state_->value;
  wake_up_next(*state_);
}

// Takes a place for the first waiter not yet woken (or cancelled), and wakes it.
bool Semaphore::wake_up_next(State& state) {
  for (const Future<bool>& waiter : state.waiters) {
    if (!waiter.done()) {
      --state.value;
      waiter.set_result(true);
      return true;
    }
  }
  return false;
}

// asyncio's `finally:` after a wait: newcomers that queued behind this
// waiter although places were free get them now.
void Semaphore::wake_up_while_free(State& state) {
  while (state.value > 0 && wake_up_next(state)) {
  }
}

Coro<SemaphoreGuard> Semaphore::guard() const { return guard_of(*this); }

Coro<SemaphoreGuard> Semaphore::guard_of(Semaphore semaphore) {
  co_await semaphore.acquire();
  co_return SemaphoreGuard(semaphore);
}

void Semaphore::release_unless_released() const {
  if (!state_->bound || state_->value < *state_->bound) release();
}

std::string Semaphore::State::repr() const {
  std::string state = locked() ? "locked" : "unlocked, value:" + std::to_string(value);
  return repr_as(bound ? "BoundedSemaphore" : "Semaphore", state.c_str());
}

std::string Semaphore::repr() const { return state_->repr(); }

}  // namespace looplab
