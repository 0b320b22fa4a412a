// epoll_selector.hpp: the Selector over Linux's epoll, Python's EpollSelector.
//
// select() is told the whole set of descriptors on every call; epoll is told
// once. epoll_ctl() adds, changes or removes one descriptor in a set the
// kernel keeps, and epoll_wait() returns only the ready ones, so a wait costs
// in proportion to what is ready, not to what is watched.
//
// As in asyncio, the set is level-triggered (no EPOLLET): a descriptor that
// stays readable is reported by every wait until it is drained.
#pragma once

#include <sys/epoll.h>

#include <vector>

#include "looplab/interest_table.hpp"
#include "looplab/selector.hpp"

namespace looplab {

// [epoll_selector]
class EpollSelector final : public Selector {
 public:
  EpollSelector();  // throws OSError if the kernel refuses a new epoll set
  ~EpollSelector() override;
  EpollSelector(const EpollSelector&) = delete;
  EpollSelector& operator=(const EpollSelector&) = delete;

  void register_fd(int fd, unsigned events) override;
  void modify(int fd, unsigned events) override;
  void unregister(int fd) override;
  void renew(int fd) override;
  std::span<const SelectorEvent> select(Timeout timeout) override;
  std::size_t size() const noexcept override { return interest_.size(); }
  const char* name() const noexcept override { return "epoll"; }

 private:
  void control(int operation, int fd, unsigned events);  // epoll_ctl, or a clear OSError
  void modify_or_add(int fd, unsigned events);

  int epoll_fd_;
  InterestTable interest_;
  std::vector<epoll_event> kernel_events_;  // what epoll_wait() fills
  std::vector<SelectorEvent> ready_;
};
// [epoll_selector]

}  // namespace looplab
