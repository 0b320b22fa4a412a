#include "looplab/runner_sigint.hpp"

#include <signal.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstdint>
#include <exception>
#include <memory>

#include "looplab/exceptions.hpp"
#include "looplab/main_thread.hpp"
#include "looplab/plumbing/ref.hpp"
#include "looplab/self_pipe.hpp"

namespace looplab {
namespace {

// Process-wide, as signals are; at most one run() on the main thread owns
// them at a time.
std::atomic<int> interrupts{0};
std::atomic<int> wakeup_fd{-1};
static_assert(std::atomic<int>::is_always_lock_free);

// sigaction() is async-signal-safe: the C handler may call this too.
void give_sigint_its_default_action() noexcept {
  struct sigaction action {};
  action.sa_handler = SIG_DFL;
  sigemptyset(&action.sa_mask);
  ::sigaction(SIGINT, &action, nullptr);
}

// Async-signal-safe, on whichever thread the kernel picked: an atomic add,
// a write() and a sigaction(). From the second SIGINT on, SIGINT has its
// default action again: if the loop is stuck in a step that never returns,
// the next Ctrl-C still ends the program, as Python's second one ends the step.
extern "C" void on_runner_sigint(int /*sig*/) {
  int saved_errno = errno;
  if (interrupts.fetch_add(1, std::memory_order_release) >= 1) give_sigint_its_default_action();
  int fd = wakeup_fd.load(std::memory_order_relaxed);
  if (fd >= 0) {
    std::uint64_t one = 1;  // an eventfd needs 8 bytes; a socket pair takes any
    [[maybe_unused]] ssize_t ignored = ::write(fd, &one, sizeof one);
  }
  errno = saved_errno;
}

bool sigint_is_default() {
  struct sigaction current {};
  return ::sigaction(SIGINT, nullptr, &current) == 0 && (current.sa_flags & SA_SIGINFO) == 0 &&
         current.sa_handler == SIG_DFL;
}

// One for the whole process, never closed before exit: a handler running
// late on another thread can never write into a descriptor reused since.
SelfPipe& runner_pipe() {
  static SelfPipe pipe{default_self_pipe_kind()};
  return pipe;
}

}  // namespace

// The reader's state: the task to cancel and how many SIGINTs were dealt
// with. The reader's callback holds it.
struct RunnerSigint::Watch {
  Ref<FutureBase> main_task;
  int handled = 0;

  // [runner_on_sigint]
  // Runner._on_sigint, once per SIGINT: the first cancels the main task if
  // it is not done; any other raises KeyboardInterrupt, which leaves the
  // loop as it does from any callback.
  void take_interrupts() {
    int count = interrupts.load(std::memory_order_acquire);
    while (handled < count) {
      ++handled;
      if (handled == 1 && !main_task->done()) {
        main_task->cancel();
      } else {
        throw KeyboardInterrupt();
      }
    }
  }
  // [runner_on_sigint]
};

RunnerSigint::RunnerSigint(EventLoop& loop, FutureBase& main_task) : loop_(&loop) {
  if (!in_main_thread() || !sigint_is_default()) return;
  auto watch = std::make_shared<Watch>();
  watch->main_task = Ref<FutureBase>(&main_task);
  int read_fd = -1;
  try {
    SelfPipe& pipe = runner_pipe();
    pipe.read_from_self();  // what an earlier run() left unread
    read_fd = pipe.read_fd();
    loop.add_reader(read_fd, [watch] {
      runner_pipe().read_from_self();
      watch->take_interrupts();
    });
  } catch (const std::exception&) {
    return;  // no descriptor to spare: as asyncio when signal.signal() refuses, run without it
  }
  interrupts.store(0, std::memory_order_relaxed);
  wakeup_fd.store(runner_pipe().write_fd(), std::memory_order_relaxed);
  struct sigaction action {};
  action.sa_handler = on_runner_sigint;
  action.sa_flags = SA_RESTART;  // the pipe wakes the loop; other calls go on
  sigemptyset(&action.sa_mask);
  if (::sigaction(SIGINT, &action, nullptr) != 0) {
    wakeup_fd.store(-1, std::memory_order_relaxed);
    loop.remove_reader(read_fd);
    return;
  }
  watch_ = std::move(watch);
}

RunnerSigint::~RunnerSigint() {
  if (!watch_) return;
  struct sigaction current {};
  if (::sigaction(SIGINT, nullptr, &current) == 0 && (current.sa_flags & SA_SIGINFO) == 0 &&
      current.sa_handler == on_runner_sigint) {
    give_sigint_its_default_action();
  }
  wakeup_fd.store(-1, std::memory_order_relaxed);
  if (!loop_->is_closed()) loop_->remove_reader(runner_pipe().read_fd());
}

void RunnerSigint::take_interrupts() {
  if (watch_) watch_->take_interrupts();
}

int RunnerSigint::interrupt_count() const noexcept {
  return watch_ ? interrupts.load(std::memory_order_acquire) : 0;
}

}  // namespace looplab
