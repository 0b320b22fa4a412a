// clock_trace.hpp: trace lines stamped with the loop's (virtual) time, "t=0.250 ...",
// as the Python twins print them with f"t={loop.time():.3f}".
#pragma once

#include <chrono>
#include <cstdio>
#include <string>

#include "looplab/event_loop.hpp"
#include "looplab/testing/scenario.hpp"

namespace looplab::testing {

inline std::string fixed3(double value) {
  char text[32];
  std::snprintf(text, sizeof text, "%.3f", value);
  return text;
}

inline std::string seconds_of(Clock::time_point t) {
  return fixed3(std::chrono::duration<double>(t.time_since_epoch()).count());
}

inline void trace_at(EventLoop& loop, const std::string& what) {
  trace("t=" + seconds_of(loop.time()) + " " + what);
}

inline Clock::time_point at_seconds(double seconds) {
  return Clock::time_point(
      std::chrono::round<Clock::duration>(std::chrono::duration<double>(seconds)));
}

}  // namespace looplab::testing
