// counting_selector.hpp: a loop whose selector counts the waits asked of it.
//
// The loop's default selector, wrapped: each select() call is counted, so a
// test can see which turns poll (tests/eager_tasks/empty_poll_test.cpp and
// tests/threadsafe/self_pipe_poll_test.cpp).
#pragma once

#include <memory>
#include <span>
#include <utility>

#include "looplab/default_selector.hpp"
#include "looplab/event_loop.hpp"
#include "support/run_one_turn.hpp"

namespace looplab::testing {

class CountingSelector final : public Selector {
 public:
  CountingSelector(std::unique_ptr<Selector> inner, int* polls)
      : inner_(std::move(inner)), polls_(polls) {}

  std::span<const SelectorEvent> select(Timeout timeout) override {
    ++*polls_;
    return inner_->select(timeout);
  }
  void register_fd(int fd, unsigned events) override { inner_->register_fd(fd, events); }
  void modify(int fd, unsigned events) override { inner_->modify(fd, events); }
  void unregister(int fd) override { inner_->unregister(fd); }
  void renew(int fd) override { inner_->renew(fd); }
  std::size_t size() const noexcept override { return inner_->size(); }
  const char* name() const noexcept override { return inner_->name(); }

 private:
  std::unique_ptr<Selector> inner_;
  int* polls_;
};

/// A loop on a virtual clock whose selector counts its polls.
struct CountedLoop {
  int polls = 0;
  VirtualClock clock;
  EventLoop loop{clock, std::make_unique<CountingSelector>(make_default_selector(), &polls)};

  /// `count` turns with a callback ready in each: none of them may wait.
  void busy_turns(int count) {
    for (int i = 0; i < count; ++i) {
      loop.call_soon([] {});
      run_one_turn(loop);
    }
  }
};

}  // namespace looplab::testing
