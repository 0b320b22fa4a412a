// ref.hpp: an intrusive reference count, and `Ref<T>`, the pointer that holds one.
//
// Python objects are reference counted; asyncio's Handle lives as long as the
// ready queue or the caller holds it. `Ref<T>` gives our Handle the same
// lifetime rule. The count is a plain integer, not an atomic: a loop and its
// handles belong to one thread (stage 09 adds the one thread-safe door).
#pragma once

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

  void add_ref() noexcept { ++refs_; }
  /// Returns true when this was the last reference (the caller deletes).
  bool drop_ref() noexcept {
    check_invariant(refs_ > 0, "a reference was dropped more often than taken");
    return --refs_ == 0;
  }

 protected:
  ~RefCounted() = default;

 private:
  std::uint32_t refs_ = 0;
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
