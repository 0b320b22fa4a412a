// Helpers shared by the Queue tests: what their tasks do, each logging how it
// ends. Coroutines take the queue by value (it is a handle) and the log by
// pointer (chapter 6, pitfalls P3 and P4).
#pragma once

#include <string>

#include "looplab/queues.hpp"
#include "tasks/support.hpp"

namespace looplab::testing {

/// Gets one item: logs "<name> got <item>", "<name> QueueShutDown" or
/// "<name> cancelled" (and lets the cancellation end the task).
inline Coro<void> consume(Queue<int> queue, std::string name, Log* log) {
  try {
    int item = co_await queue.get();
    log->push_back(name + " got " + std::to_string(item));
  } catch (const QueueShutDown&) {
    log->push_back(name + " QueueShutDown");
  } catch (const CancelledError&) {
    log->push_back(name + " cancelled");
    throw;
  }
}

/// Puts `item`: logs "<name> put <item>", "<name> QueueShutDown" or
/// "<name> cancelled" (and lets the cancellation end the task).
inline Coro<void> produce(Queue<int> queue, int item, std::string name, Log* log) {
  try {
    co_await queue.put(item);
    log->push_back(name + " put " + std::to_string(item));
  } catch (const QueueShutDown&) {
    log->push_back(name + " QueueShutDown");
  } catch (const CancelledError&) {
    log->push_back(name + " cancelled");
    throw;
  }
}

/// Waits in join(), then logs "<name> joined".
inline Coro<void> join_and_log(Queue<int> queue, std::string name, Log* log) {
  co_await queue.join();
  log->push_back(name + " joined");
}

}  // namespace looplab::testing
