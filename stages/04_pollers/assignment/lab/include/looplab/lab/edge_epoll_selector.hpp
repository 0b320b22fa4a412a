// edge_epoll_selector.hpp: extension lab 04, epoll in edge-triggered mode.
//
// The stage's EpollSelector is level-triggered, as asyncio's is: it reports a
// state, so a descriptor that stays readable is reported by every select()
// until it is drained. With EPOLLET the kernel reports a change instead:
// readiness is news once, then it is the consumer's business. This selector
// implements the same Selector interface, but not the same contract; the
// contract is below, and the loop of chapters 3 and 4 does not meet it.
//
// The contract: what a consumer may count on
//
// 1. Registering arms. register_fd() of a descriptor that is already ready
//    is reported by the next select(), once.
// 2. An edge is reported once. When a registered event becomes ready (data
//    arrives, the peer closes, buffer space is freed), the next select()
//    reports it; the following ones do not, however much is left unread.
// 3. Each arrival is an edge. New data, an end of file or an error is
//    reported again, whether the earlier data was read or not. (This is what
//    Linux does: every wake-up of the file re-arms it. epoll(7) promises less,
//    and a portable consumer counts on duty 4 only.)
// 4. The consumer's duty: on a report, read until read() fails with EAGAIN or
//    returns 0 (end of file), and write until write() fails with EAGAIN or
//    there is nothing left to write. Only then is the next change sure to be
//    reported. Data left behind waits for the next arrival, which may never
//    come: the peer may be waiting for an answer to what it sent. A writer
//    that stopped with nothing left is still writable: it writes what comes
//    next at once, and waits for a report only after an EAGAIN.
// 5. Reports may be spurious. A wake-up for one registered event re-reads
//    the whole mask, so a report may carry an event that was ready all along
//    (a socket watched for both, writable throughout, is reported writable
//    again when data arrives), and a read after a report may fail with
//    EAGAIN at once. A consumer must take EAGAIN as "wait".
// 6. modify() re-arms, always, even with the events unchanged (EpollSelector
//    skips the system call then; this one must not): what is ready at that
//    moment is reported by the next select(), once. A consumer that stopped
//    before EAGAIN asks to be told again this way. renew() does the same,
//    and watches a new descriptor on a number that was closed and reused.
// 7. unregister() forgets: an edge not yet collected is lost. Registering
//    the descriptor again arms it anew (rule 1).
// 8. Events: kEventRead for EPOLLIN; kEventWrite for EPOLLOUT; EPOLLERR and
//    EPOLLHUP (which epoll reports unasked) wake both. A consumer that reads
//    until EAGAIN learns of the end of file from a read() that returns 0; one
//    that asks for kEventPeerClosed too (EPOLLRDHUP) learns it from the report
//    itself: the peer shut its writing side (or hung up altogether), nothing
//    more will come, and draining what is there is the last read. A half-close
//    wakes the reader, never the writer: the peer stopped sending, we may
//    still send. Only the registered events are reported.
//
// What the loop would have to change to use it (this lab does not change it)
//
// The loop turns one report into one run of the callback, and asyncio's
// readers read one chunk per run (sock_recv() one recv(), a transport's
// _read_ready() one recv() of at most 256 KiB), counting on the next turn's
// report to call them again. Under this selector they stall with data in the
// buffer (rules 2 and 4). A loop built for edges keeps the readiness itself,
// as mio (under Tokio) does: a flag per descriptor and event, set by a report,
// cleared only when a callback says that it met EAGAIN; while a flag is set,
// the loop runs its callback every turn without asking the kernel. That
// changes add_reader()'s contract (a callback must say when it met EAGAIN),
// which asyncio cannot do to the callbacks its users already wrote.
// add_writer() on a reader's descriptor and remove_writer() call modify(),
// which re-arms (rule 6): spurious reports, which such a loop must tolerate
// (rule 5). What it would gain: a wait returns what changed, not what is
// ready, so descriptors with data the program is not reading yet (a slow
// consumer) cost nothing per wait (lab/bench/edge_epoll_selector_bench.cpp).
#pragma once

#include <sys/epoll.h>

#include <cstddef>
#include <span>
#include <vector>

#include "looplab/interest_table.hpp"
#include "looplab/selector.hpp"

namespace looplab::lab {

/// An event of this selector only (rule 8): the peer will send nothing more.
/// Registered with kEventRead, kEventWrite or both, never alone.
inline constexpr unsigned kEventPeerClosed = 4;

class EdgeEpollSelector final : public Selector {
 public:
  EdgeEpollSelector();  // throws OSError if the kernel refuses a new epoll set
  ~EdgeEpollSelector() override;
  EdgeEpollSelector(const EdgeEpollSelector&) = delete;
  EdgeEpollSelector& operator=(const EdgeEpollSelector&) = delete;

  /// Starts watching `fd` for `events` (kEventRead, kEventWrite or both, and
  /// kEventPeerClosed if wanted), edge-triggered, and arms it (rule 1). Throws
  /// ValueError for a negative descriptor, for events with neither kEventRead
  /// nor kEventWrite or with another bit, and for one
  /// already registered; OSError for a descriptor epoll refuses (EBADF: not
  /// open; EPERM: a regular file). A refused call changes nothing.
  void register_fd(int fd, unsigned events) override;
  /// Changes the events watched for `fd` and re-arms it, always (rule 6).
  /// Throws ValueError if `fd` is not registered or the events are invalid.
  void modify(int fd, unsigned events) override;
  /// Stops watching `fd` (rule 7). Throws ValueError if it is not
  /// registered. A descriptor closed first is not an error: closing it took
  /// it out of the kernel's set already.
  void unregister(int fd) override;
  /// Re-arms `fd` with the events it is registered for (rule 6); if its
  /// number was closed and reused, watches the new descriptor.
  void renew(int fd) override;
  /// Waits until an edge is reported or `timeout` passes (nullopt: for ever;
  /// zero: not at all; otherwise rounded up to whole milliseconds, at most a
  /// day). Returns one SelectorEvent per descriptor with an edge, with only
  /// its registered events (rule 8), every one that is pending: one call
  /// collects them all. EINTR resumes the wait for the time that is left.
  std::span<const SelectorEvent> select(Timeout timeout) override;
  std::size_t size() const noexcept override { return interest_.size(); }
  const char* name() const noexcept override { return "epoll-edge"; }

 private:
  /// epoll_ctl(operation) for `fd` with `events` translated, edge-triggered.
  /// Throws the OSError of throw_cannot_watch() if the kernel refuses.
  void control(int operation, int fd, unsigned events);
  /// EPOLL_CTL_MOD, which re-arms; EPOLL_CTL_ADD if the number was closed
  /// and reused (the kernel answers ENOENT).
  void rearm(int fd, unsigned events);

  int epoll_fd_;
  InterestTable interest_;
  std::vector<epoll_event> kernel_events_;  // what epoll_wait() fills
  std::vector<SelectorEvent> ready_;        // what the last select() returned
};

}  // namespace looplab::lab
