// stream_writer.cpp: see stream_writer.hpp.
#include "stream_writer.hpp"

#include <sys/socket.h>

#include <cerrno>
#include <cstdint>

namespace looplab::http {

StreamWriter::StreamWriter(EventLoop& loop, int fd, std::size_t high_water, std::size_t low_water)
    : loop_(loop), fd_(fd), high_water_(high_water), low_water_(low_water) {
  if (low_water > high_water) throw ValueError("low_water must not exceed high_water");
}

StreamWriter::~StreamWriter() {
  if (watching_) loop_.remove_writer(fd_);
}

void StreamWriter::write(std::string_view data) {
  if (error_) std::rethrow_exception(error_);
  if (data.empty()) return;
  std::size_t offset = 0;
  if (get_write_buffer_size() == 0) {  // try the kernel first, as asyncio's transport does
    ssize_t n = 0;
    do {
      n = ::send(fd_, data.data(), data.size(), MSG_NOSIGNAL);
    } while (n < 0 && errno == EINTR);
    if (n < 0 && errno != EAGAIN && errno != EWOULDBLOCK) {
      fail(errno);
      std::rethrow_exception(error_);
    }
    offset = n > 0 ? static_cast<std::size_t>(n) : 0;
    if (offset == data.size()) return;
  }
  if (sent_ > 0 && sent_ == buffer_.size()) {
    buffer_.clear();
    sent_ = 0;
  }
  buffer_.append(data.substr(offset));
  if (!watching_) {
    loop_.add_writer(fd_, [this] { send_buffered(); });
    watching_ = true;
  }
  if (get_write_buffer_size() > high_water_) paused_ = true;  // pause_writing()
}

Future<void> StreamWriter::drain() {
  return paused_ ? wait_until_at_most(low_water_) : wait_until_at_most(SIZE_MAX);
}

Future<void> StreamWriter::flushed() { return wait_until_at_most(0); }

Future<void> StreamWriter::wait_until_at_most(std::size_t buffered) {
  Future<void> done = loop_.create_future<void>();
  if (error_) {
    done.set_exception(error_);
  } else if (get_write_buffer_size() <= buffered) {
    done.set_result();
  } else {
    // One waiter at a time: the task that writes is the one that waits.
    if (waiter_ && !waiter_->done()) waiter_->cancel();
    waiter_ = done;
    wake_at_ = buffered;
  }
  return done;
}

void StreamWriter::send_buffered() {
  while (sent_ < buffer_.size()) {
    ssize_t n = ::send(fd_, buffer_.data() + sent_, buffer_.size() - sent_, MSG_NOSIGNAL);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) break;
    if (n < 0) {
      fail(errno);
      return;
    }
    sent_ += static_cast<std::size_t>(n);
  }
  if (sent_ == buffer_.size()) {
    buffer_.clear();
    sent_ = 0;
    loop_.remove_writer(fd_);
    watching_ = false;
  } else if (sent_ > buffer_.size() / 2) {
    buffer_.erase(0, sent_);  // keep the buffer from growing at the front
    sent_ = 0;
  }
  if (paused_ && get_write_buffer_size() <= low_water_) paused_ = false;  // resume_writing()
  if (waiter_ && !waiter_->done() && get_write_buffer_size() <= wake_at_) waiter_->set_result();
}

void StreamWriter::fail(int error) {
  error_ = std::make_exception_ptr(OSError(error, "send() failed"));
  buffer_.clear();
  sent_ = 0;
  if (watching_) loop_.remove_writer(fd_);
  watching_ = false;
  if (waiter_ && !waiter_->done()) waiter_->set_exception(error_);
}

}  // namespace looplab::http
