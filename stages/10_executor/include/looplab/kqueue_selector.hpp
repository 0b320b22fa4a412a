// kqueue_selector.hpp: the Selector over BSD's and macOS's kqueue, Python's
// KqueueSelector.
//
// kqueue watches (descriptor, filter) pairs: EVFILT_READ and EVFILT_WRITE
// are separate, so a descriptor watched for both has two entries, and a
// descriptor that is readable and writable is reported twice, once per
// filter (asyncio does not merge them either). Changes are not system calls
// of their own: they go in a changelist that the next kevent() applies
// before it waits, so turning a writer on and off between two waits costs
// nothing. Readiness is level-triggered unless EV_CLEAR is asked for.
//
// On Linux this compiles against libkqueue when pkg-config finds it, and
// otherwise against common/kqueue_shim, a test double over epoll, so that
// this backend's logic runs in CI; name() says which.
#pragma once

#include <sys/event.h>

#include <vector>

#include "looplab/interest_table.hpp"
#include "looplab/selector.hpp"

namespace looplab {

// [kqueue_selector]
class KqueueSelector final : public Selector {
 public:
  KqueueSelector();  // throws OSError if the kernel refuses a new kqueue
  ~KqueueSelector() override;
  KqueueSelector(const KqueueSelector&) = delete;
  KqueueSelector& operator=(const KqueueSelector&) = delete;

  void register_fd(int fd, unsigned events) override;
  void modify(int fd, unsigned events) override;
  void unregister(int fd) override;
  void renew(int fd) override;
  std::span<const SelectorEvent> select(Timeout timeout) override;
  std::size_t size() const noexcept override { return interest_.size(); }
  const char* name() const noexcept override;

 private:
  // Appends EV_ADD or EV_DELETE changes for the filters that differ.
  void queue_changes(int fd, unsigned from, unsigned to);
  // Applies the changelist now, without waiting; throws for the first error.
  void apply_changes_now(int fd);

  int kqueue_fd_;
  InterestTable interest_;
  std::size_t filters_ = 0;              // watched (descriptor, filter) pairs
  std::vector<struct kevent> changes_;   // applied by the next kevent()
  std::vector<struct kevent> receipts_;  // apply_changes_now()'s results
  std::vector<struct kevent> kernel_events_;
  std::vector<SelectorEvent> ready_;
};
// [kqueue_selector]

}  // namespace looplab
