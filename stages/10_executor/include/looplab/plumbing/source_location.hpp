// source_location.hpp: where a callback was scheduled, for messages.
//
// asyncio's debug mode remembers where each Handle was created and shows it in
// "slow callback" warnings and in exception reports. std::source_location does
// the same in C++20, but clang 14 cannot compile libstdc++ 12's version (it
// lacks __builtin_source_location), so we use the two builtins that g++ and
// clang both have. As default arguments they name the caller's line.
#pragma once

namespace looplab {

struct SourceLocation {
  const char* file = "";
  int line = 0;

  static constexpr SourceLocation current(const char* file = __builtin_FILE(),
                                          int line = __builtin_LINE()) noexcept {
    return SourceLocation{file, line};
  }
};

}  // namespace looplab
