// loop_bound.hpp: asyncio's _LoopBoundMixin (Lib/asyncio/mixins.py), written once
// for everything a coroutine waits in: Event and Lock (locks.hpp), and Queue.
//
// Such an object is made without a loop: asyncio's Event(), Lock() and
// Queue() take none. The first coroutine that has to wait in it binds it to
// the loop running then, whose futures it makes from then on; waiting in it
// from another loop is a RuntimeError that names the object by its repr().
// asyncio's classes inherit the mixin (`class Lock(mixins._LoopBoundMixin)`);
// here the state behind each handle does, naming itself as the template
// argument (the C++ way to write a mixin):
//
//   struct State : detail::LoopBound<State> {
//     std::string repr() const;   // "<Lock [locked]>", for the error
//   };
//   ... state->get_loop().create_future<bool>() ...   // self._get_loop().create_future()
#pragma once

#include <cstdint>
#include <string>

#include "looplab/event_loop.hpp"
#include "looplab/exceptions.hpp"

namespace looplab::detail {

/// asyncio's _LoopBoundMixin. `Self` derives from it and has
/// `std::string repr() const`, asked for only when the loops differ.
template <typename Self>
class LoopBound {
 public:
  /// asyncio's _get_loop(): the running loop, to which the object binds on
  /// first use. RuntimeError if no loop runs, or if it is bound to another
  /// ("<Lock [locked]> is bound to a different event loop"). A loop is known
  /// by its serial(), not its address, which a later loop may reuse (two
  /// run() calls in a row): asyncio holds its loop, so it never can.
  EventLoop& get_loop() {
    EventLoop& running = get_running_loop();
    if (loop_serial_ == 0) loop_serial_ = running.serial();
    if (loop_serial_ != running.serial())
      throw RuntimeError(static_cast<const Self&>(*this).repr() +
                         " is bound to a different event loop");
    return running;
  }

 private:
  // Only Self may derive from it: get_loop()'s cast trusts that.
  LoopBound() = default;
  friend Self;

  std::uint64_t loop_serial_ = 0;  // none until a coroutine first waits
};

}  // namespace looplab::detail
