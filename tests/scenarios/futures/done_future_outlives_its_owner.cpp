// A done future lives on after its owner lets go, until its queued done callbacks have run.
//
// The handle that runs a done callback holds the future, as asyncio's Handle
// holds it in its arguments.
#include <memory>
#include <string>

#include "scenarios/futures/futures_trace.hpp"

using looplab::Future;
using looplab::testing::py_bool;
using looplab::testing::quoted;
using looplab::testing::run_one_turn;
using looplab::testing::trace;

LOOPLAB_SCENARIO(done_future_outlives_its_owner) {
  looplab::VirtualClock clock;
  looplab::EventLoop loop(clock);
  using Value = std::shared_ptr<const std::string>;
  std::weak_ptr<const std::string> alive;
  {
    Future<Value> future = loop.create_future<Value>();
    future.add_done_callback(
        [](Future<Value>& f) { trace("done callback sees " + quoted(*f.result())); });
    auto value = std::make_shared<const std::string>("still here");
    alive = value;
    future.set_result(std::move(value));
  }  // the owner lets go
  trace(std::string("owner let go; value alive: ") + py_bool(!alive.expired()));
  run_one_turn(loop);
  trace(std::string("after the turn; value alive: ") + py_bool(!alive.expired()));
  loop.close();
}

// expect: owner let go; value alive: True
// expect: done callback sees 'still here'
// expect: after the turn; value alive: False
