#include "looplab/clock.hpp"

#include <time.h>

#include <cerrno>

namespace looplab {

// [steady_sleep]
void SteadyClock::sleep_until(time_point deadline) {
  // std::chrono::steady_clock is CLOCK_MONOTONIC on Linux, so an absolute
  // sleep on that clock wakes exactly at the deadline, however long the
  // sleep was interrupted by signals.
  auto since_epoch = deadline.time_since_epoch();
  if (since_epoch.count() < 0) return;
  timespec target{};
  target.tv_sec =
      static_cast<time_t>(std::chrono::duration_cast<std::chrono::seconds>(since_epoch).count());
  target.tv_nsec = static_cast<long>((since_epoch % std::chrono::seconds(1)).count());
  while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &target, nullptr) == EINTR) {
  }
}
// [steady_sleep]

Clock::duration SteadyClock::resolution() const {
  timespec res{};
  clock_getres(CLOCK_MONOTONIC, &res);
  return std::chrono::seconds(res.tv_sec) + std::chrono::nanoseconds(res.tv_nsec);
}

}  // namespace looplab
