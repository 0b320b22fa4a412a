// unix_signals.cpp: asyncio's add_signal_handler() (unix_events.py).
//
// A signal interrupts whatever the thread was doing, so its C handler may do
// almost nothing: here it counts the delivery and writes to the self-pipe
// of the loop that asked for signals, exactly the two things CPython's own
// handler does (signalmodule.c: trip_signal() and the set_wakeup_fd write).
// The loop wakes up, its self-pipe reader sees the count, and queues the
// Python-level handler as a normal callback: it runs in a later turn, where
// it may do anything a callback may.
#include <signal.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <array>
#include <atomic>
#include <cerrno>
#include <cstdint>
#include <string>

#include "looplab/event_loop.hpp"

namespace looplab {
namespace {

// Process-wide, as signals are: the deliveries not yet handled, per signal
// number, and the self-pipe to write to (-1: no loop wants signals).
std::array<std::atomic<std::uint32_t>, NSIG> tripped{};
std::atomic<int> wakeup_fd{-1};
static_assert(std::atomic<std::uint32_t>::is_always_lock_free);
static_assert(std::atomic<int>::is_always_lock_free);

// [c_signal_handler]
extern "C" void on_signal(int sig) {
  // [on_signal_body]
  int saved_errno = errno;  // the interrupted code may be about to read it
  tripped[static_cast<std::size_t>(sig)].fetch_add(1, std::memory_order_relaxed);
  int fd = wakeup_fd.load(std::memory_order_relaxed);
  if (fd >= 0) {
    std::uint64_t one = 1;  // an eventfd needs 8 bytes; a socket pair takes any
    [[maybe_unused]] ssize_t ignored = ::write(fd, &one, sizeof one);
  }
  errno = saved_errno;
  // [on_signal_body]
}
// [c_signal_handler]

// signal.valid_signals() on Linux: 1 to 64, but for the two glibc keeps
// for its threads (32 and 33).
bool is_valid_signal(int sig) { return sig >= 1 && sig < NSIG && sig != 32 && sig != 33; }

void check_signal(int sig) {
  if (!is_valid_signal(sig)) throw ValueError("invalid signal number " + std::to_string(sig));
}

bool in_main_thread() { return ::syscall(SYS_gettid) == ::getpid(); }

// signal.signal(sig, handler) with siginterrupt(sig, False): system calls
// that the signal interrupts are restarted. Returns errno, 0 on success.
int install(int sig, void (*handler)(int)) {
  struct sigaction action {};
  action.sa_handler = handler;
  action.sa_flags = SA_RESTART;
  sigemptyset(&action.sa_mask);
  return ::sigaction(sig, &action, nullptr) == 0 ? 0 : errno;
}

}  // namespace

// [add_signal_handler]
void EventLoop::add_signal_callback(int sig, Callback callback, SourceLocation where) {
  check_signal(sig);
  check_closed();
  if (!in_main_thread()) {
    throw RuntimeError("set_wakeup_fd only works in main thread of the main interpreter");
  }
  wakeup_fd.store(threadsafe_->self_pipe().write_fd(), std::memory_order_relaxed);
  Ref<HandleState> handle(new HandleState(std::move(callback), Context::copy_current(), where,
                                          HandleState::Runs::kRepeatedly));
  auto index = static_cast<std::size_t>(sig);
  if (signal_handlers_.size() <= index) signal_handlers_.resize(index + 1);
  // Deliveries counted while the signal had no handler were for nobody
  // (asyncio drops them as it reads them). A handler replaced is not
  // cancelled: what is already queued of it still runs, as in asyncio.
  if (!signal_handlers_[index]) tripped[index].store(0, std::memory_order_relaxed);
  signal_handlers_[index] = std::move(handle);
  if (int error = install(sig, on_signal); error != 0) {
    signal_handlers_[index].reset();
    release_signal_wakeup_if_unused();
    if (error == EINVAL) throw RuntimeError("sig " + std::to_string(sig) + " cannot be caught");
    throw OSError(error, "sigaction(" + std::to_string(sig) + ") failed");
  }
}
// [add_signal_handler]

bool EventLoop::remove_signal_handler(int sig) {
  check_signal(sig);
  auto index = static_cast<std::size_t>(sig);
  if (index >= signal_handlers_.size() || !signal_handlers_[index]) return false;
  signal_handlers_[index].reset();  // not cancelled: what is queued of it still runs
  // CPython restores its own default_int_handler for SIGINT (KeyboardInterrupt);
  // C++ has none, so every signal gets its default action back.
  if (int error = install(sig, SIG_DFL); error != 0) {
    if (error == EINVAL) throw RuntimeError("sig " + std::to_string(sig) + " cannot be caught");
    throw OSError(error, "sigaction(" + std::to_string(sig) + ") failed");
  }
  release_signal_wakeup_if_unused();
  return true;
}

// After the last handler: nothing to wake this loop for (set_wakeup_fd(-1)),
// and an empty table, which tells wait_for_events() there is no signal to
// look for.
void EventLoop::release_signal_wakeup_if_unused() noexcept {
  for (const Ref<HandleState>& handler : signal_handlers_) {
    if (handler) return;
  }
  signal_handlers_.clear();
  int mine = threadsafe_->self_pipe().write_fd();
  wakeup_fd.compare_exchange_strong(mine, -1, std::memory_order_relaxed);
}

void EventLoop::remove_all_signal_handlers() noexcept {
  for (std::size_t sig = 0; sig < signal_handlers_.size(); ++sig) {
    if (!signal_handlers_[sig]) continue;
    signal_handlers_[sig]->cancel();
    signal_handlers_[sig].reset();
    install(static_cast<int>(sig), SIG_DFL);
  }
  release_signal_wakeup_if_unused();
}

// [wake_up]
// The self-pipe's reader (asyncio's _read_from_self and _process_self_data):
// empty the pipe, then queue a handler for each signal delivered since.
void EventLoop::wake_up() {
  threadsafe_->drain();
  // [wake_up_body]
  for (std::size_t sig = 0; sig < signal_handlers_.size(); ++sig) {
    Ref<HandleState>& handler = signal_handlers_[sig];
    if (!handler) continue;
    std::uint32_t deliveries = tripped[sig].exchange(0, std::memory_order_relaxed);
    for (std::uint32_t i = 0; i < deliveries; ++i) ready_.push_back(handler);
  }
  // [wake_up_body]
}
// [wake_up]

}  // namespace looplab
