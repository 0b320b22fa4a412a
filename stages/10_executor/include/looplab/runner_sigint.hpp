// runner_sigint.hpp: what Ctrl-C does while run() runs (asyncio.Runner's
// _on_sigint, runners.py).
//
// asyncio.run() turns Ctrl-C into a cancellation: the first SIGINT cancels
// the main task, so its `finally` blocks and the rest of its cleanup run,
// and run() then raises KeyboardInterrupt; a second SIGINT, if the first
// was not enough, raises KeyboardInterrupt at once. It does so only on the
// main thread, and only if SIGINT still does what it does by default; a
// program with its own SIGINT handler keeps it.
//
// This is not one of the loop's signal handlers (add_signal_handler()):
// the program never sees it in the loop's table, and it never takes signal
// delivery from a loop that has some. Its C handler counts the SIGINTs and
// writes to a self-pipe of its own, which the loop watches; the reader, on
// the loop's thread, does the rest. So the cancellation comes at the loop's
// next poll, where Python's handler runs at the next bytecode. A step that
// never returns never lets the loop poll: from the second SIGINT on, SIGINT
// ends the program again, as it does once run() has returned.
#pragma once

#include <memory>

#include "looplab/event_loop.hpp"
#include "looplab/future.hpp"

namespace looplab {

class RunnerSigint {
 public:
  /// Takes over SIGINT for `main_task`, if this is the main thread and SIGINT
  /// has its default action (Python: getsignal(SIGINT) is default_int_handler).
  RunnerSigint(EventLoop& loop, FutureBase& main_task);
  RunnerSigint(const RunnerSigint&) = delete;
  RunnerSigint& operator=(const RunnerSigint&) = delete;
  /// Gives SIGINT its default action back, unless the program has put a
  /// handler of its own there meanwhile, and stops watching.
  ~RunnerSigint();

  /// Deals with the SIGINTs the loop's reader has not seen yet: one that
  /// came in the last turn, after main's last step, raises KeyboardInterrupt.
  void take_interrupts();
  /// How many SIGINTs came (Runner._interrupt_count).
  int interrupt_count() const noexcept;

 private:
  struct Watch;  // what the loop's reader holds
  EventLoop* loop_;
  std::shared_ptr<Watch> watch_;  // null if SIGINT was left alone
};

}  // namespace looplab
