#include "looplab/io_uring_selector.hpp"

#include <fcntl.h>
#include <poll.h>

#include <cerrno>
#include <string>
#include <thread>

#include "looplab/deadline.hpp"
#include "looplab/exceptions.hpp"
#include "looplab/selector_errors.hpp"

namespace looplab {
namespace {

// [io_uring_user_data]
// A request's user_data comes back with its completion: the descriptor in
// the low 32 bits, the poll's generation in the high ones. Generation 0 is
// never a poll's: it marks the POLL_REMOVE requests, whose own completions
// say nothing about readiness.
constexpr std::uint64_t kCancellation = 0;

std::uint64_t user_data(int fd, std::uint32_t generation) {
  return (std::uint64_t{generation} << 32) | static_cast<std::uint32_t>(fd);
}
int fd_of(std::uint64_t data) { return static_cast<int>(static_cast<std::uint32_t>(data)); }
std::uint32_t generation_of(std::uint64_t data) { return static_cast<std::uint32_t>(data >> 32); }
// [io_uring_user_data]

unsigned to_poll(unsigned events) {
  return ((events & kEventRead) != 0 ? POLLIN : 0u) | ((events & kEventWrite) != 0 ? POLLOUT : 0u);
}

// As for epoll: POLLERR and POLLHUP wake both the reader and the writer.
unsigned from_poll(unsigned revents) {
  return ((revents & ~static_cast<unsigned>(POLLOUT)) != 0 ? kEventRead : 0u) |
         ((revents & ~static_cast<unsigned>(POLLIN)) != 0 ? kEventWrite : 0u);
}

__kernel_timespec to_timespec(std::chrono::nanoseconds timeout) {
  return __kernel_timespec{.tv_sec = timeout.count() / 1'000'000'000,
                           .tv_nsec = timeout.count() % 1'000'000'000};
}

std::string why_unavailable(int error) {
  switch (error) {
    case ENOSYS:
      return "this kernel has no io_uring (ENOSYS)";
    case EPERM:
      return "io_uring is not permitted here (EPERM: a seccomp filter, a container's "
             "policy, or /proc/sys/kernel/io_uring_disabled)";
    case ENOMEM:
      return "not enough locked memory for the rings (ENOMEM: see ulimit -l)";
    default:
      return "io_uring_queue_init() failed";
  }
}

}  // namespace

// [io_uring_setup]
IoUringSelector::IoUringSelector(unsigned queue_entries) : queue_entries_(queue_entries) {
  open_ring();
}

// Tearing the ring down cancels every request still in flight, which lets
// go of the files they hold.
IoUringSelector::~IoUringSelector() { io_uring_queue_exit(&ring_); }

void IoUringSelector::open_ring() {
  // A completion queue four times the submission queue, since every
  // registered descriptor can have a completion waiting. DEFER_TASKRUN: the
  // kernel finishes completions only when we ask for them (in select()), in
  // one batch, rather than interrupting the thread for each; TASKRUN_FLAG
  // raises a flag in the shared ring when some are waiting to be finished.
  // Older kernels lack these flags: try less and less.
  constexpr unsigned kFlagChoices[] = {
      IORING_SETUP_SINGLE_ISSUER | IORING_SETUP_DEFER_TASKRUN | IORING_SETUP_TASKRUN_FLAG,
      IORING_SETUP_COOP_TASKRUN | IORING_SETUP_TASKRUN_FLAG,
      0,
  };
  int rc = -EINVAL;
  for (unsigned flags : kFlagChoices) {
    io_uring_params params{};
    params.flags = IORING_SETUP_CQSIZE | flags;
    params.cq_entries = queue_entries_ * 4;
    rc = io_uring_queue_init_params(queue_entries_, &ring_, &params);
    if (rc != -EINVAL) break;
  }
  if (rc < 0) throw OSError(-rc, why_unavailable(-rc));
  io_uring_register_ring_fd(&ring_);  // saves a file lookup per system call; optional
  owner_ = std::this_thread::get_id();
}

// With SINGLE_ISSUER only the thread that made the ring may submit to it. A
// loop made on one thread and run on another moves its ring: a new one, on
// which every registered descriptor is armed again.
void IoUringSelector::adopt_current_thread() {
  if (std::this_thread::get_id() == owner_) return;
  io_uring_queue_exit(&ring_);
  open_ring();
  to_arm_.clear();
  for (std::size_t fd = 0; fd < polls_.size(); ++fd) {
    Poll& poll = polls_[fd];
    poll = Poll{.generation = poll.generation + 1};
    if (interest_.find(static_cast<int>(fd)) != 0) arm_later(static_cast<int>(fd));
  }
}
// [io_uring_setup]

// [io_uring_register]
void IoUringSelector::register_fd(int fd, unsigned events) {
  interest_.check_new(fd);
  // A poll request on a closed descriptor would only fail later, in
  // select(); check now, so the mistake is reported where it is made.
  if (::fcntl(fd, F_GETFD) == -1) throw_cannot_watch(errno, fd, "io_uring");
  interest_.add(fd, events);
  if (static_cast<std::size_t>(fd) >= polls_.size())
    polls_.resize(static_cast<std::size_t>(fd) + 1);
  arm_later(fd);
}

void IoUringSelector::modify(int fd, unsigned events) {
  adopt_current_thread();
  unsigned& registered = interest_.at(fd);
  if (events == registered) return;
  registered = events;
  cancel(fd, polls_[static_cast<std::size_t>(fd)]);  // the old request watched the old events
  arm_later(fd);
}

void IoUringSelector::unregister(int fd) {
  adopt_current_thread();
  interest_.remove(fd);
  cancel(fd, polls_[static_cast<std::size_t>(fd)]);
  // Submit the cancellation now, and let the kernel finish it (its work is
  // deferred until we ask for completions): the caller may close(fd) next,
  // and while a poll request holds the file, closing it would not close the
  // socket.
  // EBUSY or EAGAIN (the CQ is full, or the kernel short of memory for now):
  // the request stays queued, and the next select() submits it.
  int rc = 0;
  do {
    rc = io_uring_sq_ready(&ring_) > 0 ? io_uring_submit_and_get_events(&ring_) : 0;
  } while (rc == -EINTR);
  if (rc < 0 && rc != -EBUSY && rc != -EAGAIN) throw OSError(-rc, "io_uring_submit() failed");
}

// A request in flight watches the file the descriptor had when it was
// armed; if the number was closed and reused, watch the new file.
void IoUringSelector::renew(int fd) {
  adopt_current_thread();
  interest_.at(fd);  // throws if not registered
  if (::fcntl(fd, F_GETFD) == -1) throw_cannot_watch(errno, fd, "io_uring");
  cancel(fd, polls_[static_cast<std::size_t>(fd)]);
  arm_later(fd);
}
// [io_uring_register]

// [io_uring_arm]
io_uring_sqe* IoUringSelector::next_sqe() {
  io_uring_sqe* sqe = io_uring_get_sqe(&ring_);
  while (sqe == nullptr) {  // the submission queue is full: hand it to the kernel
    int rc = io_uring_submit(&ring_);
    if (rc == -EBUSY || rc == -EAGAIN) reap_completions();  // the CQ is full: empty it first
    if (rc < 0 && rc != -EBUSY && rc != -EAGAIN && rc != -EINTR)
      throw OSError(-rc, "io_uring_submit() failed");
    sqe = io_uring_get_sqe(&ring_);
  }
  return sqe;
}

void IoUringSelector::arm_later(int fd) {
  Poll& poll = polls_[static_cast<std::size_t>(fd)];
  if (poll.waiting_to_arm) return;
  poll.waiting_to_arm = true;
  to_arm_.push_back(fd);
}

void IoUringSelector::cancel(int fd, Poll& poll) {
  if (poll.in_flight) {
    io_uring_sqe* sqe = next_sqe();
    io_uring_prep_poll_remove(sqe, user_data(fd, poll.generation));
    io_uring_sqe_set_data64(sqe, kCancellation);
    poll.in_flight = false;
  }
  // Even with no request in flight, its completion may be in the CQ, not
  // yet read: a new generation makes reap_completions() ignore it.
  if (++poll.generation == 0) poll.generation = 1;
}
// [io_uring_arm]

// [io_uring_select]
std::span<const SelectorEvent> IoUringSelector::select(Timeout timeout) {
  adopt_current_thread();
  ready_.clear();  // first: making room in a full SQ while arming may already read completions
  arm_waiting_polls();
  bool look_only = timeout && timeout->count() <= 0;
  bool kernel_has_news =
      (IO_URING_READ_ONCE(*ring_.sq.kflags) & (IORING_SQ_CQ_OVERFLOW | IORING_SQ_TASKRUN)) != 0;
  if (!look_only || io_uring_sq_ready(&ring_) > 0 || kernel_has_news) submit_and_wait(timeout);
  reap_completions();
  return ready_;
}

void IoUringSelector::arm_waiting_polls() {
  // Swapped out first: making room in a full SQ may read completions,
  // which queue more descriptors to arm (for the next select()).
  std::swap(to_arm_, arming_);
  for (int fd : arming_) {
    Poll& poll = polls_[static_cast<std::size_t>(fd)];
    poll.waiting_to_arm = false;
    unsigned events = interest_.find(fd);
    if (events == 0 || poll.in_flight) continue;
    if (poll.generation == 0) poll.generation = 1;
    io_uring_sqe* sqe = next_sqe();
    io_uring_prep_poll_add(sqe, fd, to_poll(events));
    io_uring_sqe_set_data64(sqe, user_data(fd, poll.generation));
    poll.in_flight = true;
  }
  arming_.clear();
}

void IoUringSelector::submit_and_wait(Timeout timeout) {
  Deadline deadline(timeout);
  for (;;) {
    int rc = 0;
    if (!timeout) {
      rc = io_uring_submit_and_wait(&ring_, 1);
    } else if (timeout->count() <= 0) {
      rc = io_uring_submit_and_get_events(&ring_);  // submit, and finish deferred completions
    } else {
      __kernel_timespec wait = to_timespec(*deadline.remaining());
      io_uring_cqe* unused = nullptr;
      rc = io_uring_submit_and_wait_timeout(&ring_, &unused, 1, &wait, nullptr);
    }
    // EBUSY: the CQ is full, read it; EAGAIN: the kernel could not take the
    // requests now, which stay queued for the next select().
    if (rc >= 0 || rc == -ETIME || rc == -EBUSY || rc == -EAGAIN) return;
    if (rc != -EINTR) throw OSError(-rc, "io_uring_enter() failed");
    // EINTR: a signal. Wait again for the time that is left.
  }
}

void IoUringSelector::reap_completions() {
  unsigned head = 0;
  unsigned seen = 0;
  io_uring_cqe* cqe = nullptr;
  io_uring_for_each_cqe(&ring_, head, cqe) {
    ++seen;
    std::uint64_t data = io_uring_cqe_get_data64(cqe);
    int fd = fd_of(data);
    if (generation_of(data) == kCancellation || static_cast<std::size_t>(fd) >= polls_.size()) {
      continue;
    }
    Poll& poll = polls_[static_cast<std::size_t>(fd)];
    // [io_uring_reap_body]
    if (generation_of(data) != poll.generation) continue;  // a cancelled request's late news
    poll.in_flight = false;
    unsigned wanted = interest_.find(fd);
    if (wanted == 0) continue;
    // EBADF: the descriptor was closed before its poll was armed. Like
    // epoll, forget it in the kernel (re-arming would fail again at once);
    // renew() arms it again if its number is reused.
    if (cqe->res == -EBADF) continue;
    arm_later(fd);  // level-triggered: look again at the next select()
    if (cqe->res == -ECANCELED) continue;
    unsigned events = cqe->res < 0 ? wanted : (from_poll(static_cast<unsigned>(cqe->res)) & wanted);
    if (events != 0) ready_.push_back(SelectorEvent{fd, events});
    // [io_uring_reap_body]
  }
  io_uring_cq_advance(&ring_, seen);
}
// [io_uring_select]

}  // namespace looplab
