// to_thread.hpp: to_thread(fn, args...), asyncio.to_thread(): a blocking
// call awaited like a coroutine.
//
// `co_await to_thread(read_file, path)` runs read_file(path) on the running
// loop's default executor, in a copy of the caller's Context (so a context
// variable set before the call is visible in the thread, which plain
// run_in_executor() does not give), and the awaiting task resumes with its
// result. It is a coroutine: nothing is submitted until it is awaited or
// made a task.
//
// g++ 12 miscompiles a closure temporary in a co_await operand (P1 in
// the design notes): pass the function and its arguments separately, as
// `to_thread(fn, args...)`, or name a lambda before awaiting the call.
#pragma once

#include <functional>
#include <utility>

#include "looplab/context.hpp"
#include "looplab/coro.hpp"
#include "looplab/event_loop.hpp"
#include "looplab/future.hpp"
#include "looplab/task.hpp"

namespace looplab {

namespace detail {

/// functools.partial(ctx.run, fn): fn, called inside a Context.
template <typename F>
class RunInContext {
 public:
  RunInContext(Context context, F fn) : context_(std::move(context)), fn_(std::move(fn)) {}

  template <typename... Args>
  decltype(auto) operator()(Args&&... args) {
    return context_.run([&]() -> decltype(auto) {
      return std::invoke(std::move(fn_), std::forward<Args>(args)...);
    });
  }

 private:
  Context context_;
  F fn_;
};

}  // namespace detail

// [to_thread]
/// asyncio.to_thread(fn, *args): awaits fn(args...) run on the running
/// loop's default executor, in a copy of the current Context. Its
/// exception is rethrown here. Cancelling the awaiting task abandons the
/// call: it runs on if it has started, and its result is dropped.
template <typename F, typename... Args>
auto to_thread(F fn, Args... args) -> Coro<concurrent::call_result_t<F, Args...>> {
  using R = concurrent::call_result_t<F, Args...>;
  // [to_thread_body]
  EventLoop& loop = get_running_loop();
  detail::RunInContext<F> call(Context::copy_current(), std::move(fn));
  Future<R> outcome = loop.run_in_executor(nullptr, std::move(call), std::move(args)...);
  co_return co_await outcome;
  // [to_thread_body]
}
// [to_thread]

}  // namespace looplab
