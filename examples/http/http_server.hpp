// http_server.hpp: an HTTP/1.1 server on the tasks API, one task a
// connection: keep-alive, pipelined requests answered in order, bodies by
// Content-Length, 400/413/431/501 for what it will not take, a deadline for
// a request head (a client that sends nothing, or a byte at a time, is
// closed), and asyncio's answer to running out of descriptors.
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>

#include "http_parser.hpp"
#include "looplab/coro.hpp"
#include "looplab/event_loop.hpp"
#include "looplab/task.hpp"

namespace looplab::http {

struct Limits {
  std::size_t max_head = 8192;         // larger: 431
  std::size_t max_body = 1024 * 1024;  // larger: 413
  // A request (head and body) must arrive within this, from its first byte,
  // and an idle keep-alive connection is closed after it.
  std::chrono::milliseconds request_timeout{10'000};
  std::size_t high_water = 64 * 1024;  // the writer's flow control (stream_writer.hpp)
  // asyncio's ACCEPT_RETRY_DELAY: after EMFILE, ENFILE, ENOBUFS or ENOMEM,
  // accept() waits this long instead of failing again at once on a
  // listener that stays readable.
  std::chrono::milliseconds accept_retry_delay{1'000};
};

struct Response {
  int status = 200;
  std::string content_type = "text/plain";
  std::string body;
};

using Handler = std::function<Response(const Request&, std::string_view body)>;

/// "Hello, world!\n" for any request: the benchmark's handler.
Response hello(const Request& request, std::string_view body);

class HttpServer {
 public:
  HttpServer(EventLoop& loop, Handler handler = hello, Limits limits = {});

  /// Accepts connections on `listener` (non-blocking, listening) and serves
  /// each in its own task, until cancelled; then cancels the connections.
  Coro<void> serve(int listener);

  std::size_t open_connections() const { return connections_.size(); }
  std::uint64_t requests_served() const { return requests_; }
  std::uint64_t accept_pauses() const { return accept_pauses_; }

 private:
  // What the sweeper sees of a connection's task.
  struct Connection {
    std::optional<Task<void>> task;
    bool waiting_for_request = true;  // false while it waits for the client to read
    Clock::time_point deadline;       // for the request it is reading
  };

  Coro<void> serve_connection(int fd, std::shared_ptr<Connection> state);
  void sweep();  // closes the connections whose request is late
  Response respond(const Request& request, std::string_view body);  // the handler's, or a 500
  static std::string error_response(int status);                    // and the connection closes

  EventLoop& loop_;
  Handler handler_;
  Limits limits_;
  std::unordered_map<std::uint64_t, std::shared_ptr<Connection>> connections_;
  std::uint64_t next_id_ = 0;
  std::uint64_t requests_ = 0;
  std::uint64_t accept_pauses_ = 0;
};

/// The bytes of `response`, with the headers the server always sends.
std::string format_response(const Response& response, bool keep_alive);

}  // namespace looplab::http
