// scope_exit.hpp: run a function when a scope ends, however it ends.
//
// The loop restores state on the way out of a call whether it returns or
// throws: the running flag after run_forever(), the current Context after a
// callback. One small guard serves every such place (C++20 has no
// std::scope_exit; the Library Fundamentals TS's has the same meaning).
#pragma once

#include <utility>

namespace looplab {

/// `ScopeExit restore([&] { ... });` runs the lambda when `restore` goes out
/// of scope, on a return and on an exception alike. The lambda must not throw.
template <typename F>
class [[nodiscard]] ScopeExit {
 public:
  explicit ScopeExit(F fn) : fn_(std::move(fn)) {}
  ScopeExit(const ScopeExit&) = delete;
  ScopeExit& operator=(const ScopeExit&) = delete;
  ~ScopeExit() { fn_(); }

 private:
  F fn_;
};

}  // namespace looplab
