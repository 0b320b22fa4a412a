// io_trace.hpp: what the io scenario twins share: a non-blocking socket pair (tests/io), the
// t=0.250 trace lines of the timer scenarios, one-turn runs, and Python's spelling of a string
// repr ('ping') and of a bool (True/False), so the C++ lines match the Python twins' prints.
#pragma once

#include <string>

#include "io/socket_pair.hpp"
#include "scenarios/timers/clock_trace.hpp"
#include "support/run_one_turn.hpp"

namespace looplab::testing {

/// Python's repr() of a short ASCII string without quotes in it: 'ping'.
inline std::string quoted(const std::string& text) { return "'" + text + "'"; }

/// Python's str() of a bool.
inline const char* py_bool(bool value) { return value ? "True" : "False"; }

}  // namespace looplab::testing
