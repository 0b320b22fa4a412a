// The looplab_faulty_* functions that a fault-injection build's copy of the
// stage library calls instead of the system's (faults.hpp says how).
#include "looplab/testing/faults.hpp"

#include <sys/epoll.h>
#include <sys/select.h>
#include <sys/socket.h>
#include <unistd.h>

#include <array>
#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <string>

#include "faults_internal.hpp"

namespace looplab::testing::faults {
namespace {

struct Schedule {
  std::uint64_t seed = 0;
  double rate = 0.0;
  bool eintr = false;
  bool eagain = false;
  bool short_send = false;
  bool short_recv = false;
  bool busy = false;
};

[[noreturn]] void bad_setting(const std::string& why) {
  std::fprintf(stderr, "LOOPLAB_FAULTS: %s (example: seed=7,rate=0.3,kinds=eintr+short_send)\n",
               why.c_str());
  std::abort();
}

Schedule read_schedule() {
  Schedule schedule;
  const char* text = std::getenv("LOOPLAB_FAULTS");
  if (text == nullptr || *text == '\0') return schedule;
  std::string rest = text;
  while (!rest.empty()) {
    std::size_t comma = rest.find(',');
    std::string item = rest.substr(0, comma);
    rest = comma == std::string::npos ? "" : rest.substr(comma + 1);
    std::size_t equals = item.find('=');
    if (equals == std::string::npos) bad_setting("'" + item + "' is not name=value");
    std::string name = item.substr(0, equals);
    std::string value = item.substr(equals + 1);
    if (name == "seed") {
      schedule.seed = std::strtoull(value.c_str(), nullptr, 10);
    } else if (name == "rate") {
      schedule.rate = std::strtod(value.c_str(), nullptr);
      if (!(schedule.rate >= 0.0 && schedule.rate <= 1.0))
        bad_setting("rate must be between 0 and 1");
    } else if (name == "kinds") {
      value += '+';
      for (std::size_t start = 0, plus; (plus = value.find('+', start)) != std::string::npos;
           start = plus + 1) {
        std::string kind = value.substr(start, plus - start);
        if (kind == "eintr") {
          schedule.eintr = true;
        } else if (kind == "eagain") {
          schedule.eagain = true;
        } else if (kind == "short_send") {
          schedule.short_send = true;
        } else if (kind == "short_recv") {
          schedule.short_recv = true;
        } else if (kind == "busy") {
          schedule.busy = true;
        } else {
          bad_setting("unknown kind '" + kind + "'");
        }
      }
    } else {
      bad_setting("unknown setting '" + name + "'");
    }
  }
  return schedule;
}

const Schedule& schedule() {
  static const Schedule the_schedule = read_schedule();
  return the_schedule;
}

std::atomic<std::uint64_t> injected_count{0};
std::atomic<int> pauses{0};
std::atomic<int> threads_seen{0};

// What fail_next() asked for, per call: the error and how many more times.
struct Asked {
  int error = 0;
  int count = 0;
};
std::mutex asked_mutex;
std::array<Asked, static_cast<std::size_t>(Call::kCount)> asked;
std::atomic<bool> anything_asked{false};

// splitmix64: a sequence per thread, from the seed and the thread's order of arrival.
std::uint64_t next_random() {
  thread_local std::uint64_t state = schedule().seed * 0x9E3779B97F4A7C15ULL +
                                     static_cast<std::uint64_t>(threads_seen.fetch_add(1)) + 1;
  std::uint64_t z = (state += 0x9E3779B97F4A7C15ULL);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  return z ^ (z >> 31);
}

double next_fraction() {
  return static_cast<double>(next_random() >> 11) / static_cast<double>(1ULL << 53);
}

int take_asked(Call call) {
  if (!anything_asked.load(std::memory_order_acquire)) return 0;
  std::lock_guard<std::mutex> lock(asked_mutex);
  Asked& slot = asked[static_cast<std::size_t>(call)];
  if (slot.count == 0) return 0;
  --slot.count;
  return slot.error;
}

// What happens to a call: nothing, a failure with `error` before it is
// made, or a transfer of fewer bytes than asked.
enum class Fault { kNone, kFail, kShort };

// An asked-for error first, then the schedule. `can_shorten`: the call moves
// more than one byte and the schedule's kinds allow it a prefix.
Fault decide(Call call, bool can_shorten, int& error) {
  if ((error = take_asked(call)) != 0) return Fault::kFail;
  const Schedule& s = schedule();
  if (s.rate <= 0.0 || pauses.load(std::memory_order_relaxed) > 0) return Fault::kNone;
  if (next_fraction() >= s.rate) return Fault::kNone;
  bool may_eagain =
      s.eagain && (call == Call::kRecv || call == Call::kSend || call == Call::kAccept);
  bool may_busy = s.busy && call == Call::kIoUringEnter;
  std::array<int, 4> choices{};  // an errno, or 0 for a short transfer
  std::size_t n = 0;
  if (s.eintr) choices[n++] = EINTR;
  if (may_eagain) choices[n++] = EAGAIN;
  if (may_busy) choices[n++] = next_random() % 2 == 0 ? EBUSY : EAGAIN;
  if (can_shorten) choices[n++] = 0;
  if (n == 0) return Fault::kNone;
  error = choices[next_random() % n];
  return error != 0 ? Fault::kFail : Fault::kShort;
}

std::size_t shorter(std::size_t length) {
  return 1 + static_cast<std::size_t>(next_random() % (length - 1));
}

// How many of `length` bytes a recv() or send() may move: all, a prefix
// (when `may_shorten` and the schedule says so), or none, with `error` set
// to what the call fails with before it is made. A fault is counted.
std::size_t transfer_length(Call call, std::size_t length, bool may_shorten, int& error) {
  Fault fault = decide(call, length > 1 && may_shorten, error);
  if (fault == Fault::kNone) return length;
  injected_count.fetch_add(1, std::memory_order_relaxed);
  return fault == Fault::kShort ? shorter(length) : 0;
}

// A call that fails before it is made: errno set, -1 returned.
int failed(int error) {
  errno = error;
  return -1;
}

struct Summary {
  ~Summary() {
    if (std::getenv("LOOPLAB_FAULTS") == nullptr) return;
    std::fprintf(stderr, "looplab faults: %llu injected\n",
                 static_cast<unsigned long long>(injected_count.load()));
    if (const char* log = std::getenv("LOOPLAB_FAULTS_LOG"); log != nullptr && *log != '\0') {
      if (std::FILE* file = std::fopen(log, "a")) {
        std::fprintf(file, "%llu\n", static_cast<unsigned long long>(injected_count.load()));
        std::fclose(file);
      }
    }
  }
} summary;

}  // namespace

void fail_next(Call call, int error, int count) {
  std::lock_guard<std::mutex> lock(asked_mutex);
  asked[static_cast<std::size_t>(call)] = Asked{error, count};
  anything_asked.store(true, std::memory_order_release);
}

std::uint64_t injected() { return injected_count.load(); }

int detail::error_before(Call call) {
  int error = 0;
  transfer_length(call, 0, false, error);  // a call that moves no bytes can only fail
  return error;
}

AskedOnly::AskedOnly() { pauses.fetch_add(1); }
AskedOnly::~AskedOnly() {
  std::lock_guard<std::mutex> lock(asked_mutex);
  asked.fill(Asked{});
  pauses.fetch_sub(1);
}

}  // namespace looplab::testing::faults

