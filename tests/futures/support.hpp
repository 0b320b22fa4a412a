// Helpers shared by the futures tests: TCP sockets on 127.0.0.1 for
// sock_accept/sock_connect (the loop they drive is support/test_loop.hpp's).
#pragma once

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <chrono>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "looplab/event_loop.hpp"
#include "support/test_loop.hpp"

namespace looplab::testing {

/// An owned descriptor, closed on destruction.
class Fd {
 public:
  Fd() = default;
  explicit Fd(int fd) : fd_(fd) {}
  Fd(Fd&& other) noexcept : fd_(std::exchange(other.fd_, -1)) {}
  Fd& operator=(Fd&& other) noexcept {
    if (this != &other) {
      reset();
      fd_ = std::exchange(other.fd_, -1);
    }
    return *this;
  }
  Fd(const Fd&) = delete;
  Fd& operator=(const Fd&) = delete;
  ~Fd() { reset(); }
  int get() const noexcept { return fd_; }
  void reset() noexcept {
    if (fd_ >= 0) ::close(fd_);
    fd_ = -1;
  }

 private:
  int fd_ = -1;
};

inline bool is_non_blocking(int fd) { return (::fcntl(fd, F_GETFL) & O_NONBLOCK) != 0; }

/// A non-blocking TCP socket, not yet connected.
inline Fd tcp_socket() {
  int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
  if (fd < 0) throw std::runtime_error("socket() failed");
  return Fd(fd);
}

/// 127.0.0.1:port
inline sockaddr_in loopback(std::uint16_t port) {
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_port = htons(port);
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  return address;
}

/// A non-blocking socket listening on 127.0.0.1, on a port the kernel chose.
struct TcpListener {
  Fd fd = tcp_socket();
  sockaddr_in address{};

  TcpListener() {
    sockaddr_in any = loopback(0);
    if (::bind(fd.get(), reinterpret_cast<const sockaddr*>(&any), sizeof any) != 0 ||
        ::listen(fd.get(), 16) != 0) {
      throw std::runtime_error("bind()/listen() failed");
    }
    socklen_t size = sizeof address;
    ::getsockname(fd.get(), reinterpret_cast<sockaddr*>(&address), &size);
  }
  const sockaddr* addr() const { return reinterpret_cast<const sockaddr*>(&address); }
};

/// 127.0.0.1 on a port nobody listens on: bound by us a moment ago, then closed.
inline sockaddr_in closed_port() {
  Fd probe = tcp_socket();
  sockaddr_in any = loopback(0);
  if (::bind(probe.get(), reinterpret_cast<const sockaddr*>(&any), sizeof any) != 0) {
    throw std::runtime_error("bind() failed");
  }
  sockaddr_in address{};
  socklen_t size = sizeof address;
  ::getsockname(probe.get(), reinterpret_cast<sockaddr*>(&address), &size);
  return address;  // `probe` closes here, without ever listening
}

/// The size of the kernel's send buffer of `fd` (what one send() can queue).
inline int send_buffer_size(int fd) {
  int size = 0;
  socklen_t length = sizeof size;
  ::getsockopt(fd, SOL_SOCKET, SO_SNDBUF, &size, &length);
  return size;
}

/// The errno of the OSError a future finished with (0 for any other outcome).
template <typename T>
int os_error_of(const Future<T>& future) {
  try {
    future.result();
  } catch (const OSError& error) {
    return error.code().value();
  } catch (...) {
  }
  return 0;
}

}  // namespace looplab::testing
