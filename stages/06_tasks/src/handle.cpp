#include "looplab/handle.hpp"

#include <string_view>

#include "looplab/event_loop.hpp"
#include "looplab/exceptions.hpp"

namespace looplab {

void HandleState::run(EventLoop& loop) {
  // [handle_run]
  // The callback may cancel its own handle while it runs: cancel() then
  // leaves the callback alone, and it is released here, after the run.
  struct Finish {
    HandleState* self;
    ~Finish() {
      self->running_ = false;
      if (self->runs_once_ || self->cancelled_) self->callback_.reset();
    }
  } finish{this};
  running_ = true;
  // BEGIN SOLUTION 01
  try {
    context_.run(callback_);
  } catch (const SystemExit&) {
    throw;
  } catch (const KeyboardInterrupt&) {
    throw;
  } catch (...) {
    loop.call_exception_handler({.message = "Exception in callback " + repr(),
                                 .exception = std::current_exception(),
                                 .handle = Handle(Ref<HandleState>(this))});
  }
  // END SOLUTION
  // BEGIN STUB
  // // TODO(chapter 1): run the callback inside context_, and send any
  // // exception except SystemExit and KeyboardInterrupt to the loop's
  // // exception handler with the message "Exception in callback " + repr().
  // (void)loop;
  // callback_();
  // END STUB
  // [handle_run]
}

std::string HandleState::repr() const {
  std::string_view file = created_at_.file;
  if (auto slash = file.rfind('/'); slash != std::string_view::npos) file.remove_prefix(slash + 1);
  std::string text = cancelled_ ? "<Handle cancelled created at " : "<Handle created at ";
  text.append(file).append(":").append(std::to_string(created_at_.line)).append(">");
  return text;
}

}  // namespace looplab
