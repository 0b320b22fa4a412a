// A callback that resolves a future twice: the InvalidStateError goes to the
// default handler, whose traceback names the type with its module
// (asyncio.exceptions.InvalidStateError), and the loop goes on.
#include "scenarios/futures/futures_trace.hpp"

using looplab::testing::trace;

LOOPLAB_SCENARIO(asyncio_error_in_a_callback_names_its_module) {
  looplab::EventLoop loop;
  looplab::Future<int> future = loop.create_future<int>();
  loop.call_soon([future] {
    future.set_result(1);
    trace("set_result(1) once");
    future.set_result(2);  // raises: the handler reports it
  });
  loop.call_soon(
      [future] { trace("next callback: result() = " + std::to_string(future.result())); });
  loop.stop();  // stop() before run_forever(): run exactly one turn
  loop.run_forever();
  trace("turn done");
  loop.close();
}

// expect: set_result(1) once
// expect: next callback: result() = 1
// expect: turn done
// expect-stderr: Exception in callback
// expect-stderr: asyncio.exceptions.InvalidStateError: invalid state
