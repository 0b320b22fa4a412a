// The parts of queues.hpp that do not depend on the item type.
#include "looplab/queues.hpp"

namespace looplab {

// Python's str() of these is empty: what() is the type's name, as looplab's
// other exceptions made without a message (repr: QueueEmpty()).
QueueEmpty::QueueEmpty() : std::runtime_error("QueueEmpty") {}
QueueFull::QueueFull() : std::runtime_error("QueueFull") {}
QueueShutDown::QueueShutDown() : std::runtime_error("QueueShutDown") {}

namespace detail {

// A new queue has nothing unfinished: join() returns at once.
QueueCore::QueueCore(int maxsize, const char* kind) : maxsize(maxsize), kind(kind) {
  finished.set();
}

// Queue._format() in Lib/asyncio/queues.py, but for `_queue=[...]`.
std::string QueueCore::repr() const {
  std::string text = std::string("<") + kind + " maxsize=" + std::to_string(maxsize);
  if (!getters.empty()) text += " _getters[" + std::to_string(getters.size()) + "]";
  if (!putters.empty()) text += " _putters[" + std::to_string(putters.size()) + "]";
  if (unfinished_tasks > 0) text += " tasks=" + std::to_string(unfinished_tasks);
  if (is_shutdown) text += " shutdown";
  return text + ">";
}

// Queue._wakeup_next(): one wake-up, for the first waiter still waiting.
void QueueCore::wakeup_next(std::deque<Future<void>>& waiters) {
  while (!waiters.empty()) {
    Future<void> waiter = std::move(waiters.front());
    waiters.pop_front();
    // Done already: cancelled, and its task will find out when it resumes.
    if (!waiter.done()) {
      waiter.set_result();
      break;
    }
  }
}

}  // namespace detail
}  // namespace looplab
