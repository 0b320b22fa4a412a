// addr_info.hpp: AddrInfo and GaiError, Python's socket.getaddrinfo()
// entries and socket.gaierror, and the blocking call itself.
//
// ::getaddrinfo() may read files, ask a DNS server and wait for its answer:
// seconds, on a bad network. No loop may make that call on its own thread,
// so EventLoop::getaddrinfo() runs it on the default executor, as asyncio
// does (event_loop.hpp). A host that is already a numeric address needs no
// lookup at all (ipaddr_info()).
#pragma once

#include <sys/socket.h>

#include <optional>
#include <string>
#include <vector>

#include "looplab/exceptions.hpp"

namespace looplab {

/// One entry of getaddrinfo()'s answer, Python's 5-tuple
/// (family, type, proto, canonname, sockaddr), with the address as the
/// system's sockaddr, ready for connect().
struct AddrInfo {
  int family = 0;
  int type = 0;
  int protocol = 0;
  std::string canonname{};
  sockaddr_storage address{};
  socklen_t address_length = 0;
};

/// Python's socket.gaierror: getaddrinfo() failed. code() holds the EAI_*
/// value (negative on Linux), strerror() gai_strerror()'s text for it, and
/// what() both, as Python's str(): "[Errno -2] Name or service not known".
class GaiError : public OSError {
 public:
  explicit GaiError(int eai_code);
  const char* what() const noexcept override { return message_.c_str(); }

 private:
  std::string message_;
};

/// socket.getaddrinfo(host, port, family, type, proto, flags): the blocking
/// call, on the calling thread. An empty host or port is Python's None.
/// GaiError if the lookup fails (OSError for EAI_SYSTEM, with errno).
std::vector<AddrInfo> socket_getaddrinfo(const std::string& host, const std::string& port,
                                         int family = 0, int type = 0, int proto = 0,
                                         int flags = 0);

/// asyncio's _ipaddr_info(): the one answer for a host that is already a
/// numeric IPv4 or IPv6 address, for a stream or datagram socket and a
/// numeric (or empty) port; nullopt if only a lookup can tell.
std::optional<AddrInfo> ipaddr_info(const std::string& host, const std::string& port,
                                    int family = 0, int type = 0, int proto = 0);

}  // namespace looplab
