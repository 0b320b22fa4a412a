// check.hpp: check_invariant(), looplab's own rules checked as it runs.
//
// libuv states the invariants of its loop as assert()s. looplab does the
// same for the preconditions its comments state ("Precondition: not
// empty"): in a Debug build (the dev and clang presets, where the tests
// run) each one is checked, and a broken one stops the program with the
// rule and the line; in a release build (NDEBUG) the check is compiled away.
// A broken invariant is a bug in looplab. Bad input from a user is not: it
// gets an exception, and the loop stays usable.
#pragma once

#include <cstdio>
#include <cstdlib>

#include "looplab/plumbing/source_location.hpp"

namespace looplab {

#ifdef NDEBUG
inline constexpr bool kCheckInvariants = false;
#else
inline constexpr bool kCheckInvariants = true;
#endif

/// Stops the program if `holds` is false, naming `rule` and the caller's
/// line (Debug builds only).
inline void check_invariant(bool holds, const char* rule,
                            SourceLocation where = SourceLocation::current()) noexcept {
  if constexpr (kCheckInvariants) {
    if (!holds) {
      std::fprintf(stderr, "%s:%d: looplab invariant broken: %s\n", where.file, where.line, rule);
      std::abort();
    }
  }
}

}  // namespace looplab
