// kqueue_shim.cpp: TEST DOUBLE. Not the BSD kernel's kqueue.
//
// kqueue() and kevent() for EVFILT_READ and EVFILT_WRITE, implemented over Linux epoll, so
// that looplab's kqueue selector runs its logic in CI on Linux. It reproduces FreeBSD's
// kevent() semantics where epoll lets it; README.md lists where it cannot.
//
// The design, in short:
//  - The kq descriptor is an epoll descriptor. Its state (the knotes: which filters each
//    descriptor has, their flags, udata, enabled or not) lives in a process-wide map keyed by
//    that number, replaced when kqueue() returns the number again.
//  - One epoll registration per descriptor holds the union of its enabled filters' interest.
//    It is level-triggered with EPOLLONESHOT, re-armed after each report: a registration
//    that epoll keeps for a closed descriptor (still open through a dup) fires at most once
//    more, and is then recognised as stale and never re-armed. If every enabled filter of the
//    descriptor has EV_CLEAR, it is edge-triggered (EPOLLET) instead.
//  - epoll_event.data carries the descriptor and a generation number, so an event from an
//    older registration of the same number is told apart from the current one.
//  - Every change and every event checks the descriptor with fstat(): closed (EBADF) or now
//    another file, and its knotes are dropped, as the kernel drops knotes on close().
#include <errno.h>
#include <fcntl.h>
#include <linux/sockios.h>
#include <sys/epoll.h>
#include <sys/event.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <climits>
#include <cstdint>
#include <memory>
#include <mutex>
#include <new>
#include <optional>
#include <system_error>
#include <unordered_map>

namespace {

using KEvent = struct kevent;

// Flags the kernel reserves for itself (EV_EOF, EV_ERROR, ...): cleared from every change.
constexpr unsigned kSystemFlags = 0xF000;
constexpr unsigned kActionFlags = EV_ADD | EV_DELETE | EV_ENABLE | EV_DISABLE;
constexpr unsigned kSupportedFlags = kActionFlags | EV_ONESHOT | EV_CLEAR | EV_RECEIPT;

constexpr int kRead = 0;  // index of a filter in Ident::knotes
constexpr int kWrite = 1;
constexpr std::array<short, 2> kFilters = {EVFILT_READ, EVFILT_WRITE};
constexpr std::array<std::uint32_t, 2> kInterest = {EPOLLIN | EPOLLRDHUP, EPOLLOUT};
// Which epoll bits make each filter fire. EPOLLHUP and EPOLLERR are reported whatever the
// interest, so a registration never fires without a filter to report.
constexpr std::array<std::uint32_t, 2> kFires = {EPOLLIN | EPOLLRDHUP | EPOLLHUP | EPOLLERR,
                                                 EPOLLOUT | EPOLLHUP | EPOLLERR};

constexpr int kBatch = 64;  // epoll events taken per epoll_wait (on the stack: no allocation)
constexpr std::int64_t kNanosPerMilli = 1'000'000;
constexpr std::int64_t kNanosPerSecond = 1'000'000'000;
constexpr std::int64_t kForeverSeconds = std::int64_t{100} * 365 * 24 * 3600;

// One (descriptor, filter) registration: the kernel calls it a knote.
struct Knote {
  unsigned short flags = 0;  // the flags of the EV_ADD that made it, less the actions
  bool enabled = true;
  void* udata = nullptr;
};

// One descriptor's knotes and its epoll registration.
struct Ident {
  dev_t dev = 0;  // which file the descriptor was when first added
  ino_t ino = 0;
  mode_t type = 0;
  std::array<std::optional<Knote>, 2> knotes;  // [kRead], [kWrite]
  bool in_epoll = false;                       // a registration exists for this number
  bool edge = false;                           // it is EPOLLET (else EPOLLONESHOT)
  std::uint32_t generation = 0;                // in its epoll_event.data
  int first = kRead;  // the filter reported first: the one left out when the eventlist was full

