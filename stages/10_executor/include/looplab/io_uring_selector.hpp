// io_uring_selector.hpp: the Selector over io_uring's poll requests.
//
// io_uring is a completion interface: the program puts requests in a
// submission queue (SQ) shared with the kernel, and the kernel puts their
// results in a completion queue (CQ), also shared. A request can be "read
// this socket", but asyncio's contract is readiness ("tell me when I may
// read"), so this selector only submits POLL_ADD requests: "complete when
// this descriptor is readable or writable".
//
// Keeping asyncio's level-triggered contract: a poll request checks the
// descriptor's state when it is armed and completes at once if it is ready.
// Each descriptor has one single-shot poll in flight; once it completes and
// is reported, it is armed again with the next select(), so a descriptor
// that was not drained completes again straight away. (A multishot poll
// stays armed but completes only on new readiness: edge-triggered, so it
// would miss the undrained descriptor. See chapter 4.)
//
// Two things epoll does not need:
//   * A poll request holds a reference to the file. close(fd) neither
//     completes it nor really closes a socket under it, so unregister()
//     cancels the request and submits the cancellation at once.
//   * When the loop only looks (timeout 0) and has nothing to submit, the
//     CQ is read in user space: no system call at all.
#pragma once

#include <liburing.h>

#include <cstdint>
#include <thread>
#include <vector>

#include "looplab/interest_table.hpp"
#include "looplab/selector.hpp"

namespace looplab {

// [io_uring_selector]
class IoUringSelector final : public Selector {
 public:
  /// Throws OSError (with the reason: ENOSYS on an old kernel, EPERM under
  /// seccomp or io_uring_disabled, ENOMEM) if io_uring cannot be used.
  explicit IoUringSelector(unsigned queue_entries = 256);
  ~IoUringSelector() override;
  IoUringSelector(const IoUringSelector&) = delete;
  IoUringSelector& operator=(const IoUringSelector&) = delete;

  void register_fd(int fd, unsigned events) override;
  void modify(int fd, unsigned events) override;
  void unregister(int fd) override;
  void renew(int fd) override;
  std::span<const SelectorEvent> select(Timeout timeout) override;
  std::size_t size() const noexcept override { return interest_.size(); }
  const char* name() const noexcept override { return "io_uring"; }

 private:
  // One descriptor's poll request. `generation` goes into the request's
  // user_data; it changes whenever the request is cancelled, so that a
  // late completion of a cancelled request is recognised and ignored.
  struct Poll {
    std::uint32_t generation = 0;
    bool in_flight = false;
    bool waiting_to_arm = false;
  };

  void open_ring();
  void adopt_current_thread();      // a loop run on another thread than it was made on
  io_uring_sqe* next_sqe();         // a free submission slot, submitting to make room
  void arm_later(int fd);           // queue a POLL_ADD for the next select()
  void cancel(int fd, Poll& poll);  // queue a POLL_REMOVE for the request in flight
  void arm_waiting_polls();         // put the queued POLL_ADDs in the SQ
  void submit_and_wait(Timeout timeout);
  void reap_completions();  // read the CQ (user space) into ready_

  unsigned queue_entries_;
  io_uring ring_{};
  std::thread::id owner_;  // the thread allowed to submit (SINGLE_ISSUER)
  InterestTable interest_;
  std::vector<Poll> polls_;  // by descriptor
  std::vector<int> to_arm_;  // descriptors whose POLL_ADD waits for select()
  std::vector<int> arming_;  // the ones being armed now
  std::vector<SelectorEvent> ready_;
};
// [io_uring_selector]

}  // namespace looplab
