// After close(), add_reader/add_writer raise RuntimeError and remove_reader/remove_writer return
// False, even for a descriptor registered before close().
#include <functional>

#include "scenarios/io/io_trace.hpp"

using looplab::testing::py_bool;
using looplab::testing::SocketPair;
using looplab::testing::trace;

static void attempt(const std::string& label, const std::function<void()>& action) {
  try {
    action();
    trace(label + ": no error");
  } catch (const looplab::RuntimeError& e) {
    trace(label + ": RuntimeError: " + e.what());
  }
}

LOOPLAB_SCENARIO(closed_loop_io) {
  SocketPair pair;
  looplab::VirtualClock clock;
  looplab::EventLoop loop(clock);
  int here = pair.left();
  int there = pair.right();
  loop.add_reader(here, [] { trace("reader ran"); });
  loop.add_writer(here, [] { trace("writer ran"); });
  loop.close();
  trace(std::string("is_closed() = ") + py_bool(loop.is_closed()));
  attempt("add_reader", [&] { loop.add_reader(there, [] { trace("never"); }); });
  attempt("add_writer", [&] { loop.add_writer(there, [] { trace("never"); }); });
  trace(std::string("remove_reader (added before close) -> ") + py_bool(loop.remove_reader(here)));
  trace(std::string("remove_writer (added before close) -> ") + py_bool(loop.remove_writer(here)));
  trace(std::string("remove_reader (never added) -> ") + py_bool(loop.remove_reader(there)));
}

// expect: is_closed() = True
// expect: add_reader: RuntimeError: Event loop is closed
// expect: add_writer: RuntimeError: Event loop is closed
// expect: remove_reader (added before close) -> False
// expect: remove_writer (added before close) -> False
// expect: remove_reader (never added) -> False
