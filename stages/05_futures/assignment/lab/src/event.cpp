#include "looplab/lab/event.hpp"

#include <deque>
#include <stdexcept>

namespace looplab::lab {

Event::Event(EventLoop& loop) : state_(new State(loop)) {}

Event::~Event() { state_->waiters.clear(); }

bool Event::is_set() const noexcept { return state_->value; }

void Event::set() {
  // [event_set_body]
  if (state_->value) return;
  state_->value = true;
  // Completing a future only queues its callbacks: the queue does not
  // change under this loop.
  for (const Future<bool>& waiter : state_->waiters) {
    if (!waiter.done()) waiter.set_result(true);
  }
  // [event_set_body]
}

void Event::clear() noexcept { state_->value = false; }

Future<bool> Event::wait() {
  // [event_wait_body]
  Future<bool> waiter = state_->loop->create_future<bool>();
  if (state_->value) {
    waiter.set_result(true);
    return waiter;
  }
  state_->waiters.push_back(waiter);
  waiter.add_done_callback([state = state_](Future<bool>& done) { forget_waiter(*state, done); });
  return waiter;
  // [event_wait_body]
}

void Event::forget_waiter(State& state, const Future<bool>& waiter) {
  std::erase(state.waiters, waiter);  // it is queued once, or not at all after ~Event()
}

std::string Event::repr() const {
  std::string extra = state_->value ? "set" : "unset";
  if (!state_->waiters.empty()) extra += ", waiters:" + std::to_string(state_->waiters.size());
  return "<Event [" + extra + "]>";
}

}  // namespace looplab::lab
