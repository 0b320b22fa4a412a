// backends.hpp: run a test suite once per selector this build has.
#pragma once

#include <gtest/gtest.h>

#include <string>

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

/// A selector of `kind` (never a fallback: a test of io_uring must run io_uring).
inline std::unique_ptr<Selector> open_exactly(SelectorKind kind) {
  SelectorChoice choice = open_selector(kind);
  if (!choice.fallback_reason.empty()) {
    ADD_FAILURE() << choice.fallback_reason;
  }
  return std::move(choice.selector);
}

}  // namespace looplab::testing
