#include "looplab/timer_handle.hpp"

#include <array>
#include <charconv>
#include <cmath>
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

namespace {
// Python's repr() of a float: the shortest text that reads back the same,
// fixed from 1e-4 up to 1e16 and always with a point there ("1.5", "2.0").
std::string python_float_repr(double value) {
  std::array<char, 40> text{};
  double size = std::fabs(value);
  bool fixed = size == 0.0 || (size >= 1e-4 && size < 1e16);
  auto [end, error] =
      std::to_chars(text.data(), text.data() + text.size(), value,
                    fixed ? std::chars_format::fixed : std::chars_format::scientific);
  std::string repr(text.data(), end);
  if (fixed && repr.find('.') == std::string::npos) repr += ".0";
  return repr;
}
}  // namespace

std::string TimerHandleState::repr() const {
  // events.py, TimerHandle._repr_info(): "when=" follows "cancelled".
  std::string text = HandleState::repr();  // "<Handle [cancelled ]created at ...>"
  std::string_view head = cancelled() ? "<Handle cancelled" : "<Handle";
  text.insert(head.size(),
              " when=" + python_float_repr(
                             std::chrono::duration<double>(when_.time_since_epoch()).count()));
  text.insert(1, "Timer");
  return text;
}

}  // namespace looplab
