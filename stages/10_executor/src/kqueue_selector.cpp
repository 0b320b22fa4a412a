#include "looplab/kqueue_selector.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <string>

#include "looplab/deadline.hpp"
#include "looplab/exceptions.hpp"
#include "looplab/selector_errors.hpp"

namespace looplab {
namespace {

constexpr struct {
  unsigned event;
  short filter;
} kFilters[] = {{kEventRead, EVFILT_READ}, {kEventWrite, EVFILT_WRITE}};

timespec to_timespec(std::chrono::nanoseconds timeout) {
  return timespec{static_cast<time_t>(timeout.count() / 1'000'000'000),
                  static_cast<long>(timeout.count() % 1'000'000'000)};
}

// A change that failed because the descriptor was closed before the change
// reached the kernel: closing already removed its filters.
bool descriptor_already_gone(intptr_t error) { return error == ENOENT || error == EBADF; }

}  // namespace

KqueueSelector::KqueueSelector() : kqueue_fd_(::kqueue()) {
  if (kqueue_fd_ < 0) throw OSError(errno, "kqueue() failed");
}

KqueueSelector::~KqueueSelector() { ::close(kqueue_fd_); }

const char* KqueueSelector::name() const noexcept {
#ifdef LOOPLAB_KQUEUE_SHIM
  return "kqueue-shim";  // common/kqueue_shim: kqueue's API over epoll, for tests
#else
  return "kqueue";
#endif
}

// [kqueue_changes]
void KqueueSelector::queue_changes(int fd, unsigned from, unsigned to) {
  // [queue_changes_body]
  // A filter that stays is added again: EV_ADD on an existing filter only
  // updates it, and if the number was closed and reused (close() removed its
  // filters), it watches the new descriptor. The changes cost no system call.
  for (auto [event, filter] : kFilters) {
    bool was = (from & event) != 0;
    bool is = (to & event) != 0;
    if (!was && !is) continue;
    struct kevent change {};
    EV_SET(&change, static_cast<uintptr_t>(fd), filter, is ? EV_ADD : EV_DELETE, 0, 0, nullptr);
    changes_.push_back(change);
    if (is && !was) ++filters_;
    if (was && !is) --filters_;
  }
  // [queue_changes_body]
}

// Registering and unregistering are applied at once, so that a bad
// descriptor is reported by the call that made the mistake, and a
// descriptor has left the kernel's set before the program closes it.
// EV_RECEIPT makes kevent() return one result per change, so we learn which
// change failed. A delete that finds nothing because its descriptor was
// closed is ignored, and so are older, batched changes of other descriptors.
void KqueueSelector::apply_changes_now(int fd) {
  for (struct kevent& change : changes_) change.flags |= EV_RECEIPT;
  receipts_.resize(changes_.size());
  timespec no_wait{};
  int n = ::kevent(kqueue_fd_, changes_.data(), static_cast<int>(changes_.size()), receipts_.data(),
                   static_cast<int>(receipts_.size()), &no_wait);
  int error = n < 0 ? errno : 0;
  // With EV_RECEIPT every change has its result, in the order of the changes.
  for (std::size_t i = 0; error == 0 && i < static_cast<std::size_t>(std::max(n, 0)); ++i) {
    const struct kevent& result = receipts_[i];
    if ((result.flags & EV_ERROR) == 0 || result.data == 0) continue;
    bool deleting = (changes_[i].flags & EV_DELETE) != 0;
    if (deleting && descriptor_already_gone(result.data)) continue;  // nothing left to delete
    // Only this descriptor's changes can fail this call; a batched change of
    // another descriptor that fails here is that descriptor's lost cause.
    if (result.ident == static_cast<uintptr_t>(fd)) error = static_cast<int>(result.data);
  }
  changes_.clear();
  // A descriptor that is not open is EBADF, whatever the implementation said
  // (libkqueue reports EFAULT, or an errno left over from elsewhere).
  if (error != 0 && ::fcntl(fd, F_GETFD) == -1 && errno == EBADF) error = EBADF;
  if (error != 0) throw_cannot_watch(error, fd, name());
}
// [kqueue_changes]

// [kqueue_register]
void KqueueSelector::register_fd(int fd, unsigned events) {
  interest_.check_new(fd);
  std::size_t filters_before = filters_;
  queue_changes(fd, 0, events);
  try {
    apply_changes_now(fd);
  } catch (const OSError&) {
    filters_ = filters_before;
    throw;
  }
  interest_.add(fd, events);
}

void KqueueSelector::modify(int fd, unsigned events) {
  unsigned& registered = interest_.at(fd);
  queue_changes(fd, registered, events);  // applied by the next select(): no system call now
  registered = events;
}

void KqueueSelector::unregister(int fd) {
  // Like asyncio, a descriptor closed before it was unregistered is not an
  // error: closing it removed its filters already.
  queue_changes(fd, interest_.remove(fd), 0);
  apply_changes_now(fd);
}

// The filters are deleted and added again. Where close() removes a
// descriptor's filters (BSD, macOS), the delete finds nothing, which is
// fine; where it does not (libkqueue), the old filters still watch the old
// file, and only a new EV_ADD watches the descriptor now on this number.
void KqueueSelector::renew(int fd) {
  unsigned events = interest_.at(fd);
  for (auto [event, filter] : kFilters) {
    if ((events & event) == 0) continue;
    for (unsigned short action : {EV_DELETE, EV_ADD}) {
      struct kevent change {};
      EV_SET(&change, static_cast<uintptr_t>(fd), filter, action, 0, 0, nullptr);
      changes_.push_back(change);
    }
  }
  apply_changes_now(fd);
}
// [kqueue_register]

// [kqueue_select]
std::span<const SelectorEvent> KqueueSelector::select(Timeout timeout) {
  // Room for every filter and for a failed change of each pending one.
  kernel_events_.resize(std::max<std::size_t>(1, filters_ + changes_.size()));
  ready_.clear();
  Deadline deadline(timeout);
  int n = 0;
  for (;;) {
    Timeout left = deadline.remaining();
    timespec wait = left ? to_timespec(*left) : timespec{};
    n = ::kevent(kqueue_fd_, changes_.data(), static_cast<int>(changes_.size()),
                 kernel_events_.data(), static_cast<int>(kernel_events_.size()),
                 left ? &wait : nullptr);
    changes_.clear();  // applied, even when the wait was interrupted
    if (n >= 0) break;
    if (errno != EINTR) throw OSError(errno, "kevent() failed");
  }
  for (const struct kevent& event : std::span(kernel_events_.data(), std::size_t(n))) {
    int fd = static_cast<int>(event.ident);
    if ((event.flags & EV_ERROR) != 0) {  // a batched change that failed
      if (event.data == 0 || descriptor_already_gone(event.data)) continue;
      throw OSError(static_cast<int>(event.data),
                    "kevent() could not change descriptor " + std::to_string(fd));
    }
    unsigned events = (event.filter == EVFILT_READ ? kEventRead : kEventWrite) & interest_.find(fd);
    if (events != 0) ready_.push_back(SelectorEvent{fd, events});  // not merged, as in asyncio
  }
  return ready_;
}
// [kqueue_select]

}  // namespace looplab
