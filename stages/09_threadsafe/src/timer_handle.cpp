#include "looplab/timer_handle.hpp"

#include <string_view>

#include "looplab/event_loop.hpp"
#include "looplab/reprlib.hpp"

namespace looplab {

// [timer_cancel]
void TimerHandleState::cancel() noexcept {
  // events.py, TimerHandle.cancel(): only a timer still in the heap is counted.
  if (!cancelled() && scheduled_in_ != nullptr) scheduled_in_->timer_handle_cancelled();
  HandleState::cancel();
}
// [timer_cancel]

std::string TimerHandleState::repr() const {
  // events.py, TimerHandle._repr_info(): "when=" follows "cancelled".
  std::string text = HandleState::repr();  // "<Handle created at ...>", "<Handle cancelled>"
  std::string_view head = cancelled() ? "<Handle cancelled" : "<Handle";
  text.insert(head.size(),
              " when=" + python_float_repr(
                             std::chrono::duration<double>(when_.time_since_epoch()).count()));
  text.insert(1, "Timer");
  return text;
}

}  // namespace looplab
