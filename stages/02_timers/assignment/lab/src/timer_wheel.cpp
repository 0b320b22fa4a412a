#include "looplab/lab/timer_wheel.hpp"

#include <algorithm>
#include <stdexcept>
#include <utility>

namespace looplab::lab {

TimerWheel::TimerWheel(Clock::time_point start, Clock::duration tick, std::size_t slots)
    : start_(start), tick_(tick) {
  if (tick <= Clock::duration::zero())
    throw std::invalid_argument("TimerWheel: the tick must be positive");
  if (slots == 0) throw std::invalid_argument("TimerWheel: the wheel needs at least one slot");
  buckets_.resize(slots);
}

std::uint64_t TimerWheel::tick_of(Clock::time_point when) const noexcept {
  // [wheel_tick_of_body]
  if (when < start_) return current_tick_;
  auto tick = static_cast<std::uint64_t>((when - start_) / tick_);
  return std::max(tick, current_tick_);
  // [wheel_tick_of_body]
}

void TimerWheel::push(Ref<TimerHandleState> timer) {
  // [wheel_push_body]
  Clock::time_point when = timer->when();
  bucket_of(tick_of(when)).push_back(Entry{when, pushed_++, std::move(timer)});
  ++size_;
  // [wheel_push_body]
}

void TimerWheel::advance(Clock::time_point now, std::vector<Ref<TimerHandleState>>& due) {
  // [wheel_advance_body]
  std::uint64_t target = std::max(tick_of(now), current_tick_);
  // Past one whole turn, every bucket has been visited: stop there.
  std::uint64_t last = std::min(target, current_tick_ + buckets_.size() - 1);
  for (std::uint64_t tick = current_tick_; tick <= last; ++tick) {
    std::vector<Entry>& bucket = bucket_of(tick);
    auto later = std::partition(bucket.begin(), bucket.end(),
                                [now](const Entry& e) { return e.when > now; });
    std::move(later, bucket.end(), std::back_inserter(scratch_));
    bucket.erase(later, bucket.end());
  }
  current_tick_ = target;
  size_ -= scratch_.size();
  std::sort(scratch_.begin(), scratch_.end(), [](const Entry& a, const Entry& b) {
    return a.when != b.when ? a.when < b.when : a.order < b.order;
  });
  for (Entry& entry : scratch_) {
    if (!entry.timer->cancelled()) due.push_back(std::move(entry.timer));
  }
  scratch_.clear();
  // [wheel_advance_body]
}

std::optional<Clock::time_point> TimerWheel::earliest() const {
  // [wheel_earliest_body]
  if (empty()) return std::nullopt;
  // The first bucket, in tick order, holding a timer of that very tick has
  // the earliest deadline; the others it holds belong to later turns.
  for (std::uint64_t tick = current_tick_; tick < current_tick_ + buckets_.size(); ++tick) {
    std::optional<Clock::time_point> best;
    for (const Entry& entry : bucket_of(tick)) {
      if (tick_of(entry.when) == tick && (!best || entry.when < *best)) best = entry.when;
    }
    if (best) return best;
  }
  // Every timer is at least a whole turn away: look at them all.
  std::optional<Clock::time_point> best;
  for (const std::vector<Entry>& bucket : buckets_) {
    for (const Entry& entry : bucket) {
      if (!best || entry.when < *best) best = entry.when;
    }
  }
  return best;
  // [wheel_earliest_body]
}

}  // namespace looplab::lab
