// scenario.hpp: the shape of a scenario twin.
//
// A scenario is a small program that prints a trace; its file carries the
// trace CPython prints for the Python twin as `// expect:` lines, and
// comparisons/check_scenario.py compares the two. All scenarios of a stage
// are linked into one binary (scenarios_sNN) and chosen by name:
//
//   LOOPLAB_SCENARIO(fifo_order) {
//     looplab::EventLoop loop;
//     ...
//   }
//
// The name must be the file's name without .cpp.
#pragma once

#include <cstdio>
#include <string>

namespace looplab::testing {

using ScenarioFunction = void (*)();
bool register_scenario(const char* name, ScenarioFunction function);

/// Prints one line of the trace (stdout, flushed, so it interleaves with stderr sensibly).
inline void trace(const std::string& line) {
  std::fputs(line.c_str(), stdout);
  std::fputc('\n', stdout);
  std::fflush(stdout);
}

}  // namespace looplab::testing

#define LOOPLAB_SCENARIO(name)                                                \
  static void looplab_scenario_##name();                                      \
  [[maybe_unused]] static const bool looplab_registered_##name =              \
      ::looplab::testing::register_scenario(#name, &looplab_scenario_##name); \
  static void looplab_scenario_##name()
