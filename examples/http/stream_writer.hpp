// stream_writer.hpp: the writing half of asyncio's streams, on one socket,
// with asyncio's flow control (selector_events.py's transport, streams.py's
// FlowControlMixin): write() never waits; what the kernel does not take at
// once is buffered and sent when the socket becomes writable. Above the
// high-water mark writing is paused (pause_writing) and drain() waits until
// the buffer is down to the low-water mark (resume_writing). A peer that
// stops reading therefore stops a writer that drains, at a bounded buffer.
#pragma once

#include <cstddef>
#include <exception>
#include <optional>
#include <string>
#include <string_view>

#include "looplab/event_loop.hpp"

namespace looplab::http {

class StreamWriter {
 public:
  // asyncio's defaults: 64 KiB high, a quarter of it low.
  static constexpr std::size_t kDefaultHighWater = 64 * 1024;

  StreamWriter(EventLoop& loop, int fd, std::size_t high_water = kDefaultHighWater,
               std::size_t low_water = kDefaultHighWater / 4);
  StreamWriter(const StreamWriter&) = delete;
  StreamWriter& operator=(const StreamWriter&) = delete;
  ~StreamWriter();

  /// Sends `data`, or buffers what the kernel does not take. After the
  /// connection failed, throws its OSError (as asyncio's drain() raises).
  void write(std::string_view data);
  /// Done at once unless writing is paused; then done when the buffer is
  /// down to the low-water mark (or failed with the connection's error).
  Future<void> drain();
  /// Done when every byte written so far is in the kernel's hands: what a
  /// connection waits for before it closes (asyncio's transport.close()
  /// sends its buffer first, too).
  Future<void> flushed();
  bool writing_paused() const { return paused_; }
  std::size_t get_write_buffer_size() const { return buffer_.size() - sent_; }

 private:
  void send_buffered();
  void fail(int error);
  Future<void> wait_until_at_most(std::size_t buffered);

  EventLoop& loop_;
  int fd_;
  std::size_t high_water_;
  std::size_t low_water_;
  std::string buffer_;
  std::size_t sent_ = 0;  // bytes at the front of buffer_ already sent
  bool watching_ = false;
  bool paused_ = false;
  std::optional<Future<void>> waiter_;  // of drain() or flushed()
  std::size_t wake_at_ = 0;             // ... done once the buffer is this small
  std::exception_ptr error_;
};

}  // namespace looplab::http
