// repr() of a future that finished with a value shows it as reprlib.repr() does (result=...):
// numbers, True/False, None for no value, quoted strings shortened once the quoted text passes
// 30 characters (an escape counts as its characters, also that of a character
// Python does not print; characters, not bytes).
#include <cstdint>
#include <limits>
#include <string>
#include <utility>
#include <variant>

#include "scenarios/futures/futures_trace.hpp"

using looplab::Future;
using looplab::testing::trace;

namespace {

template <typename T>
std::string finished_with(looplab::EventLoop& loop, T value) {
  Future<T> future = loop.create_future<T>();
  future.set_result(std::move(value));
  return future.repr();
}

}  // namespace

LOOPLAB_SCENARIO(repr_shows_the_result) {
  looplab::VirtualClock clock;
  looplab::EventLoop loop(clock);
  trace(finished_with(loop, 42));
  trace(finished_with(loop, -7L));
  trace(finished_with(loop, std::numeric_limits<std::int64_t>::max()));
  trace(finished_with(loop, true));
  Future<> none = loop.create_future();
  none.set_result();
  trace(none.repr());
  trace(finished_with(loop, std::monostate{}));  // looplab's None as a value
  trace(finished_with(loop, std::string("hi")));
  trace(finished_with(loop, std::string("it's")));
  trace(finished_with(loop, std::string(29, 'x')));
  trace(finished_with(loop, std::string("abcdefghijklmnopqrstuvwxyz0123456789")));
  std::string e_acute = "\u00e9";  // two bytes in UTF-8, one character
  std::string fifteen;
  std::string forty;
  for (int i = 0; i < 15; ++i) fifteen += e_acute;
  for (int i = 0; i < 40; ++i) forty += e_acute;
  trace(finished_with(loop, fifteen));
  trace(finished_with(loop, forty));
  trace(finished_with(loop, std::string(10, '\0')));
  std::string nbsp = "\u00a0";  // a character Python escapes, as \xa0
  std::string ten_nbsp;
  for (int i = 0; i < 10; ++i) ten_nbsp += nbsp;
  trace(finished_with(loop, "nbsp" + nbsp + "here"));
  trace(finished_with(loop, ten_nbsp));
  for (double value :
       {1.0, 0.1, -2.5, 1e16, 1e-05, 0.0001, 123.456, 1.0 / 3,
        std::numeric_limits<double>::infinity(), std::numeric_limits<double>::quiet_NaN()}) {
    trace(finished_with(loop, value));
  }
  Future<int> pending = loop.create_future<int>();
  trace(pending.repr());
  pending.cancel();
  trace(pending.repr());
  loop.close();
}

// expect: <Future finished result=42>
// expect: <Future finished result=-7>
// expect: <Future finished result=9223372036854775807>
// expect: <Future finished result=True>
// expect: <Future finished result=None>
// expect: <Future finished result=None>
// expect: <Future finished result='hi'>
// expect: <Future finished result="it's">
// expect: <Future finished result='xxxxxxxxxxxx...xxxxxxxxxxxxx'>
// expect: <Future finished result='abcdefghijkl...xyz0123456789'>
// expect: <Future finished result='ééééééééééééééé'>
// expect: <Future finished result='éééééééééééé...ééééééééééééé'>
// expect: <Future finished result='\x00\x00\x00...0\x00\x00\x00'>
// expect: <Future finished result='nbsp\xa0here'>
// expect: <Future finished result='\xa0\xa0\xa0...0\xa0\xa0\xa0'>
// expect: <Future finished result=1.0>
// expect: <Future finished result=0.1>
// expect: <Future finished result=-2.5>
// expect: <Future finished result=1e+16>
// expect: <Future finished result=1e-05>
// expect: <Future finished result=0.0001>
// expect: <Future finished result=123.456>
// expect: <Future finished result=0.3333333333333333>
// expect: <Future finished result=inf>
// expect: <Future finished result=nan>
// expect: <Future pending>
// expect: <Future cancelled>
