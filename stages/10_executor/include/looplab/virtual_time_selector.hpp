// virtual_time_selector.hpp: waiting on a clock whose time does not pass by itself.
//
// A virtual clock cannot make select() return early, so a loop on one hands
// its selector to this wrapper (the loop's constructor does it): each wait
// first looks without waiting and, if nothing is ready, jumps the clock to the
// deadline instead of sleeping. A test of a one-hour timer takes no time at
// all (trio's MockClock with autojump works the same way). With no deadline
// only I/O can wake the loop, so the wrapper waits for it for real.
#pragma once

#include <memory>
#include <span>
#include <utility>

#include "looplab/clock.hpp"
#include "looplab/selector.hpp"

namespace looplab {

class VirtualTimeSelector final : public Selector {
 public:
  VirtualTimeSelector(Clock& clock, std::unique_ptr<Selector> inner)
      : clock_(&clock), inner_(std::move(inner)) {}

  std::span<const SelectorEvent> select(Timeout timeout) override {
    std::span<const SelectorEvent> events = inner_->select(Timeout::value_type::zero());
    if (!events.empty()) return events;
    if (!timeout) return inner_->select(std::nullopt);
    clock_->sleep_until(clock_->now() + *timeout);
    return events;
  }

  void register_fd(int fd, unsigned events) override { inner_->register_fd(fd, events); }
  void modify(int fd, unsigned events) override { inner_->modify(fd, events); }
  void unregister(int fd) override { inner_->unregister(fd); }
  void renew(int fd) override { inner_->renew(fd); }
  std::size_t size() const noexcept override { return inner_->size(); }
  const char* name() const noexcept override { return inner_->name(); }

 private:
  Clock* clock_;
  std::unique_ptr<Selector> inner_;
};

/// `selector` as a loop on `clock` waits in it: wrapped if the clock is virtual.
inline std::unique_ptr<Selector> waiting_on(Clock& clock, std::unique_ptr<Selector> selector) {
  if (!clock.is_virtual()) return selector;
  return std::make_unique<VirtualTimeSelector>(clock, std::move(selector));
}

}  // namespace looplab
