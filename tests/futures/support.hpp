// Helpers shared by the futures tests: a virtual-clock loop with a recording
// exception handler, and TCP sockets on 127.0.0.1 for sock_accept/sock_connect.
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
#include "support/run_one_turn.hpp"

namespace looplab::testing {

using namespace std::chrono_literals;

/// Seconds since the virtual clock's zero.
inline double seconds(Clock::time_point t) {
  return std::chrono::duration<double>(t.time_since_epoch()).count();
}

/// A loop on a virtual clock whose exception handler records each report as
/// "message | TypeName: what" (or just "message" when there is no exception).
struct RecordingLoop {
  std::vector<std::string> reports;  // first: the loop may report while it is destroyed
  VirtualClock clock;
  EventLoop loop{clock};

  RecordingLoop() {
    loop.set_exception_handler([this](EventLoop&, const ExceptionContext& context) {
      std::string line = context.message;
      if (context.exception) line += " | " + describe_exception(context.exception);
      reports.push_back(line);
    });
  }
};

/// The exception a callable throws, as "TypeName: what" ("" if it returns).
template <typename F>
std::string thrown_by(F&& fn) {
  try {
    fn();
  } catch (...) {
    return describe_exception(std::current_exception());
  }
  return "";
}

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
