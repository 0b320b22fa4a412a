// backends.hpp: run a test suite once per selector this build has.
#pragma once

#include <gtest/gtest.h>

#include <string>

#ifdef __linux__
#include <linux/io_uring.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#endif

#include "looplab/default_selector.hpp"

namespace looplab::testing {

/// For INSTANTIATE_TEST_SUITE_P: names the instances "epoll", "io_uring"...
inline std::string backend_name(const ::testing::TestParamInfo<SelectorKind>& info) {
  return std::string(to_string(info.param));
}

/// Whether `kind` is kqueue as libkqueue emulates it on Linux (the shim is
/// not), which departs from kqueue(2) in two ways a test can see: it cannot
/// see close(), so a closed descriptor's filters stay and a new descriptor on
/// the same number is never watched; and it reads a socket's error with
/// getsockopt(SO_ERROR), which on Linux clears it before the program can.
inline bool on_libkqueue(SelectorKind kind) {
#if LOOPLAB_KQUEUE_IS_LIBKQUEUE
  return kind == SelectorKind::kKqueue;
#else
  (void)kind;
  return false;
#endif
}
inline constexpr const char* kLibkqueueCannotSeeClose =
    "libkqueue cannot see close(): it keeps a closed descriptor's filters, so a new "
    "descriptor on the number is never watched (kqueue(2): close() removes them)";

/// Why this machine cannot run `kind` although this build has it ("" if it
/// can): a kernel before 5.1, or a seccomp profile (Docker's default) that
/// refuses io_uring_setup(). A test of such a backend skips with this
/// reason: the machine lacks it, the code under test is not wrong. The
/// kernel is asked directly, never through the selector under test, so a
/// selector that fails to open cannot make its own tests skip.
inline std::string ask_why_refused(SelectorKind kind) {
#ifdef __linux__
  if (kind != SelectorKind::kIoUring) return "";
  io_uring_params params{};
  long ring = ::syscall(__NR_io_uring_setup, 2, &params);
  if (ring >= 0) {
    ::close(static_cast<int>(ring));
    return "";
  }
  return std::string("this machine refuses io_uring: io_uring_setup() failed: ") +
         std::strerror(errno);
#else
  (void)kind;
  return "";
#endif
}
/// The same, asked once per process.
inline std::string why_refused(SelectorKind kind) {
  static const std::string io_uring = ask_why_refused(SelectorKind::kIoUring);
  return kind == SelectorKind::kIoUring ? io_uring : "";
}

/// A selector of `kind` (never a fallback: a test of io_uring must run io_uring).
inline std::unique_ptr<Selector> open_exactly(SelectorKind kind) {
  SelectorChoice choice = open_selector(kind);
  if (!choice.fallback_reason.empty()) {
    ADD_FAILURE() << choice.fallback_reason;
  }
  return std::move(choice.selector);
}

}  // namespace looplab::testing
