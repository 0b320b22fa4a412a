// What the plumbing buys (chapter 1): each piece of include/looplab/plumbing/
// against the plain standard type it replaces, on the work the loop gives it.
// Each pair runs the same operations; there is no asyncio twin, as for
// timer_churn_eager: these figures price a design choice, not a loop.
#include <benchmark/benchmark.h>

#include <cstddef>
#include <deque>
#include <functional>
#include <memory>
#include <new>
#include <utility>
#include <vector>

#include "looplab/plumbing/block_pool.hpp"
#include "looplab/plumbing/callback.hpp"
#include "looplab/plumbing/ref.hpp"
#include "looplab/plumbing/ring_buffer.hpp"

namespace {

constexpr int kBatch = 1'000;

// A callback as the loop makes them: a lambda capturing three pointers
// (24 bytes), past std::function's 16 bytes of inline storage in libstdc++.
// One op = one callback made, queued (moved into a vector), run, destroyed.
template <typename Function>
void callback_workload(benchmark::State& state) {
  std::vector<Function> queue;
  queue.reserve(kBatch);
  long a = 0;
  long b = 0;
  long c = 0;
  while (state.KeepRunningBatch(kBatch)) {
    for (int i = 0; i < kBatch; ++i) {
      queue.emplace_back([pa = &a, pb = &b, pc = &c] { ++*pa, ++*pb, ++*pc; });
    }
    for (Function& callback : queue) callback();
    queue.clear();
  }
  benchmark::DoNotOptimize(a + b + c);
}

void plumbing_callback(benchmark::State& state) { callback_workload<looplab::Callback>(state); }
void plumbing_std_function(benchmark::State& state) {
  callback_workload<std::function<void()>>(state);
}
// plumbing_callback: a Callback capturing three pointers made, queued, run and destroyed.
//
// plumbing_std_function: the same with std::function<void()>.
BENCHMARK(plumbing_callback);
BENCHMARK(plumbing_std_function);

// A handle as call_soon() shares it: made once, held by the ready queue and
// by the caller (two copies), then both let go.
// One op = one object made, copied twice, destroyed.
struct Counted : looplab::RefCounted, looplab::PoolAllocated {
  long value = 0;
};
struct Plain {
  long value = 0;
};

void plumbing_ref(benchmark::State& state) {
  std::vector<looplab::Ref<Counted>> held;
  held.reserve(std::size_t{2} * kBatch);
  while (state.KeepRunningBatch(kBatch)) {
    for (int i = 0; i < kBatch; ++i) {
      looplab::Ref<Counted> handle(new Counted);
      held.push_back(handle);
      held.push_back(std::move(handle));
    }
    held.clear();
  }
}
void plumbing_shared_ptr(benchmark::State& state) {
  std::vector<std::shared_ptr<Plain>> held;
  held.reserve(std::size_t{2} * kBatch);
  while (state.KeepRunningBatch(kBatch)) {
    for (int i = 0; i < kBatch; ++i) {
      auto handle = std::make_shared<Plain>();
      held.push_back(handle);
      held.push_back(std::move(handle));
    }
    held.clear();
  }
}
// plumbing_ref: a pool-allocated object made, held by two Refs, released by both.
//
// plumbing_shared_ptr: the same with std::make_shared and two shared_ptrs.
BENCHMARK(plumbing_ref);
BENCHMARK(plumbing_shared_ptr);

// The ready queue over many turns: filled with 1,000 entries, drained, again.
// One op = one push and one pop.
void plumbing_ring_buffer(benchmark::State& state) {
  looplab::RingBuffer<long> queue;
  long sum = 0;
  while (state.KeepRunningBatch(kBatch)) {
    for (int i = 0; i < kBatch; ++i) queue.push_back(i);
    while (!queue.empty()) sum += queue.pop_front();
  }
  benchmark::DoNotOptimize(sum);
}
void plumbing_deque(benchmark::State& state) {
  std::deque<long> queue;
  long sum = 0;
  while (state.KeepRunningBatch(kBatch)) {
    for (int i = 0; i < kBatch; ++i) queue.push_back(i);
    while (!queue.empty()) {
      sum += queue.front();
      queue.pop_front();
    }
  }
  benchmark::DoNotOptimize(sum);
}
// plumbing_ring_buffer: one push and one pop on a RingBuffer filled and drained by 1,000.
//
// plumbing_deque: the same on a std::deque.
BENCHMARK(plumbing_ring_buffer);
BENCHMARK(plumbing_deque);

// Handle-sized blocks (96 bytes), 1,000 live at once, as a turn's handles are.
// One op = one block allocated and freed.
constexpr std::size_t kBlockSize = 96;

void plumbing_block_pool(benchmark::State& state) {
  std::vector<void*> blocks(kBatch);
  while (state.KeepRunningBatch(kBatch)) {
    for (void*& block : blocks) block = looplab::BlockPool::allocate(kBlockSize);
    for (void* block : blocks) looplab::BlockPool::deallocate(block, kBlockSize);
  }
  benchmark::DoNotOptimize(blocks.data());
}
void plumbing_operator_new(benchmark::State& state) {
  std::vector<void*> blocks(kBatch);
  while (state.KeepRunningBatch(kBatch)) {
    for (void*& block : blocks) block = ::operator new(kBlockSize);
    for (void* block : blocks) ::operator delete(block);
  }
  benchmark::DoNotOptimize(blocks.data());
}
// plumbing_block_pool: one 96-byte block from the BlockPool and back, 1,000 live at once.
//
// plumbing_operator_new: the same with operator new and delete.
BENCHMARK(plumbing_block_pool);
BENCHMARK(plumbing_operator_new);

}  // namespace
