#include "looplab/timer_handle.hpp"

#include <cstdio>
#include <string_view>

#include "looplab/event_loop.hpp"

namespace looplab {

// [timer_cancel]
void TimerHandleState::cancel() noexcept {
  // events.py, TimerHandle.cancel(): only a timer still in the heap is counted.
  if (!cancelled() && scheduled_in_ != nullptr) scheduled_in_->timer_handle_cancelled();
  HandleState::cancel();
}
// [timer_cancel]

std::string TimerHandleState::repr() const {
  std::string text = HandleState::repr();  // "<Handle ...>"
  char when[48];
  std::snprintf(when, sizeof when, " when=%.3f",
                std::chrono::duration<double>(when_.time_since_epoch()).count());
  text.insert(std::string_view("<Handle").size(), when);
  text.insert(1, "Timer");
  return text;
}

}  // namespace looplab
