// loop.getaddrinfo() answers in the shape of socket.getaddrinfo(): (family,
// type, proto, canonname, address) entries. A numeric host needs no name
// service; a name that cannot be resolved raises GaiError (socket.gaierror)
// with the EAI code as errno and gai_strerror()'s text.
#include <arpa/inet.h>
#include <netdb.h>
#include <netinet/in.h>
#include <sys/socket.h>

#include <string>
#include <vector>

#include "looplab/addr_info.hpp"
#include "looplab/event_loop.hpp"
#include "looplab/run.hpp"
#include "scenarios/executor/executor_trace.hpp"

using looplab::testing::trace;

namespace {

std::string family_name(int family) { return family == AF_INET6 ? "AF_INET6" : "AF_INET"; }
std::string type_name(int type) { return type == SOCK_DGRAM ? "SOCK_DGRAM" : "SOCK_STREAM"; }

std::string host_and_port(const looplab::AddrInfo& info) {
  char host[INET6_ADDRSTRLEN] = "";
  int port = 0;
  if (info.family == AF_INET6) {
    const auto* address = reinterpret_cast<const sockaddr_in6*>(&info.address);
    inet_ntop(AF_INET6, &address->sin6_addr, host, sizeof host);
    port = ntohs(address->sin6_port);
  } else {
    const auto* address = reinterpret_cast<const sockaddr_in*>(&info.address);
    inet_ntop(AF_INET, &address->sin_addr, host, sizeof host);
    port = ntohs(address->sin_port);
  }
  return std::string("host=") + host + " port=" + std::to_string(port);
}

void show(const std::string& label, const std::vector<looplab::AddrInfo>& infos) {
  for (const looplab::AddrInfo& info : infos) {
    trace(label + ": " + family_name(info.family) + " " + type_name(info.type) +
          " proto=" + std::to_string(info.protocol) + " canonname='" + info.canonname + "' " +
          host_and_port(info));
  }
}

void show_error(const std::string& label, const looplab::GaiError& error) {
  trace(label + ": gaierror errno=" + std::to_string(error.code().value()) + ": " +
        error.strerror());
}

looplab::Coro<void> attempt(std::string label,
                            looplab::Future<std::vector<looplab::AddrInfo>> lookup) {
  try {
    co_await lookup;
  } catch (const looplab::GaiError& error) {
    show_error(label, error);
  }
}

looplab::Coro<void> main_coroutine() {
  looplab::EventLoop& loop = looplab::get_running_loop();
  looplab::Future<std::vector<looplab::AddrInfo>> lookup =
      loop.getaddrinfo("127.0.0.1", "80", 0, SOCK_STREAM);
  std::vector<looplab::AddrInfo> infos = co_await lookup;
  show("127.0.0.1", infos);
  lookup = loop.getaddrinfo("::1", "443", 0, SOCK_STREAM);
  infos = co_await lookup;
  show("::1", infos);
  lookup = loop.getaddrinfo("127.0.0.1", "53", 0, SOCK_DGRAM);
  infos = co_await lookup;
  show("127.0.0.1 udp", infos);
  looplab::Coro<void> failing =
      attempt("a name with AI_NUMERICHOST",
              loop.getaddrinfo("localhost", "80", 0, SOCK_STREAM, 0, AI_NUMERICHOST));
  co_await std::move(failing);
  failing = attempt("::1 as AF_INET", loop.getaddrinfo("::1", "80", AF_INET, SOCK_STREAM));
  co_await std::move(failing);
}

}  // namespace

LOOPLAB_SCENARIO(getaddrinfo_numeric_and_errors) { looplab::run(main_coroutine()); }

// expect: 127.0.0.1: AF_INET SOCK_STREAM proto=6 canonname='' host=127.0.0.1 port=80
// expect: ::1: AF_INET6 SOCK_STREAM proto=6 canonname='' host=::1 port=443
// expect: 127.0.0.1 udp: AF_INET SOCK_DGRAM proto=17 canonname='' host=127.0.0.1 port=53
// expect: a name with AI_NUMERICHOST: gaierror errno=-2: Name or service not known
// expect: ::1 as AF_INET: gaierror errno=-9: Address family for hostname not supported
