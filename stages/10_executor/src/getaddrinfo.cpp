// getaddrinfo.cpp: the blocking lookup the default executor runs, and the
// numeric fast path that needs none (addr_info.hpp).
#include <arpa/inet.h>
#include <netdb.h>
#include <netinet/in.h>

#include <cerrno>
#include <charconv>
#include <cstring>
#include <memory>
#include <string>
#include <system_error>

#include "looplab/addr_info.hpp"

namespace looplab {

namespace {
// getaddrinfo()'s EAI_ codes, which socket.gaierror carries: their text is
// gai_strerror()'s, as in Python's gaierror(-2, 'Name or service not
// known'), not strerror()'s ("Unknown error -2").
class GaiCategory final : public std::error_category {
 public:
  const char* name() const noexcept override { return "getaddrinfo"; }
  std::string message(int code) const override { return ::gai_strerror(code); }
};

const std::error_category& gai_category() noexcept {
  static const GaiCategory category;
  return category;
}
}  // namespace

GaiError::GaiError(int eai_code)
    : OSError(eai_code, gai_category(), ::gai_strerror(eai_code)),
      message_("[Errno " + std::to_string(eai_code) + "] " + ::gai_strerror(eai_code)) {}

// [socket_getaddrinfo]
std::vector<AddrInfo> socket_getaddrinfo(const std::string& host, const std::string& port,
                                         int family, int type, int proto, int flags) {
  addrinfo hints{};
  hints.ai_family = family;
  hints.ai_socktype = type;
  hints.ai_protocol = proto;
  hints.ai_flags = flags;
  addrinfo* found = nullptr;
  int error = ::getaddrinfo(host.empty() ? nullptr : host.c_str(),
                            port.empty() ? nullptr : port.c_str(), &hints, &found);
  if (error == EAI_SYSTEM) throw OSError(errno, "getaddrinfo() failed");
  if (error != 0) throw GaiError(error);
  std::unique_ptr<addrinfo, void (*)(addrinfo*)> owned(found, ::freeaddrinfo);
  std::vector<AddrInfo> answer;
  for (const addrinfo* entry = found; entry != nullptr; entry = entry->ai_next) {
    AddrInfo info{.family = entry->ai_family,
                  .type = entry->ai_socktype,
                  .protocol = entry->ai_protocol,
                  .canonname = entry->ai_canonname != nullptr ? entry->ai_canonname : "",
                  .address_length = entry->ai_addrlen};
    std::memcpy(&info.address, entry->ai_addr, entry->ai_addrlen);
    answer.push_back(std::move(info));
  }
  return answer;
}
// [socket_getaddrinfo]

// [ipaddr_info]
std::optional<AddrInfo> ipaddr_info(const std::string& host, const std::string& port, int family,
                                    int type, int proto) {
  if (proto != 0 && proto != IPPROTO_TCP && proto != IPPROTO_UDP) return std::nullopt;
  if (type == SOCK_STREAM) {
    proto = IPPROTO_TCP;
  } else if (type == SOCK_DGRAM) {
    proto = IPPROTO_UDP;
  } else {
    return std::nullopt;
  }
  // A service name ("http") needs the lookup; an empty port is port 0.
  std::uint16_t port_number = 0;
  if (!port.empty()) {
    auto [end, error] = std::from_chars(port.data(), port.data() + port.size(), port_number);
    if (error != std::errc() || end != port.data() + port.size()) return std::nullopt;
  }
  // Linux's inet_pton() refuses an IPv6 zone ("::1%lo"): the lookup reads it.
  if (host.empty() || host.find('%') != std::string::npos) return std::nullopt;
  AddrInfo info{.family = 0, .type = type, .protocol = proto};
  if (family == AF_UNSPEC || family == AF_INET) {
    sockaddr_in address{};
    if (::inet_pton(AF_INET, host.c_str(), &address.sin_addr) == 1) {
      address.sin_family = AF_INET;
      address.sin_port = htons(port_number);
      info.family = AF_INET;
      std::memcpy(&info.address, &address, sizeof address);
      info.address_length = sizeof address;
      return info;
    }
  }
  if (family == AF_UNSPEC || family == AF_INET6) {
    sockaddr_in6 address{};
    if (::inet_pton(AF_INET6, host.c_str(), &address.sin6_addr) == 1) {
      address.sin6_family = AF_INET6;
      address.sin6_port = htons(port_number);
      info.family = AF_INET6;
      std::memcpy(&info.address, &address, sizeof address);
      info.address_length = sizeof address;
      return info;
    }
  }
  return std::nullopt;
}
// [ipaddr_info]

}  // namespace looplab
