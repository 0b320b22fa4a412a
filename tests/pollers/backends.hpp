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

/// A selector of `kind` (never a fallback: a test of io_uring must run io_uring).
inline std::unique_ptr<Selector> open_exactly(SelectorKind kind) {
  SelectorChoice choice = open_selector(kind);
  if (!choice.fallback_reason.empty()) {
    ADD_FAILURE() << choice.fallback_reason;
  }
  return std::move(choice.selector);
}

}  // namespace looplab::testing
