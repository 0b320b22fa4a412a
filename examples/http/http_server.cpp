// http_server.cpp: see http_server.hpp.
#include "http_server.hpp"

#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <utility>
#include <vector>

#include "looplab/sleep.hpp"
#include "stream_reader.hpp"
#include "stream_writer.hpp"

namespace looplab::http {
namespace {

const char* reason(int status) {
  switch (status) {
    case 200:
      return "OK";
    case 400:
      return "Bad Request";
    case 404:
      return "Not Found";
    case 413:
      return "Content Too Large";
    case 431:
      return "Request Header Fields Too Large";
    case 500:
      return "Internal Server Error";
    case 501:
      return "Not Implemented";
    default:
      return "Unknown";
  }
}

// Closes the connection's descriptor however its task ends (a cancelled
// task too: the CancelledError unwinds through it).
class Descriptor {
 public:
  explicit Descriptor(int fd) : fd_(fd) {}
  Descriptor(const Descriptor&) = delete;
  Descriptor& operator=(const Descriptor&) = delete;
  ~Descriptor() { ::close(fd_); }

 private:
  int fd_;
};

// accept() errors that say "not now" (asyncio's selector_events.py): the
// system is out of a resource, which a later accept() may find again.
bool out_of_resources(int error) {
  return error == EMFILE || error == ENFILE || error == ENOBUFS || error == ENOMEM;
}

// accept() errors about the one connection that was waiting, not the listener.
bool connection_gone(int error) {
  return error == ECONNABORTED || error == EPROTO || error == EPERM;
}

}  // namespace

Response hello(const Request&, std::string_view) {
  return Response{200, "text/plain", "Hello, world!\n"};
}

std::string format_response(const Response& response, bool keep_alive) {
  std::string out;
  out.reserve(128 + response.body.size());
  out += "HTTP/1.1 ";
  out += std::to_string(response.status);
  out += ' ';
  out += reason(response.status);
  out += "\r\nServer: looplab\r\nContent-Type: ";
  out += response.content_type;
  out += "\r\nContent-Length: ";
  out += std::to_string(response.body.size());
  out += keep_alive ? "\r\n\r\n" : "\r\nConnection: close\r\n\r\n";
  out += response.body;
  return out;
}

HttpServer::HttpServer(EventLoop& loop, Handler handler, Limits limits)
    : loop_(loop), handler_(std::move(handler)), limits_(limits) {}

Coro<void> HttpServer::serve(int listener) {
  // The sweeper: every quarter of the request timeout, close the
  // connections whose request is late. One timer for the server, not one a
  // request.
  auto period = limits_.request_timeout / 4;
  TimerHandle sweeper;
  std::function<void()> tick = [this, period, &sweeper, &tick] {
    sweep();
    sweeper = loop_.call_later(period, tick);
  };
  sweeper = loop_.call_later(period, tick);
  try {
    while (true) {
      int fd = -1;
      try {
        Future<int> accepting = loop_.sock_accept(listener);
        fd = co_await accepting;
      } catch (const OSError& error) {
        int code = error.code().value();
        if (connection_gone(code)) continue;
        if (!out_of_resources(code)) throw;
        // Keep serving the connections we have, and try again later.
        ++accept_pauses_;
        std::fprintf(stderr, "http: accept() failed (%s): accepting again in %lld ms\n",
                     error.what(), static_cast<long long>(limits_.accept_retry_delay.count()));
      }
      if (fd < 0) {
        co_await sleep(limits_.accept_retry_delay);
        continue;
      }
      int one = 1;
      ::setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
      auto state = std::make_shared<Connection>();
      state->deadline = loop_.time() + limits_.request_timeout;
      std::uint64_t id = next_id_++;
      state->task.emplace(create_task(loop_, serve_connection(fd, state)));
      connections_.emplace(id, state);
      state->task->add_done_callback([this, id](const Future<void>&) { connections_.erase(id); });
    }
  } catch (...) {
    sweeper.cancel();
    for (auto& [id, connection] : connections_) connection->task->cancel();
    throw;
  }
}

void HttpServer::sweep() {
  Clock::time_point now = loop_.time();
  for (auto& [id, connection] : connections_) {
    if (connection->waiting_for_request && now >= connection->deadline) connection->task->cancel();
  }
}

Coro<void> HttpServer::serve_connection(int fd, std::shared_ptr<Connection> state) {
  Descriptor closer(fd);
  StreamReader reader(loop_, fd);
  StreamWriter writer(loop_, fd, limits_.high_water);
  std::string& input = reader.buffer();  // what arrived and is not answered yet
  std::string output;  // answers not yet written: those to the requests that arrived together
  bool open = true;
  try {
    while (open) {
      Request request;
      ParseResult parsed = parse_request_head(input, request, limits_.max_head);
      std::size_t needed = parsed.consumed + request.content_length;
      bool complete = parsed.status == ParseStatus::kDone && input.size() >= needed;
      if (parsed.status == ParseStatus::kDone && request.content_length > limits_.max_body) {
        output += error_response(413);
        break;
      }
      if (parsed.status != ParseStatus::kDone && parsed.status != ParseStatus::kIncomplete) {
        output += error_response(parsed.status == ParseStatus::kHeadTooLarge     ? 431
                                 : parsed.status == ParseStatus::kNotImplemented ? 501
                                                                                 : 400);
        break;
      }
      if (complete) {
        std::string_view body(input.data() + parsed.consumed, request.content_length);
        output += format_response(respond(request, body), request.keep_alive);
        ++requests_;
        input.erase(0, needed);
        state->deadline = loop_.time() + limits_.request_timeout;  // for the next one
        open = request.keep_alive;
        if (output.size() < limits_.high_water) continue;  // answer the next one first
      }
      // Write what is answered before waiting for more, or once it is a lot.
      if (!output.empty()) {
        writer.write(output);
        output.clear();
        if (writer.writing_paused()) {  // the client is not reading: stop reading it too
          state->waiting_for_request = false;
          Future<void> draining = writer.drain();
          co_await draining;
          state->waiting_for_request = true;
          state->deadline = loop_.time() + limits_.request_timeout;
        }
      }
      if (complete) continue;
      bool first_bytes = input.empty();
      Future<void> arriving = reader.wait_for_data();
      co_await arriving;
      if (reader.at_eof()) break;  // the client closed its end
      if (first_bytes) state->deadline = loop_.time() + limits_.request_timeout;
    }
    if (!output.empty()) writer.write(output);  // the last answers, then the connection closes
    state->waiting_for_request = false;
    Future<void> sent = writer.flushed();
    co_await sent;
  } catch (const OSError&) {
    // The client went away (ECONNRESET, EPIPE): nobody left to answer.
  }
}

Response HttpServer::respond(const Request& request, std::string_view body) {
  try {
    return handler_(request, body);
  } catch (const std::exception& error) {
    std::fprintf(stderr, "http: the handler failed on %s %s: %s\n", request.method.c_str(),
                 request.target.c_str(), error.what());
    return Response{500, "text/plain", "Internal Server Error\n"};
  }
}

std::string HttpServer::error_response(int status) {
  return format_response(Response{status, "text/plain", std::string(reason(status)) + "\n"}, false);
}

}  // namespace looplab::http
