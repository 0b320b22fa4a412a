// unix_signals.cpp: asyncio's add_signal_handler() (unix_events.py).
//
// A signal interrupts whatever the thread was doing, so its C handler may do
// almost nothing: here it notes which signal came and writes to the
// self-pipe of the loop that asked for signals, the two things CPython's own
// handler does (signalmodule.c: trip_signal() and the set_wakeup_fd write,
// whose byte names the signal). The loop wakes up, its self-pipe reader
// takes the signals in the order they came, and queues each one's
// Python-level handler as a normal callback: it runs in a later turn, where
// it may do anything a callback may.
#include <signal.h>
#include <unistd.h>

#include <array>
#include <atomic>
#include <cerrno>
#include <cstdint>
#include <string>

#include "looplab/event_loop.hpp"
#include "looplab/main_thread.hpp"

namespace looplab {
namespace {

// [signal_queue]
// Process-wide, as signals are: the deliveries not yet handled, in the order
// they came (what CPython's wake-up pipe holds, a byte per delivery naming
// the signal), and the self-pipe to write to (-1: no loop wants signals).
// The C handler, on any thread, takes the next slot of the ring and writes
// the signal's number in it; the loop's thread reads the slots in order,
// and empties each one it reads. A slot taken but not written yet reads as
// 0 (no signal has that number): the loop stops there, and the handler's
// write to the self-pipe, which follows, wakes it again.
class SignalQueue {
 public:
  // Async-signal-safe: lock-free atomics only. If the ring is full, the
  // delivery is lost, as a byte is when CPython's pipe is full.
  void push(int sig) noexcept {
    std::uint32_t slot = end_.load(std::memory_order_relaxed);
    do {
      if (slot - begin_.load(std::memory_order_acquire) >= kSlots) return;
    } while (!end_.compare_exchange_weak(slot, slot + 1, std::memory_order_relaxed));
    slots_[slot % kSlots].store(static_cast<std::uint8_t>(sig), std::memory_order_release);
  }
  // The loop's thread: the next signal that came, or 0 if there is none yet.
  int pop() noexcept {
    std::uint32_t slot = begin_.load(std::memory_order_relaxed);
    if (slot == end_.load(std::memory_order_acquire)) return 0;
    std::atomic<std::uint8_t>& cell = slots_[slot % kSlots];
    int sig = cell.load(std::memory_order_acquire);
    if (sig == 0) return 0;  // taken, not written yet
    cell.store(0, std::memory_order_relaxed);
    begin_.store(slot + 1, std::memory_order_release);  // the slot is free again
    return sig;
  }

 private:
  static constexpr std::uint32_t kSlots = 4096;  // divides 2^32: slot numbers wrap cleanly
  std::array<std::atomic<std::uint8_t>, kSlots> slots_{};
  std::atomic<std::uint32_t> begin_{0};  // the next slot to read
  std::atomic<std::uint32_t> end_{0};    // the next slot to take
};
static_assert(std::atomic<std::uint32_t>::is_always_lock_free);
static_assert(std::atomic<std::uint8_t>::is_always_lock_free);
static_assert(NSIG <= 256, "a signal number fits in a slot");

SignalQueue delivered;
std::atomic<int> wakeup_fd{-1};
static_assert(std::atomic<int>::is_always_lock_free);
// The loop whose self-pipe the queued deliveries woke: the last to add a
// handler. Its deliveries die with it, as the bytes in a closed loop's pipe
// do. Set on the main thread; read by every loop's reader.
std::atomic<const EventLoop*> delivered_to{nullptr};
// [signal_queue]

// [c_signal_handler]
extern "C" void on_signal(int sig) {
  // [on_signal_body]
  int saved_errno = errno;  // the interrupted code may be about to read it
  delivered.push(sig);
  int fd = wakeup_fd.load(std::memory_order_relaxed);
  if (fd >= 0) {
    std::uint64_t one = 1;  // an eventfd needs 8 bytes; a socket pair takes any
    [[maybe_unused]] ssize_t ignored = ::write(fd, &one, sizeof one);
  }
  errno = saved_errno;
  // [on_signal_body]
}
// [c_signal_handler]

// Forgets the deliveries queued for a loop that no longer wants them.
void drop_delivered() noexcept {
  while (delivered.pop() != 0) {
  }
}

// signal.valid_signals() on Linux: 1 to 64, but for the two glibc keeps
// for its threads (32 and 33).
bool is_valid_signal(int sig) { return sig >= 1 && sig < NSIG && sig != 32 && sig != 33; }

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

void EventLoop::check_signal(int sig) {
  if (!is_valid_signal(sig)) throw ValueError("invalid signal number " + std::to_string(sig));
}

// [add_signal_handler]
void EventLoop::add_signal_callback(int sig, Callback callback, SourceLocation where) {
  check_closed();  // after check_signal(sig), in add_signal_handler()
  if (!in_main_thread()) {
    throw RuntimeError("set_wakeup_fd only works in main thread of the main interpreter");
  }
  wakeup_fd.store(threadsafe_->self_pipe().write_fd(), std::memory_order_relaxed);
  if (delivered_to.exchange(this) != this) drop_delivered();  // another loop's, read by nobody
  Ref<HandleState> handle(new HandleState(std::move(callback), Context::copy_current(), where,
                                          HandleState::Runs::kRepeatedly));
  auto index = static_cast<std::size_t>(sig);
  if (signal_handlers_.size() <= index) signal_handlers_.resize(index + 1);
  // A handler replaced is not cancelled: what is already queued of it still
  // runs, as in asyncio. A delivery not read yet goes to the new one.
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
  // asyncio's signal.signal() refuses another thread, after the handler was
  // forgotten; here it is kept: the table belongs to the loop's thread.
  if (!in_main_thread()) {
    throw ValueError("signal only works in main thread of the main interpreter");
  }
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
  const EventLoop* me = this;
  if (delivered_to.compare_exchange_strong(me, nullptr)) drop_delivered();  // its self-pipe closes
}

// [wake_up]
// The self-pipe's reader (asyncio's _read_from_self, _process_self_data and
// _handle_signal): empty the pipe, then queue the handler of each signal
// delivered since, in the order they came. A signal whose handler was
// removed meanwhile has none to queue.
void EventLoop::wake_up() {
  threadsafe_->drain();
  // [wake_up_body]
  if (delivered_to.load(std::memory_order_relaxed) != this) return;  // no signal comes here
  for (int sig = delivered.pop(); sig != 0; sig = delivered.pop()) {
    auto index = static_cast<std::size_t>(sig);
    if (index < signal_handlers_.size() && signal_handlers_[index]) {
      ready_.push_back(signal_handlers_[index]);
    }
  }
  // [wake_up_body]
}
// [wake_up]

}  // namespace looplab
