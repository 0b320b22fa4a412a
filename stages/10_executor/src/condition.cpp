#include "looplab/condition.hpp"

#include <algorithm>
#include <exception>

#include "looplab/exceptions.hpp"
#include "looplab/plumbing/scope_exit.hpp"

namespace looplab {

Condition::Condition(Lock lock) : state_(new State(std::move(lock))) {}

// Condition.wait() in CPython 3.13's Lib/asyncio/locks.py. Its `finally:`
// awaits, which a C++ catch block may not: the error is kept, and the lock
// acquired again after the try. Whatever error leaves, this waiter may have
// taken a notify: it passes one on (asyncio's `except BaseException`).
Coro<bool> Condition::wait_in(Ref<State> state) {
  if (!state->lock.locked()) throw RuntimeError("cannot wait on un-acquired lock");
  Future<bool> waiter = state->get_loop().create_future<bool>();
  state->lock.release();
  std::exception_ptr error;  // what ended the wait, if not a notify
  try {
    state->waiters.push_back(waiter);
    ScopeExit forget([&state, &waiter] { std::erase(state->waiters, waiter); });
    co_await waiter;
  } catch (const CancelledError&) {
    error = std::current_exception();
  }
  // Acquire the lock again even if cancelled; keep the latest cancellation.
  for (bool acquired = false; !acquired;) {
    try {
      co_await state->lock.acquire();
      acquired = true;
    } catch (const CancelledError&) {
      error = std::current_exception();
    } catch (...) {
      notify_first(*state, 1);  // not a cancellation: stop trying, as asyncio does
      throw;
    }
  }
  if (error) {
    notify_first(*state, 1);
    std::rethrow_exception(error);
  }
  co_return true;
}

void Condition::notify(std::ptrdiff_t n) const {
  if (!state_->lock.locked()) throw RuntimeError("cannot notify on un-acquired lock");
  notify_first(*state_, n);
}

// asyncio's _notify(): wakes the first n waiters not already woken.
void Condition::notify_first(State& state, std::ptrdiff_t n) {
  std::ptrdiff_t woken = 0;
  for (const Future<bool>& waiter : state.waiters) {
    if (woken >= n) break;
    if (!waiter.done()) {
      ++woken;
      waiter.set_result(false);
    }
  }
}

}  // namespace looplab
