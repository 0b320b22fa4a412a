// futures_trace.hpp: what the futures scenario twins share: the io and timer
// scenarios' helpers (socket pair, t=0.250 lines, one-turn runs, Python's
// spelling of strings and bools), plus errno's names and the number of
// descriptors the loop watches (support/watched.hpp: the Python twins leave
// out asyncio's self-pipe).
#pragma once

#include <cerrno>
#include <string>

#include "looplab/event_loop.hpp"
#include "looplab/sleep.hpp"
#include "scenarios/io/io_trace.hpp"
#include "support/watched.hpp"

namespace looplab::testing {

/// The name errno.errorcode gives the error numbers these scenarios meet.
inline std::string errno_name(int error) {
  switch (error) {
    case ECONNREFUSED:
      return "ECONNREFUSED";
    case EPIPE:
      return "EPIPE";
    case EBADF:
      return "EBADF";
    default:
      return std::to_string(error);
  }
}

}  // namespace looplab::testing
