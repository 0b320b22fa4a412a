#include "looplab/handle.hpp"

#include <string_view>

#include "looplab/event_loop.hpp"
#include "looplab/exceptions.hpp"
#include "looplab/plumbing/scope_exit.hpp"

namespace looplab {

void HandleState::run(EventLoop& loop) {
  // [handle_run]
  // The callback may cancel its own handle while it runs: cancel() then
  // leaves the callback alone, and it is released here, after the run.
  ScopeExit finish([this] {
    running_ = false;
    if (runs_once_ || cancelled()) callback_.reset();
  });
  running_ = true;
  // [handle_run_body]
  try {
    context_.run(callback_);
  } catch (const LoopExit&) {
    throw;
  } catch (...) {
    loop.call_exception_handler({.message = "Exception in callback " + repr(),
                                 .exception = std::current_exception(),
                                 .handle = Handle(Ref<HandleState>(this))});
  }
  // [handle_run_body]
  // [handle_run]
}

std::string HandleState::repr() const {
  // Outside debug mode, asyncio's repr names the callback; cancel() drops
  // the callback, which leaves "<Handle cancelled>". (Its debug mode keeps
  // "created at" there too; looplab prints the same in both.)
  if (cancelled()) return "<Handle cancelled>";
  std::string_view file = created_at_.file;
  if (auto slash = file.rfind('/'); slash != std::string_view::npos) file.remove_prefix(slash + 1);
  std::string text = "<Handle created at ";
  text.append(file).append(":").append(std::to_string(created_at_.line)).append(">");
  return text;
}

}  // namespace looplab
