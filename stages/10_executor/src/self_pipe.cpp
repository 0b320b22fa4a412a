#include "looplab/self_pipe.hpp"

#include <sys/eventfd.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <string>

#include "looplab/exceptions.hpp"

namespace looplab {

SelfPipe::Kind default_self_pipe_kind() {
  const char* chosen = std::getenv("LOOPLAB_SELF_PIPE");
  if (chosen == nullptr || *chosen == '\0') return SelfPipe::Kind::kEventFd;
  std::string_view name = chosen;
  if (name == "socketpair") return SelfPipe::Kind::kSocketPair;
  if (name == "eventfd") return SelfPipe::Kind::kEventFd;
  throw ValueError("LOOPLAB_SELF_PIPE=" + std::string(name) + ": expected socketpair or eventfd");
}

std::string_view name_of(SelfPipe::Kind kind) noexcept {
  return kind == SelfPipe::Kind::kSocketPair ? "socketpair" : "eventfd";
}

// [self_pipe_open]
SelfPipe::SelfPipe(Kind kind) : kind_(kind) {
  if (kind == Kind::kEventFd) {
    read_fd_ = write_fd_ = ::eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
    if (read_fd_ < 0) throw OSError(errno, "eventfd() failed: the loop cannot make its wake-up");
    return;
  }
  int ends[2];
  if (::socketpair(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0, ends) != 0) {
    throw OSError(errno, "socketpair() failed: the loop cannot make its self-pipe");
  }
  read_fd_ = ends[0];
  write_fd_ = ends[1];
}
// [self_pipe_open]

SelfPipe::~SelfPipe() {
  ::close(read_fd_);
  if (write_fd_ != read_fd_) ::close(write_fd_);
}

// [write_to_self]
void SelfPipe::write_to_self() noexcept {
  // [write_to_self_body]
  writes_.fetch_add(1, std::memory_order_relaxed);
  if (kind_ == Kind::kEventFd) {
    std::uint64_t one = 1;
    while (::write(write_fd_, &one, sizeof one) < 0 && errno == EINTR) {
    }
  } else {
    char zero = '\0';
    while (::send(write_fd_, &zero, 1, MSG_NOSIGNAL) < 0 && errno == EINTR) {
    }
  }
  // EAGAIN: the pipe is full of wake-ups already; the loop will read them.
  // [write_to_self_body]
}
// [write_to_self]

// [read_from_self]
void SelfPipe::read_from_self() noexcept {
  char buffer[4096];  // an eventfd reads as 8 bytes; a socket pair in chunks
  for (;;) {
    ssize_t got =
        ::read(read_fd_, buffer, kind_ == Kind::kEventFd ? sizeof(std::uint64_t) : sizeof buffer);
    if (got > 0 && kind_ == Kind::kSocketPair) continue;  // there may be more
    if (got < 0 && errno == EINTR) continue;
    return;  // drained (EAGAIN), or an eventfd's whole count read at once
  }
}
// [read_from_self]

}  // namespace looplab
