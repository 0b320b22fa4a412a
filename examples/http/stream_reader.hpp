// stream_reader.hpp: the reading half of asyncio's streams, on one socket.
// asyncio's socket transport keeps its descriptor registered while the
// connection reads, and hands what arrives to the protocol; StreamReader
// does the same: the reader stays in the selector (no epoll_ctl() per
// request, as loop.sock_recv() costs: it registers and removes a reader on
// every call that would block), what arrives is appended to buffer(), and
// a task waits for more with wait_for_data(). Above `limit` unread bytes it
// stops reading (pause_reading) until the task has consumed some.
#pragma once

#include <cstddef>
#include <exception>
#include <optional>
#include <string>

#include "looplab/event_loop.hpp"

namespace looplab::http {

class StreamReader {
 public:
  static constexpr std::size_t kDefaultLimit = 64 * 1024;  // asyncio's _DEFAULT_LIMIT

  StreamReader(EventLoop& loop, int fd, std::size_t limit = kDefaultLimit);
  StreamReader(const StreamReader&) = delete;
  StreamReader& operator=(const StreamReader&) = delete;
  ~StreamReader();

  /// What has arrived and was not consumed; erase from its front what you use.
  std::string& buffer() { return buffer_; }
  bool at_eof() const { return eof_; }
  /// Done when more bytes have been appended to buffer(), or at end of file
  /// (at_eof()); failed with the connection's OSError. asyncio's
  /// StreamReader._wait_for_data().
  Future<void> wait_for_data();

 private:
  void on_readable();
  void stop_reading();
  void wake();

  EventLoop& loop_;
  int fd_;
  std::size_t limit_;
  std::string buffer_;
  bool reading_ = false;
  bool eof_ = false;
  std::exception_ptr error_;
  std::optional<Future<void>> waiter_;
};

}  // namespace looplab::http