  bool empty() const { return !knotes[kRead] && !knotes[kWrite]; }
  bool any_enabled() const {
    return (knotes[kRead] && knotes[kRead]->enabled) || (knotes[kWrite] && knotes[kWrite]->enabled);
  }
  bool is(const struct stat& st) const {
    return st.st_dev == dev && st.st_ino == ino && (st.st_mode & S_IFMT) == type;
  }
};

struct Kqueue {
  dev_t dev = 0;  // the epoll descriptor's file: a number reused by a socket is not this kq
  ino_t ino = 0;
  std::mutex mutex;  // held while changes are applied and events harvested, not while waiting
  std::unordered_map<int, Ident> idents;
  std::uint32_t next_generation = 1;

  std::uint32_t new_generation() {
    if (next_generation == 0) next_generation = 1;
    return next_generation++;
  }
};

struct Registry {
  std::mutex mutex;
  std::unordered_map<int, std::shared_ptr<Kqueue>> queues;  // by kq descriptor
};

Registry& registry() {
  static auto* const instance = new Registry;  // never destroyed: usable from static destructors
  return *instance;
}

std::shared_ptr<Kqueue> find_queue(int kq) {
  Registry& r = registry();
  std::lock_guard lock(r.mutex);
  auto it = r.queues.find(kq);
  return it == r.queues.end() ? nullptr : it->second;
}

void forget_queue(int kq, const std::shared_ptr<Kqueue>& queue) {
  Registry& r = registry();
  std::lock_guard lock(r.mutex);
  auto it = r.queues.find(kq);
  if (it != r.queues.end() && it->second == queue) r.queues.erase(it);
}

// Makes the epoll registration of `fd` match its knotes: none if it has no knotes; otherwise the
// union of the enabled filters' interest (possibly empty, for a descriptor whose filters are all
// disabled: EPOLLHUP/EPOLLERR then fire it once, and it is not re-armed). Registering also
// re-arms (EPOLLONESHOT) and, for a ready descriptor, queues an event again: the kernel, too,
// re-checks a knote when it is added or enabled. Returns 0 or an errno.
int update_registration(Kqueue& kq, int epfd, int fd, Ident& id) {
  if (id.empty()) {
    if (id.in_epoll) ::epoll_ctl(epfd, EPOLL_CTL_DEL, fd, nullptr);  // ENOENT/EBADF: gone already
    id.in_epoll = false;
    return 0;
  }
  std::uint32_t interest = 0;
  bool all_clear = true;
  for (int index : {kRead, kWrite}) {
    const std::optional<Knote>& knote = id.knotes[index];
    if (!knote || !knote->enabled) continue;
    interest |= kInterest[index];
    if ((knote->flags & EV_CLEAR) == 0) all_clear = false;
  }
  const bool edge = interest != 0 && all_clear;
  epoll_event event{};
  event.events = interest | (edge ? EPOLLET : EPOLLONESHOT);
  std::uint32_t generation = id.generation;
  auto control = [&](int op) {
    event.data.u64 = (std::uint64_t{generation} << 32) | static_cast<std::uint32_t>(fd);
    return ::epoll_ctl(epfd, op, fd, &event);
  };
  int rc = 0;
  if (id.in_epoll) {
    rc = control(EPOLL_CTL_MOD);
    if (rc != 0 && errno == ENOENT) {  // the file registered under this number has gone
      generation = kq.new_generation();
      rc = control(EPOLL_CTL_ADD);
    }
  } else {
    generation = kq.new_generation();
    rc = control(EPOLL_CTL_ADD);
    if (rc != 0 && errno == EEXIST) rc = control(EPOLL_CTL_MOD);  // left over from before
  }
  if (rc != 0) return errno;
  id.in_epoll = true;
  id.edge = edge;
  id.generation = generation;
  return 0;
}

// One change of the changelist, as FreeBSD's kqueue_register(). Returns 0 or an errno.
int apply_change(Kqueue& kq, int epfd, const KEvent& change) {
  int index = 0;
  if (change.filter == EVFILT_READ) {
    index = kRead;
  } else if (change.filter == EVFILT_WRITE) {
    index = kWrite;
  } else {
    return EINVAL;  // EVFILT_TIMER, EVFILT_USER, ...: not in the shim
  }
  if ((change.flags & ~kSupportedFlags) != 0) return EINVAL;  // EV_DISPATCH, ...: not in the shim
  if (change.ident > static_cast<std::uintptr_t>(INT_MAX)) return EBADF;
  const int fd = static_cast<int>(change.ident);

  struct stat st {};
  if (::fstat(fd, &st) != 0) {
    const int error = errno;
    if (error == EBADF) kq.idents.erase(fd);  // closed: its knotes went with it
    return error;
  }
  auto it = kq.idents.find(fd);
  if (it != kq.idents.end() && !it->second.is(st)) {
    // The number was closed and reused: the knotes belonged to the closed descriptor. Its epoll
    // registration, if epoll still holds one, is stale and will be ignored by generation.
    kq.idents.erase(it);
    it = kq.idents.end();
  }
  if ((change.flags & EV_DELETE) == 0 && change.fflags != 0) return EINVAL;  // NOTE_LOWAT, ...

  if (it == kq.idents.end() || !it->second.knotes[index]) {
    if ((change.flags & EV_ADD) == 0) return ENOENT;
    const bool created = it == kq.idents.end();
    if (created) {
      it = kq.idents.try_emplace(fd).first;
      it->second.dev = st.st_dev;
      it->second.ino = st.st_ino;
      it->second.type = st.st_mode & S_IFMT;
    }
    Ident& id = it->second;
    Knote knote;
    knote.flags = static_cast<unsigned short>(change.flags & ~kActionFlags);
    knote.enabled = (change.flags & EV_DISABLE) == 0;
    knote.udata = change.udata;
    id.knotes[index] = knote;
    if (const int error = update_registration(kq, epfd, fd, id);
        error != 0) {  // EPERM: a regular file
      id.knotes[index].reset();
      if (id.empty()) kq.idents.erase(it);
      return error;
    }
    return 0;
  }

  Ident& id = it->second;
  Knote& knote = *id.knotes[index];
  if ((change.flags & EV_DELETE) != 0) {  // before EV_ADD, as in the kernel
    id.knotes[index].reset();
    (void)update_registration(kq, epfd, fd, id);  // a deletion succeeds whatever epoll says
    if (id.empty()) kq.idents.erase(it);
    return 0;
  }
  // An existing knote: EV_ADD (or no action at all) updates udata only; its EV_ONESHOT and
  // EV_CLEAR stay those of the EV_ADD that made it, as in FreeBSD.
  const Knote before = knote;
  if ((change.flags & EV_ENABLE) != 0) {
    knote.enabled = true;
  } else if ((change.flags & EV_DISABLE) != 0) {
    knote.enabled = false;
  }
  knote.udata = change.udata;
  if (const int error = update_registration(kq, epfd, fd, id); error != 0) {
    knote = before;
    return error;
  }
  return 0;
}

// Bytes waiting to be read. A listening socket has none (FIONREAD fails): the kernel's kqueue
// gives the number of connections waiting to be accepted there; the shim can only say "at
// least one", 1, when it is readable.
std::intptr_t bytes_readable(int fd, mode_t type, std::uint32_t ready) {
  int n = 0;
  if (::ioctl(fd, FIONREAD, &n) == 0) return n;
  int listening = 0;
  socklen_t length = sizeof listening;
  if (S_ISSOCK(type) && ::getsockopt(fd, SOL_SOCKET, SO_ACCEPTCONN, &listening, &length) == 0 &&
      listening != 0 && (ready & EPOLLIN) != 0) {
    return 1;
  }
  return 0;
}

// An estimate of the room for writing: the send buffer's size less what is queued in it
// (sockets), or the pipe's capacity less what is in it (pipes); 0 for anything else.
std::intptr_t write_space(int fd, mode_t type) {
  int size = 0;
  int queued = 0;
  if (S_ISSOCK(type)) {
    socklen_t length = sizeof size;
    if (::getsockopt(fd, SOL_SOCKET, SO_SNDBUF, &size, &length) != 0) return 0;
    if (::ioctl(fd, SIOCOUTQ, &queued) != 0) queued = 0;
  } else if (S_ISFIFO(type)) {
    size = ::fcntl(fd, F_GETPIPE_SZ);
    if (size < 0) return 0;
    if (::ioctl(fd, FIONREAD, &queued) != 0) queued = 0;
  }
  return std::max(0, size - queued);
}

KEvent make_event(int fd, int index, const Knote& knote, std::uint32_t ready, const Ident& id) {
  KEvent event{};
  event.ident = static_cast<std::uintptr_t>(fd);
  event.filter = kFilters[index];
  event.flags = knote.flags;
  event.fflags = 0;  // the kernel puts the socket error here with EV_EOF; see README.md
  event.udata = knote.udata;
  if (index == kRead) {
    event.data = bytes_readable(fd, id.type, ready);
    if ((ready & (EPOLLRDHUP | EPOLLHUP)) != 0) event.flags |= EV_EOF;
  } else {
    event.data = write_space(fd, id.type);
    // A socket error alone (a datagram's ICMP error) is not the end: FreeBSD reports it without
    // EV_EOF. On a pipe, EPOLLERR means the reader has gone.
    const bool pipe_broken = (ready & EPOLLERR) != 0 && !S_ISSOCK(id.type);
    if ((ready & EPOLLHUP) != 0 || pipe_broken) event.flags |= EV_EOF;
  }
  return event;
}

// Turns epoll events into kevents, at most `room` of them. Returns how many.
int harvest(Kqueue& kq, int epfd, const epoll_event* ready, int n, KEvent* out, int room) {
  int count = 0;
  for (int e = 0; e < n; ++e) {
    const int fd = static_cast<int>(ready[e].data.u64 & 0xFFFF'FFFFU);
    const auto generation = static_cast<std::uint32_t>(ready[e].data.u64 >> 32);
    auto it = kq.idents.find(fd);
    if (it == kq.idents.end() || !it->second.in_epoll || it->second.generation != generation) {
      continue;  // a stale registration: never re-armed
    }
    Ident& id = it->second;
    struct stat st {};
    if (::fstat(fd, &st) != 0 || !id.is(st)) {
      kq.idents.erase(it);  // closed (epoll keeps it while a dup is open) or closed and reused
      continue;
    }
    bool changed = false;
    bool left_out = false;
    const int first = id.first;
    for (int k = 0; k < 2; ++k) {
      const int index = (first + k) % 2;
      std::optional<Knote>& knote = id.knotes[index];
      if (!knote || !knote->enabled || (ready[e].events & kFires[index]) == 0) continue;
      if (count == room) {  // level-triggered: it fires again next time; put it first then
        left_out = true;
        id.first = index;
        continue;
      }
      out[count++] = make_event(fd, index, *knote, ready[e].events, id);
      if ((knote->flags & EV_ONESHOT) != 0) {
        knote.reset();
        changed = true;
      }
    }
    // Re-arm a level-triggered registration; make an edge-triggered one queue again what was
    // left out (epoll re-checks readiness when a registration is modified).
    if (changed || (id.any_enabled() && (!id.edge || left_out)))
      update_registration(kq, epfd, fd, id);
    if (id.empty()) kq.idents.erase(it);
  }
  return count;
}

std::int64_t now_ns() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

// Milliseconds for epoll_wait, rounded up so that it never returns before the deadline.
int wait_ms(std::int64_t deadline_ns) {
  const std::int64_t left = deadline_ns - now_ns();
  if (left <= 0) return 0;
  return static_cast<int>(
      std::min<std::int64_t>((left + kNanosPerMilli - 1) / kNanosPerMilli, INT_MAX));
}

int fail(int error) {
  errno = error;
  return -1;
}

int kevent_impl(int kq, const KEvent* changelist, int nchanges, KEvent* eventlist, int nevents,
                const struct timespec* timeout) {
  if (nchanges < 0 || nevents < 0) return fail(EINVAL);
  if ((nchanges > 0 && changelist == nullptr) || (nevents > 0 && eventlist == nullptr)) {
    return fail(EFAULT);
  }
  std::shared_ptr<Kqueue> queue = find_queue(kq);
  if (queue == nullptr) return fail(EBADF);  // not made by kqueue()
  struct stat st {};
  if (::fstat(kq, &st) != 0 || st.st_dev != queue->dev || st.st_ino != queue->ino) {
    forget_queue(kq, queue);  // closed, or closed and the number reused
    return fail(EBADF);
  }

  // The changes, in order, as FreeBSD's kern_kevent_generic(): a failed change (or any change
  // with EV_RECEIPT) becomes an EV_ERROR event while there is room in the eventlist; once there
  // is none, kevent() returns at once: -1 and the errno for a failure, 0 for a receipt.
  int room = nevents;
  int errors = 0;
  {
    std::lock_guard lock(queue->mutex);
    for (int i = 0; i < nchanges; ++i) {
      KEvent change = changelist[i];  // a copy: eventlist may be changelist
      if (change.filter == 0) continue;
      change.flags = static_cast<unsigned short>(change.flags & ~kSystemFlags);
      const int error = apply_change(*queue, kq, change);
      if (error == 0 && (change.flags & EV_RECEIPT) == 0) continue;
      if (room == 0) return error == 0 ? 0 : fail(error);
      change.flags = EV_ERROR;
      change.data = error;
      eventlist[errors++] = change;
      --room;
    }
  }
  if (errors > 0) return errors;  // no waiting when the changes produced events

  bool forever = timeout == nullptr;
  std::int64_t deadline = 0;
  if (timeout != nullptr) {
    if (timeout->tv_sec < 0 || timeout->tv_nsec < 0 || timeout->tv_nsec >= kNanosPerSecond) {
      return fail(EINVAL);
    }
    if (timeout->tv_sec >= kForeverSeconds) {
      forever = true;
    } else {
      deadline = now_ns() + timeout->tv_sec * kNanosPerSecond + timeout->tv_nsec;
    }
  }
  if (nevents == 0) return 0;

  for (;;) {
    std::array<epoll_event, kBatch> ready;
    const int n =
        ::epoll_wait(kq, ready.data(), std::min(nevents, kBatch), forever ? -1 : wait_ms(deadline));
    if (n < 0) return -1;  // EINTR, as the kernel's kevent()
    if (n == 0) return 0;  // the timeout passed
    int count = 0;
    {
      std::lock_guard lock(queue->mutex);
      count = harvest(*queue, kq, ready.data(), n, eventlist, nevents);
      // A full batch: more may be ready. Take them too, without waiting, up
      // to nevents, as one kernel kevent() call would.
      for (int last = n; last == kBatch && count < nevents;) {
        last = ::epoll_wait(kq, ready.data(), std::min(nevents - count, kBatch), 0);
        if (last <= 0) break;
        count += harvest(*queue, kq, ready.data(), last, eventlist + count, nevents - count);
      }
    }
    if (count > 0) return count;
    // Only stale registrations fired: wait for what is left of the timeout.
    if (!forever && now_ns() >= deadline) return 0;
  }
}

}  // namespace

extern "C" int kqueue(void) {
  const int fd = ::epoll_create1(EPOLL_CLOEXEC);
  if (fd < 0) return -1;
  struct stat st {};
  if (::fstat(fd, &st) != 0) {
    const int error = errno;
    ::close(fd);
    return fail(error);
  }
  try {
    auto queue = std::make_shared<Kqueue>();
    queue->dev = st.st_dev;
    queue->ino = st.st_ino;
    Registry& r = registry();
    std::lock_guard lock(r.mutex);
    r.queues.insert_or_assign(fd, std::move(queue));  // a reused number starts fresh
  } catch (const std::bad_alloc&) {
    ::close(fd);
    return fail(ENOMEM);
  }
  return fd;
}

extern "C" int kevent(int kq, const struct kevent* changelist, int nchanges,
                      struct kevent* eventlist, int nevents, const struct timespec* timeout) {
  try {
    return kevent_impl(kq, changelist, nchanges, eventlist, nevents, timeout);
  } catch (const std::bad_alloc&) {
    return fail(ENOMEM);
  } catch (const std::system_error& error) {  // std::mutex::lock
    return fail(error.code().value());
  }
}
