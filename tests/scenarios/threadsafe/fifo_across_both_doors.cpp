// Posts from any thread and call_soon() share one FIFO: asyncio appends a
// posted callback to the ready queue at once, so what was posted before a
// call_soon() runs before it, whichever thread posted it.
#include <string>
#include <thread>

#include "looplab/event_loop.hpp"
#include "looplab/testing/scenario.hpp"

using looplab::testing::trace;

LOOPLAB_SCENARIO(fifo_across_both_doors) {
  looplab::EventLoop loop;
  loop.call_soon_threadsafe([] { trace("A (posted by the main thread)"); });
  loop.call_soon([] { trace("B (call_soon)"); });
  loop.call_soon_threadsafe([] { trace("C (posted by the main thread)"); });
  std::thread worker([&loop] {
    for (int i = 0; i < 3; ++i) {
      loop.call_soon_threadsafe([i] { trace("T" + std::to_string(i) + " (posted by a thread)"); });
    }
  });
  worker.join();
  loop.call_soon([] { trace("D (call_soon)"); });
  loop.stop();  // stop() before run_forever(): run exactly one turn
  loop.run_forever();
  loop.close();
}

// expect: A (posted by the main thread)
// expect: B (call_soon)
// expect: C (posted by the main thread)
// expect: T0 (posted by a thread)
// expect: T1 (posted by a thread)
// expect: T2 (posted by a thread)
// expect: D (call_soon)
