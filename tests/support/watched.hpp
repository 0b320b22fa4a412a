// watched.hpp: how many descriptors the program has the loop watch.
#pragma once

#include <cstddef>

#include "looplab/event_loop.hpp"

namespace looplab::testing {

/// The selector's size without the loop's own descriptors: from stage 09
/// on, the loop always watches its self-pipe (asyncio's len(get_map())
/// counts it too, and its tests subtract _internal_fds the same way).
inline std::size_t watched(const EventLoop& loop) {
#if LOOPLAB_STAGE >= 9
  // close() unregisters the self-pipe with everything else.
  return loop.selector().size() - (loop.is_closed() ? 0 : EventLoop::internal_fds());
#else
  return loop.selector().size();
#endif
}

}  // namespace looplab::testing
