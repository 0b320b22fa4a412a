// socket_pair.hpp: a connected pair of non-blocking Unix sockets, closed on destruction.
#pragma once

#include <fcntl.h>
#include <sys/socket.h>
#include <unistd.h>

#include <stdexcept>
#include <string>

namespace looplab::testing {

class SocketPair {
 public:
  SocketPair() {
    if (::socketpair(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0, fds_) != 0) {
      throw std::runtime_error("socketpair() failed");
    }
  }
  SocketPair(const SocketPair&) = delete;
  SocketPair& operator=(const SocketPair&) = delete;
  ~SocketPair() {
    close_left();
    close_right();
  }

  int left() const { return fds_[0]; }
  int right() const { return fds_[1]; }
  void close_left() { close_end(0); }
  void close_right() { close_end(1); }

  /// Writes `data` into one end; the other end becomes readable.
  static void send(int fd, const std::string& data) {
    if (::write(fd, data.data(), data.size()) != static_cast<ssize_t>(data.size())) {
      throw std::runtime_error("write() failed");
    }
  }
  /// Reads what is there (up to 4 KiB); "" at end of file or when nothing is there.
  static std::string receive(int fd) {
    char buffer[4096];
    ssize_t n = ::read(fd, buffer, sizeof buffer);
    return n > 0 ? std::string(buffer, static_cast<std::size_t>(n)) : std::string();
  }

 private:
  void close_end(int i) {
    if (fds_[i] >= 0) ::close(fds_[i]);
    fds_[i] = -1;
  }
  int fds_[2];
};

}  // namespace looplab::testing