using looplab::testing::faults::Call;
using looplab::testing::faults::failed;
using looplab::testing::faults::schedule;
using looplab::testing::faults::transfer_length;
using looplab::testing::faults::detail::error_before;

extern "C" {

ssize_t looplab_faulty_recv(int fd, void* buffer, size_t length, int flags) {
  int error = 0;
  std::size_t allowed = transfer_length(Call::kRecv, length, schedule().short_recv, error);
  return error != 0 ? failed(error) : ::recv(fd, buffer, allowed, flags);
}

ssize_t looplab_faulty_send(int fd, const void* buffer, size_t length, int flags) {
  int error = 0;
  std::size_t allowed = transfer_length(Call::kSend, length, schedule().short_send, error);
  return error != 0 ? failed(error) : ::send(fd, buffer, allowed, flags);
}

ssize_t looplab_faulty_read(int fd, void* buffer, size_t length) {
  int error = error_before(Call::kRead);
  return error != 0 ? failed(error) : ::read(fd, buffer, length);
}

ssize_t looplab_faulty_write(int fd, const void* buffer, size_t length) {
  int error = error_before(Call::kWrite);
  return error != 0 ? failed(error) : ::write(fd, buffer, length);
}

int looplab_faulty_accept4(int fd, sockaddr* address, socklen_t* length, int flags) {
  int error = error_before(Call::kAccept);
  return error != 0 ? failed(error) : ::accept4(fd, address, length, flags);
}

int looplab_faulty_epoll_wait(int epoll_fd, epoll_event* events, int max_events, int timeout) {
  int error = error_before(Call::kEpollWait);
  return error != 0 ? failed(error) : ::epoll_wait(epoll_fd, events, max_events, timeout);
}

int looplab_faulty_select(int count, fd_set* readers, fd_set* writers, fd_set* errors,
                          timeval* timeout) {
  int error = error_before(Call::kSelect);
  return error != 0 ? failed(error) : ::select(count, readers, writers, errors, timeout);
}

}  // extern "C"
