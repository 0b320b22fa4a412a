// stream_reader.cpp: see stream_reader.hpp.
#include "stream_reader.hpp"

#include <sys/socket.h>

#include <cerrno>
#include <vector>

namespace looplab::http {

StreamReader::StreamReader(EventLoop& loop, int fd, std::size_t limit)
    : loop_(loop), fd_(fd), limit_(limit) {}

StreamReader::~StreamReader() { stop_reading(); }

Future<void> StreamReader::wait_for_data() {
  Future<void> more = loop_.create_future<void>();
  if (error_) {
    more.set_exception(error_);
    return more;
  }
  if (eof_) {
    more.set_result();
    return more;
  }
  if (!reading_) {  // resume_reading(): first call, or paused at the limit
    loop_.add_reader(fd_, [this] { on_readable(); });
    reading_ = true;
  }
  waiter_ = more;
  return more;
}

void StreamReader::on_readable() {
  // Received into a buffer kept for the thread, then appended at the size
  // received: growing buffer_ by 64 KiB first would zero it on every call.
  thread_local std::vector<char> scratch(kDefaultLimit);
  ssize_t n = 0;
  do {
    n = ::recv(fd_, scratch.data(), scratch.size(), 0);
  } while (n < 0 && errno == EINTR);
  if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) return;  // a readiness that was not there
  if (n < 0) {
    error_ = std::make_exception_ptr(OSError(errno, "recv() failed"));
    stop_reading();
  } else if (n == 0) {
    eof_ = true;
    stop_reading();
  } else {
    buffer_.append(scratch.data(), static_cast<std::size_t>(n));
    if (buffer_.size() >= limit_) stop_reading();  // pause_reading(): the task is behind
  }
  wake();
}

void StreamReader::stop_reading() {
  if (reading_) loop_.remove_reader(fd_);
  reading_ = false;
}

void StreamReader::wake() {
  if (!waiter_ || waiter_->done()) return;
  if (error_) {
    waiter_->set_exception(error_);
  } else {
    waiter_->set_result();
  }
}

}  // namespace looplab::http
