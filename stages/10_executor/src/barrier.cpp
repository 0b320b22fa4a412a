#include "looplab/barrier.hpp"

#include "looplab/locks.hpp"

namespace looplab {

Barrier::Barrier(int parties) {
  if (parties < 1) throw ValueError("parties must be > 0");
  state_ = Ref<State>(new State(parties));
}

// Barrier.wait(), with its _block(), _release() and _wait(), in CPython's
// Lib/asyncio/locks.py. Its `finally:` is the catch-and-rethrow below.
Coro<int> Barrier::wait_in(Ref<State> state) {
  LockGuard held = co_await state->condition.guard();
  // Wait while the last round drains or resets.
  auto ready_for_us = [&state] {
    return state->phase != Phase::kDraining && state->phase != Phase::kResetting;
  };
  co_await state->condition.wait_for(ready_for_us);
  if (state->phase == Phase::kBroken) throw BrokenBarrierError("Barrier aborted");
  const int index = state->count++;
  try {
    if (index + 1 == state->parties) {
      state->phase = Phase::kDraining;  // the last to arrive releases the others
      state->condition.notify_all();
    } else {
      auto filled = [&state] { return state->phase != Phase::kFilling; };
      co_await state->condition.wait_for(filled);
      if (state->phase == Phase::kBroken || state->phase == Phase::kResetting) {
        throw BrokenBarrierError("Abort or reset of barrier");
      }
    }
  } catch (...) {
    leave(*state);
    throw;
  }
  leave(*state);
  co_return index;
}

// asyncio's _exit(): the last to leave ends the draining or the reset.
void Barrier::leave(State& state) {
  --state.count;
  if (state.count == 0) {
    if (state.phase == Phase::kResetting || state.phase == Phase::kDraining) {
      state.phase = Phase::kFilling;
    }
    state.condition.notify_all();
  }
}

Coro<void> Barrier::reset_in(Ref<State> state) {
  LockGuard held = co_await state->condition.guard();
  // Waiters in the round leave broken, and the last one out refills it.
  state->phase = state->count > 0 ? Phase::kResetting : Phase::kFilling;
  state->condition.notify_all();
}

Coro<void> Barrier::abort_in(Ref<State> state) {
  LockGuard held = co_await state->condition.guard();
  state->phase = Phase::kBroken;
  state->condition.notify_all();
}

int Barrier::n_waiting() const noexcept {
  return state_->phase == Phase::kFilling ? state_->count : 0;
}

std::string Barrier::repr() const {
  static constexpr const char* kPhaseNames[] = {"filling", "draining", "resetting", "broken"};
  std::string extra = kPhaseNames[static_cast<int>(state_->phase)];
  if (!broken()) {
    extra += ", waiters:" + std::to_string(n_waiting()) + "/" + std::to_string(parties());
  }
  return "<Barrier [" + extra + "]>";
}

}  // namespace looplab
