// task_trace.hpp: what the tasks scenarios print, so that the turn in which
// each thing happens is visible.
//
// A scenario runs its loop one turn at a time ("loop.stop();
// loop.run_forever()" runs exactly one turn, in asyncio as here) and every
// line says which turn printed it: "turn 2: child runs". The Python twins
// keep the same counter. Scenarios about timers print the loop's (virtual)
// time instead: "t=1.000 timeout expired".
//
// Coroutines take everything by value or by pointer (chapter 6, pitfalls P3
// and P4), and bind aggregates, capturing lambdas and initializer lists to a
// named local before any co_await that uses them (pitfall P1).
#pragma once

#include <chrono>
#include <cstdio>
#include <string>

#include "looplab/coro.hpp"
#include "looplab/event_loop.hpp"
#include "looplab/sleep.hpp"
#include "looplab/task.hpp"
#include "looplab/testing/scenario.hpp"

namespace looplab::testing {

/// The turn being run: 0 before the first one.
inline int current_turn = 0;

/// Runs `count` turns, one at a time.
inline void run_turns(EventLoop& loop, int count) {
  for (int i = 0; i < count; ++i) {
    ++current_turn;
    loop.stop();  // stop() before run_forever(): exactly one turn
    loop.run_forever();
  }
}

/// "turn N: what"
inline void say(const std::string& what) {
  trace("turn " + std::to_string(current_turn) + ": " + what);
}

/// "t=1.500 what", the loop's time with three decimals, as Python's f"{t:.3f}".
inline void say_at(EventLoop& loop, const std::string& what) {
  char stamp[32];
  std::snprintf(stamp, sizeof stamp, "t=%.3f ",
                std::chrono::duration<double>(loop.time().time_since_epoch()).count());
  trace(stamp + what);
}

/// Python's repr() of a bool.
inline const char* py(bool value) { return value ? "True" : "False"; }

}  // namespace looplab::testing
