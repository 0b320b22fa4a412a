// Exceptions escaping callbacks go to the exception handler; the loop goes on.
#include <gtest/gtest.h>

#include <cerrno>
#include <memory>
#include <stdexcept>
#include <string>
#include <system_error>
#include <vector>

#include "looplab/event_loop.hpp"
#include "support/run_one_turn.hpp"

namespace looplab {
namespace {

using ::testing::internal::CaptureStderr;
using ::testing::internal::GetCapturedStderr;

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

TEST(ExceptionHandler, TheDefaultHandlerWritesTheReportAndTheNextCallbackRuns) {
  EventLoop loop;
  bool next_ran = false;
  loop.call_soon([] { throw ValueError("boom"); });
  loop.call_soon([&] { next_ran = true; });
  CaptureStderr();
  testing::run_one_turn(loop);
  std::string err = GetCapturedStderr();
  EXPECT_TRUE(next_ran);
  EXPECT_TRUE(contains(err, "Exception in callback <Handle created at exception_handler_test.cpp:"))
      << err;
  // The exception last, as Python prints one without a traceback.
  EXPECT_TRUE(err.ends_with("\nValueError: boom\n")) << err;
}

TEST(ExceptionRepr, IsPythonsReprOfTheExceptionAndItsMessage) {
  EXPECT_EQ(exception_repr(std::make_exception_ptr(ValueError("boom"))), "ValueError('boom')");
  EXPECT_EQ(exception_repr(std::make_exception_ptr(ValueError(""))), "ValueError()");
  EXPECT_EQ(exception_repr(std::make_exception_ptr(std::runtime_error("it's"))),
            "std::runtime_error(\"it's\")");
  EXPECT_EQ(exception_repr(std::make_exception_ptr(
                std::system_error(ECONNRESET, std::generic_category(), "recv"))),
            "std::system_error(" + std::to_string(ECONNRESET) + ", 'Connection reset by peer')");
  EXPECT_EQ(exception_repr(nullptr), "None");
}

TEST(ExceptionRepr, PythonReprOfAStrPicksTheQuotesAndEscapes) {
  EXPECT_EQ(python_repr("it's"), "\"it's\"");
  EXPECT_EQ(python_repr("say \"hi\""), "'say \"hi\"'");
  EXPECT_EQ(python_repr("both ' and \""), "'both \\' and \"'");
  EXPECT_EQ(python_repr("a\nb\\c"), "'a\\nb\\\\c'");
  EXPECT_EQ(python_repr("\x01\x7f"), "'\\x01\\x7f'");
  // What str.isprintable() refuses above ASCII is escaped too; the rest of
  // UTF-8 is shown as it is.
  EXPECT_EQ(python_repr("nbsp\u00a0here"), "'nbsp\\xa0here'");
  EXPECT_EQ(python_repr("\u200bzero \u2028 \U000f0000"), "'\\u200bzero \\u2028 \\U000f0000'");
  EXPECT_EQ(python_repr("caf\u00e9 \u6f22 \U0001f600"), "'caf\u00e9 \u6f22 \U0001f600'");
  // The edges of the table: U+009F and U+00A0 escaped, U+00A1 shown; the
  // last private-use character escaped.
  EXPECT_EQ(python_repr("\u009f\u00a0\u00a1"), "'\\x9f\\xa0\u00a1'");
  EXPECT_EQ(python_repr("\U0010fffd\u2027\u2030"), "'\\U0010fffd\u2027\u2030'");
  // Not UTF-8 (a stray byte, an overlong form, a surrogate): the bytes as they are.
  EXPECT_EQ(python_repr("\x80\xff"), "'\x80\xff'");
  EXPECT_EQ(python_repr("\xe0\x82\x80 \xed\xa0\x80"), "'\xe0\x82\x80 \xed\xa0\x80'");
}

TEST(ExceptionHandler, ACustomHandlerReceivesMessageExceptionAndHandle) {
  EventLoop loop;
  std::vector<ExceptionContext> reports;
  loop.set_exception_handler([&](EventLoop& l, const ExceptionContext& context) {
    EXPECT_EQ(&l, &loop);
    reports.push_back(context);
  });
  Handle failing = loop.call_soon([] { throw std::runtime_error("bad"); });
  testing::run_one_turn(loop);
  ASSERT_EQ(reports.size(), 1u);
  EXPECT_EQ(reports[0].message, "Exception in callback " + failing.repr());
  EXPECT_EQ(describe_exception(reports[0].exception), "std::runtime_error: bad");
  EXPECT_TRUE(reports[0].handle == failing);
}

// asyncio 3.12+: the custom handler runs inside the failing handle's Context,
// and a report that names no handle leaves the caller's Context current.
TEST(ExceptionHandler, ACustomHandlerRunsInTheContextOfTheFailingCallback) {
  static ContextVar<std::string> request_id("request_id", "none");
  Context::current() = Context();
  EventLoop loop;
  std::vector<std::string> seen;
  loop.set_exception_handler(
      [&](EventLoop&, const ExceptionContext&) { seen.push_back(request_id.get()); });
  request_id.set("req-1");
  loop.call_soon([] { throw ValueError("boom"); });
  request_id.set("main");
  testing::run_one_turn(loop);
  loop.call_exception_handler({.message = "no handle"});
  EXPECT_EQ(seen, (std::vector<std::string>{"req-1", "main"}));
  EXPECT_EQ(request_id.get(), "main");
  Context::current() = Context();
}

TEST(ExceptionHandler, NonStandardExceptionsAreReportedToo) {
  EventLoop loop;
  std::string described;
  loop.set_exception_handler([&](EventLoop&, const ExceptionContext& context) {
    described = describe_exception(context.exception);
  });
  loop.call_soon([] { throw 42; });
  testing::run_one_turn(loop);
  EXPECT_EQ(described, "int (not a std::exception)");
}

TEST(ExceptionHandler, AFailingCustomHandlerFallsBackToTheDefault) {
  EventLoop loop;
  bool next_ran = false;
  loop.set_exception_handler(
      [](EventLoop&, const ExceptionContext&) { throw RuntimeError("handler broke"); });
  loop.call_soon([] { throw ValueError("boom"); });
  loop.call_soon([&] { next_ran = true; });
  CaptureStderr();
  testing::run_one_turn(loop);
  std::string err = GetCapturedStderr();
  EXPECT_TRUE(next_ran);
  EXPECT_TRUE(contains(err, "Unhandled error in exception handler")) << err;
  EXPECT_TRUE(err.ends_with("\nRuntimeError: handler broke\n")) << err;
  // The original report, whole, as Python's repr() of its dict.
  EXPECT_TRUE(contains(err,
                       "\ncontext: {'message': 'Exception in callback <Handle created at "
                       "exception_handler_test.cpp:"))
      << err;
  EXPECT_TRUE(contains(err, ">', 'exception': ValueError('boom'), 'handle': <Handle created at "))
      << err;
}

TEST(ExceptionHandler, AnEmptyHandlerRestoresTheDefault) {
  EventLoop loop;
  int custom_calls = 0;
  loop.set_exception_handler([&](EventLoop&, const ExceptionContext&) { ++custom_calls; });
  EXPECT_TRUE(static_cast<bool>(loop.get_exception_handler()));
  loop.set_exception_handler(nullptr);
  EXPECT_FALSE(static_cast<bool>(loop.get_exception_handler()));
  loop.call_soon([] { throw ValueError("boom"); });
  CaptureStderr();
  testing::run_one_turn(loop);
  EXPECT_TRUE(contains(GetCapturedStderr(), "ValueError: boom"));
  EXPECT_EQ(custom_calls, 0);
}

TEST(ExceptionHandler, AHandlerMayReplaceItselfWhileItRuns) {
  // A one-shot handler, as asyncio allows: what it captured must outlive the
  // replacement (under ASan, a handler destroyed mid-call is a use after free).
  EventLoop loop;
  auto reports = std::make_shared<std::vector<std::string>>();
  loop.set_exception_handler([&loop, reports](EventLoop&, const ExceptionContext& context) {
    loop.set_exception_handler(nullptr);
    reports->push_back(context.message);
  });
  loop.call_exception_handler({.message = "first"});
  EXPECT_EQ(*reports, std::vector<std::string>{"first"});
  EXPECT_FALSE(loop.get_exception_handler());
}

TEST(ExceptionHandler, CallExceptionHandlerWorksWithOnlyAMessage) {
  EventLoop loop;
  CaptureStderr();
  loop.call_exception_handler({.message = "something odd"});
  loop.call_exception_handler({});
  std::string err = GetCapturedStderr();
  EXPECT_TRUE(contains(err, "something odd\n")) << err;
  EXPECT_TRUE(contains(err, "Unhandled exception in event loop\n")) << err;
}

// asyncio lets exactly two exception types through: SystemExit and KeyboardInterrupt.
TEST(ExceptionHandler, SystemExitEscapesRunForeverAndTheLoopStaysUsable) {
  EventLoop loop;
  std::vector<std::string> ran;
  loop.call_soon([] { throw SystemExit(3); });
  loop.call_soon([&] { ran.push_back("after"); });
  try {
    loop.run_forever();
    FAIL() << "SystemExit did not escape";
  } catch (const SystemExit& e) {
    EXPECT_EQ(e.code(), 3);
  }
  EXPECT_FALSE(loop.is_running());
  EXPECT_TRUE(ran.empty());
  testing::run_one_turn(loop);  // the rest of the queue is still there
  EXPECT_EQ(ran, (std::vector<std::string>{"after"}));
}

TEST(ExceptionHandler, KeyboardInterruptEscapesRunForever) {
  EventLoop loop;
  loop.call_soon([] { throw KeyboardInterrupt(); });
  EXPECT_THROW(testing::run_one_turn(loop), KeyboardInterrupt);
  EXPECT_FALSE(loop.is_running());
}

TEST(ExceptionHandler, SystemExitFromTheHandlerEscapesToo) {
  EventLoop loop;
  loop.set_exception_handler([](EventLoop&, const ExceptionContext&) { throw SystemExit(1); });
  loop.call_soon([] { throw ValueError("boom"); });
  EXPECT_THROW(testing::run_one_turn(loop), SystemExit);
}

}  // namespace
}  // namespace looplab
