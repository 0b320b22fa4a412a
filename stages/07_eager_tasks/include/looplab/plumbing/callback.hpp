// callback.hpp: a move-only `void()` callable that keeps small callables inline.
//
// asyncio stores a callback and its arguments in every Handle. In C++ the
// callback is any callable object; storing it in std::function would copy it
// and heap-allocate once its captures pass 16 bytes. `Callback` keeps callables
// of up to 32 bytes inside the object itself (the "small buffer"), so
// call_soon() does not touch the heap for ordinary lambdas. Bigger callables
// still work: they are moved to the heap, and that is the only allocation.
//
// std::move_only_function would do this job, but it needs C++23.
#pragma once

#include <cstddef>
#include <cstring>
#include <new>
#include <type_traits>
#include <utility>

#include "looplab/plumbing/check.hpp"

namespace looplab {

class Callback {
 public:
  /// Room for a lambda capturing four pointers: enough for every callback the
  /// loop itself creates. Bigger would make every Handle bigger, and a loop
  /// with 100,000 timers pays for each byte in cache misses.
  static constexpr std::size_t kInlineSize = 32;

  Callback() noexcept = default;

  template <typename F>
  requires(!std::is_same_v<std::decay_t<F>, Callback> &&
           std::is_invocable_r_v<void, std::decay_t<F>&>)
      // Implicit, so call sites can pass a lambda. The constraint above keeps it
      // from hiding the move constructor, which clang-tidy cannot see.
      Callback(F&& f) {  // NOLINT(bugprone-forwarding-reference-overload)
    // Decayed: a function given by name is kept as a pointer to it.
    using Fn = std::decay_t<F>;
    if constexpr (fits_inline<Fn>()) {
      ::new (storage_) Fn(std::forward<F>(f));
      invoke_ = [](void* storage) { (*static_cast<Fn*>(storage))(); };
      if constexpr (!std::is_trivially_copyable_v<Fn>) {
        manage_ = &manage_inline<Fn>;
      }  // else: memcpy moves it and nothing needs destroying
    } else {
      *reinterpret_cast<Fn**>(storage_) = new Fn(std::forward<F>(f));
      invoke_ = [](void* storage) { (**static_cast<Fn**>(storage))(); };
      manage_ = &manage_heap<Fn>;
    }
  }

  Callback(Callback&& other) noexcept { take(other); }

  Callback& operator=(Callback&& other) noexcept {
    if (this != &other) {
      reset();
      take(other);
    }
    return *this;
  }

  Callback(const Callback&) = delete;
  Callback& operator=(const Callback&) = delete;

  ~Callback() { reset(); }

  /// Calls the stored callable. Precondition: not empty.
  void operator()() {
    check_invariant(invoke_ != nullptr, "an empty Callback was called");
    invoke_(storage_);
  }

  explicit operator bool() const noexcept { return invoke_ != nullptr; }

  /// Destroys the stored callable (and what it captured); leaves this empty.
  void reset() noexcept {
    if (manage_ != nullptr) manage_(Op::kDestroy, storage_, nullptr);
    invoke_ = nullptr;
    manage_ = nullptr;
  }

  /// True when a callable of type F is stored without a heap allocation.
  template <typename F>
  static constexpr bool fits_inline() {
    return sizeof(F) <= kInlineSize && alignof(F) <= alignof(std::max_align_t) &&
           std::is_nothrow_move_constructible_v<F>;
  }

 private:
  enum class Op { kMove, kDestroy };
  using InvokeFn = void (*)(void*);
  using ManageFn = void (*)(Op, void* self, void* target);

  template <typename Fn>
  static void manage_inline(Op op, void* self, void* target) {
    auto* fn = static_cast<Fn*>(self);
    if (op == Op::kMove) ::new (target) Fn(std::move(*fn));
    fn->~Fn();
  }

  template <typename Fn>
  static void manage_heap(Op op, void* self, void* target) {
    Fn*& fn = *static_cast<Fn**>(self);
    if (op == Op::kMove) {
      *static_cast<Fn**>(target) = fn;  // moving a heap callable moves its pointer
    } else {
      delete fn;
    }
  }

  // Moves `other`'s callable into this (empty) object and empties `other`.
  void take(Callback& other) noexcept {
    if (other.manage_ != nullptr) {
      other.manage_(Op::kMove, other.storage_, storage_);
    } else {
      std::memcpy(storage_, other.storage_, kInlineSize);
    }
    invoke_ = std::exchange(other.invoke_, nullptr);
    manage_ = std::exchange(other.manage_, nullptr);
  }

  // The function pointers first: run_once reads invoke_ of every handle.
  InvokeFn invoke_ = nullptr;
  ManageFn manage_ = nullptr;
  alignas(std::max_align_t) std::byte storage_[kInlineSize]{};
};

}  // namespace looplab
