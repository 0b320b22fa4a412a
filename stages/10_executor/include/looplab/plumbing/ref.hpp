// ref.hpp: an intrusive reference count, and `Ref<T>`, the pointer that holds one.
//
// Python objects are reference counted; asyncio's Handle lives as long as the
// ready queue or the caller holds it. `Ref<T>` gives our Handle the same
// lifetime rule. The count is a plain integer, not an atomic: a loop and its
// handles belong to one thread. Stage 09 adds the one exception, a handle
// posted with call_soon_threadsafe(), which the posting thread and the loop
// both hold: such an object is marked shared before anyone else sees it, and
// its count is then changed with atomic operations. Every other object pays
// one well-predicted branch for that, not an atomic instruction.
#pragma once

#include <atomic>
#include <cstdint>
#include <type_traits>
#include <utility>

#include "looplab/plumbing/check.hpp"

namespace looplab {

/// Base class of objects owned through `Ref<T>`. The object deletes itself
/// when the last `Ref` lets go.
class RefCounted {
 public:
  RefCounted() = default;
  RefCounted(const RefCounted&) = delete;
  RefCounted& operator=(const RefCounted&) = delete;

  void add_ref() noexcept {
    if (shared_) [[unlikely]] {
      add_shared_ref();
    } else {
      ++refs_;
    }
  }
  /// Returns true when this was the last reference (the caller deletes).
  bool drop_ref() noexcept {
    if (shared_) [[unlikely]] {
      return drop_shared_ref();
    }
    check_invariant(refs_ > 0, "a reference was dropped more often than taken");
    return --refs_ == 0;
  }

 protected:
  ~RefCounted() = default;
  /// From now on the count is changed atomically: for an object that two
  /// threads hold. Call it before the object is handed to another thread.
  void share_across_threads() noexcept { shared_ = true; }

 private:
  // Out of line: the rare path stays out of every Ref's inlined code.
  [[gnu::noinline]] void add_shared_ref() noexcept {
    std::atomic_ref<std::uint32_t>(refs_).fetch_add(1, std::memory_order_relaxed);
  }
  [[gnu::noinline]] bool drop_shared_ref() noexcept {
    // acq_rel: whatever a thread did with the object happens before its delete.
    return std::atomic_ref<std::uint32_t>(refs_).fetch_sub(1, std::memory_order_acq_rel) == 1;
  }

  alignas(std::atomic_ref<std::uint32_t>::required_alignment) std::uint32_t refs_ = 0;
  bool shared_ = false;
};

template <typename T>
class Ref {
 public:
  Ref() noexcept = default;
  explicit Ref(T* object) noexcept : object_(object) {
    if (object_ != nullptr) object_->add_ref();
  }
  Ref(const Ref& other) noexcept : Ref(other.object_) {}
  Ref(Ref&& other) noexcept : object_(std::exchange(other.object_, nullptr)) {}
  /// A Ref to a derived class converts to a Ref to its base (TimerHandleState to HandleState).
  template <typename U>
  requires std::is_convertible_v<U*, T*> Ref(Ref<U> other)
  noexcept : object_(other.release()) {}
  Ref& operator=(Ref other) noexcept {
    std::swap(object_, other.object_);
    return *this;
  }
  ~Ref() { reset(); }

  void reset() noexcept {
    if (object_ != nullptr && object_->drop_ref()) destroy(object_);
    object_ = nullptr;
  }

  T* get() const noexcept { return object_; }
  /// Gives up ownership without dropping the reference (for the conversion above).
  [[nodiscard]] T* release() noexcept { return std::exchange(object_, nullptr); }
  T* operator->() const noexcept {
    check_invariant(object_ != nullptr, "a null Ref was dereferenced");
    return object_;
  }
  T& operator*() const noexcept {
    check_invariant(object_ != nullptr, "a null Ref was dereferenced");
    return *object_;
  }
  explicit operator bool() const noexcept { return object_ != nullptr; }
  friend bool operator==(const Ref& a, const Ref& b) noexcept { return a.object_ == b.object_; }

 private:
  // Out of line: a Ref is dropped in many places, most often moved from
  // (null) or not the last; only the last one pays for the call.
  [[gnu::noinline]] static void destroy(T* object) noexcept { delete object; }

  T* object_ = nullptr;
};

}  // namespace looplab
