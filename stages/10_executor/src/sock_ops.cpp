// The socket operations of asyncio's selector loop (selector_events.py:
// sock_recv, sock_sendall, sock_accept, sock_connect), on futures.
#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <cerrno>
#include <cstddef>
#include <cstring>
#include <optional>
#include <string>
#include <vector>

#include "looplab/addr_info.hpp"
#include "looplab/event_loop.hpp"

namespace looplab {
namespace {

bool would_block(int error) { return error == EAGAIN || error == EWOULDBLOCK; }

// A system call a signal interrupted (EINTR) is made again at once, as
// Python does since PEP 475: asyncio never sees it, and neither does a
// caller here (waiting for readiness instead would cost a turn).
template <typename SystemCall>
auto retrying(SystemCall call) {
  auto result = call();
  while (result < 0 && errno == EINTR) result = call();
  return result;
}

// asyncio checks this in debug mode only: a blocking socket would stop the
// whole loop inside recv() or send(). A descriptor fcntl() cannot read is
// left to the system call, which reports it (EBADF).
void check_non_blocking(bool debug, int fd) {
  if (!debug) return;
  int flags = ::fcntl(fd, F_GETFL);
  if (flags != -1 && (flags & O_NONBLOCK) == 0) {
    throw ValueError("the socket must be non-blocking");
  }
}

// Fails `future` as the socket call would in Python: OSError(errno,
// strerror), ConnectionRefusedError and the like (make_os_error()).
template <typename T>
void fail(const Future<T>& future, int error, std::string strerror = {}) {
  future.set_exception(make_os_error(error, std::move(strerror)));
}

// What asyncio writes for the address in "Connect call failed {address}":
// the tuple Python holds for it, ('127.0.0.1', 8080) or ('::1', 8080, 0, 0),
// or a Unix socket's path.
std::string python_address(const sockaddr* address, socklen_t length) {
  char host[INET6_ADDRSTRLEN] = "";
  if (address->sa_family == AF_INET) {
    const auto* ipv4 = reinterpret_cast<const sockaddr_in*>(address);
    ::inet_ntop(AF_INET, &ipv4->sin_addr, host, sizeof host);
    return "('" + std::string(host) + "', " + std::to_string(ntohs(ipv4->sin_port)) + ")";
  }
  if (address->sa_family == AF_INET6) {
    const auto* ipv6 = reinterpret_cast<const sockaddr_in6*>(address);
    ::inet_ntop(AF_INET6, &ipv6->sin6_addr, host, sizeof host);
    return "('" + std::string(host) + "', " + std::to_string(ntohs(ipv6->sin6_port)) + ", " +
           std::to_string(ntohl(ipv6->sin6_flowinfo)) + ", " + std::to_string(ipv6->sin6_scope_id) +
           ")";
  }
  if (address->sa_family == AF_UNIX) {
    const auto* local = reinterpret_cast<const sockaddr_un*>(address);
    std::size_t path_length = length - offsetof(sockaddr_un, sun_path);
    return std::string(local->sun_path, ::strnlen(local->sun_path, path_length));
  }
  return "(family " + std::to_string(address->sa_family) + ")";
}

}  // namespace

Handle EventLoop::io_handle(int fd, unsigned event) const {
  if (fd < 0 || static_cast<std::size_t>(fd) >= io_handles_.size()) return Handle();
  const IoHandles& io = io_handles_[static_cast<std::size_t>(fd)];
  const Ref<HandleState>& slot = event == kEventRead ? io.reader : io.writer;
  return slot ? Handle(slot) : Handle();
}

template <typename T>
void EventLoop::remove_io_when_done(const Future<T>& future, int fd, unsigned event) {
  Handle handle = io_handle(fd, event);
  future.add_done_callback([this, fd, event, handle](const Future<T>&) {
    if (handle.cancelled()) return;  // replaced by another waiter: leave it
    if (event == kEventRead) {
      remove_reader(fd);
    } else {
      remove_writer(fd);
    }
  });
}

// [sock_recv]
Future<std::string> EventLoop::sock_recv(int fd, std::size_t max_bytes) {
  check_non_blocking(debug_, fd);
  Future<std::string> future(*this);
  if (max_bytes == 0) {
    // Python's sock.recv(0) gives b'' without asking the kernel, which says
    // "not yet" on a socket with nothing to read: the future would wait.
    future.set_result(std::string());
    return future;
  }
  auto try_recv = [fd, max_bytes, future]() {
    if (future.done()) return true;  // cancelled meanwhile
    // Received into a buffer kept for the thread, and copied out at the
    // size received: a fresh max_bytes string per attempt would be
    // allocated and zeroed (64 KiB for a typical read) even when the call
    // would block.
    thread_local std::vector<char> buffer;
    if (buffer.size() < max_bytes) buffer.resize(max_bytes);
    ssize_t n = retrying([&] { return ::recv(fd, buffer.data(), max_bytes, 0); });
    if (n < 0 && would_block(errno)) return false;  // not yet: wait for readiness
    if (n < 0) {
      fail(future, errno);
    } else {
      future.set_result(std::string(buffer.data(), static_cast<std::size_t>(n)));
    }
    return true;
  };
  if (try_recv()) return future;  // done without waiting
  add_reader(fd, [try_recv] { try_recv(); });
  remove_io_when_done(future, fd, kEventRead);
  return future;
}
// [sock_recv]

// [sock_sendall]
Future<void> EventLoop::sock_sendall(int fd, std::string data) {
  check_non_blocking(debug_, fd);
  Future<void> future(*this);
  struct Sending {
    std::string data;
    std::size_t sent = 0;
  };
  auto sending = std::make_shared<Sending>(Sending{std::move(data)});
  auto try_send = [fd, sending, future]() {
    if (future.done()) return true;
    // At least one send(), as asyncio makes one even for no data: a broken
    // connection fails there too (BrokenPipeError).
    do {
      ssize_t n = retrying([&] {
        return ::send(fd, sending->data.data() + sending->sent,
                      sending->data.size() - sending->sent, MSG_NOSIGNAL);
      });
      if (n < 0 && would_block(errno)) return false;  // the kernel's buffer is full
      if (n < 0) {
        fail(future, errno);
        return true;
      }
      sending->sent += static_cast<std::size_t>(n);
    } while (sending->sent < sending->data.size());
    future.set_result();
    return true;
  };
  if (try_send()) return future;
  add_writer(fd, [try_send] { try_send(); });
  remove_io_when_done(future, fd, kEventWrite);
  return future;
}
// [sock_sendall]

// [sock_accept]
Future<int> EventLoop::sock_accept(int fd) {
  check_non_blocking(debug_, fd);
  Future<int> future(*this);
  auto try_accept = [fd, future]() {
    if (future.done()) return true;
    int connection =
        retrying([&] { return ::accept4(fd, nullptr, nullptr, SOCK_NONBLOCK | SOCK_CLOEXEC); });
    if (connection < 0 && would_block(errno)) return false;
    if (connection < 0) {
      fail(future, errno);
    } else {
      future.set_result(connection);
    }
    return true;
  };
  if (try_accept()) return future;
  add_reader(fd, [try_accept] { try_accept(); });
  remove_io_when_done(future, fd, kEventRead);
  return future;
}
// [sock_accept]

// [sock_connect]
Future<void> EventLoop::sock_connect(int fd, const sockaddr* address, socklen_t length) {
  check_non_blocking(debug_, fd);
  Future<void> future(*this);
  if (::connect(fd, address, length) == 0) {
    future.set_result();
    return future;
  }
  // asyncio waits on any BlockingIOError: EINPROGRESS for TCP, EAGAIN for a
  // Unix socket whose listener's backlog is full; and on InterruptedError
  // (EINTR), after which the connection goes on being made.
  if (errno != EINPROGRESS && errno != EALREADY && errno != EINTR && !would_block(errno)) {
    fail(future, errno);
    return future;
  }
  // The connection is on its way: writable means it has been made, or has
  // failed; SO_ERROR says which.
  add_writer(fd, [fd, future, where = python_address(address, length)] {
    if (future.done()) return;
    int error = 0;
    socklen_t size = sizeof error;
    if (::getsockopt(fd, SOL_SOCKET, SO_ERROR, &error, &size) != 0) {
      fail(future, errno);  // getsockopt()'s own error, as Python raises it
    } else if (error == 0) {
      future.set_result();
    } else if (!would_block(error)) {
      fail(future, error, "Connect call failed " + where);
    }
  });
  remove_io_when_done(future, fd, kEventWrite);
  return future;
}
// [sock_connect]

// [sock_connect_host]
namespace {
int socket_option(int fd, int option) {
  int value = 0;
  socklen_t size = sizeof value;
  if (::getsockopt(fd, SOL_SOCKET, option, &value, &size) != 0) {
    throw OSError(errno, "getsockopt() failed");
  }
  return value;
}
}  // namespace

// asyncio's sock_connect(sock, (host, port)): _ensure_resolved() for the
// socket's own family, type and protocol, then the first address.
Coro<void> EventLoop::sock_connect(int fd, std::string host, std::uint16_t port) {
  Future<std::vector<AddrInfo>> resolving = resolve_for_socket(fd, std::move(host), port);
  std::vector<AddrInfo> addresses = co_await resolving;
  Future<void> connecting = connect_to_first(fd, addresses);
  co_await connecting;
}

Future<std::vector<AddrInfo>> EventLoop::resolve_for_socket(int fd, std::string host,
                                                            std::uint16_t port) {
  check_non_blocking(debug_, fd);
  int family = socket_option(fd, SO_DOMAIN);
  if (family != AF_INET && family != AF_INET6) {
    throw ValueError("sock_connect(fd, host, port) needs an AF_INET or AF_INET6 socket");
  }
  int type = socket_option(fd, SO_TYPE);
  int proto = socket_option(fd, SO_PROTOCOL);
  std::string service = std::to_string(port);
  // asyncio's _ensure_resolved(): a numeric host needs no lookup, and no thread.
  if (std::optional<AddrInfo> numeric = ipaddr_info(host, service, family, type, proto)) {
    Future<std::vector<AddrInfo>> answered = create_future<std::vector<AddrInfo>>();
    answered.set_result(std::vector<AddrInfo>{*numeric});
    return answered;
  }
  return getaddrinfo(std::move(host), std::move(service), family, type, proto);
}

Future<void> EventLoop::connect_to_first(int fd, const std::vector<AddrInfo>& addresses) {
  if (addresses.empty()) throw OSError(EADDRNOTAVAIL, "getaddrinfo() returned empty list");
  const AddrInfo& first = addresses.front();
  return sock_connect(fd, reinterpret_cast<const sockaddr*>(&first.address), first.address_length);
}
// [sock_connect_host]

}  // namespace looplab
