// run_one_turn.hpp: asyncio's "loop.stop(); loop.run_forever()" idiom.
#pragma once

#include "looplab/event_loop.hpp"

namespace looplab::testing {

/// Runs exactly one turn of the loop: stop() before run_forever() means "one turn".
inline void run_one_turn(EventLoop& loop) {
  loop.stop();
  loop.run_forever();
}

}  // namespace looplab::testing
