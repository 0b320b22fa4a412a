// context.hpp: Context and ContextVar, the C++ side of Python's contextvars.
//
// asyncio captures the caller's context when a callback is scheduled and runs
// the callback inside it. That is how a request id set before call_soon() is
// still visible when the callback runs, even if the caller changed it since,
// and how a change made inside a callback stays inside it.
//
// A Context is a snapshot: an immutable map from variables to values, shared
// by pointer. Capturing one is copying a pointer, and setting a variable makes
// a new map, never changes a shared one. CPython uses a persistent hash trie
// (a HAMT) so that set() is O(log n); a sorted vector is enough for the handful
// of variables a program has, and is simpler to read.
#pragma once

#include <atomic>
#include <cstdint>
#include <cstdio>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "looplab/exceptions.hpp"
#include "looplab/plumbing/scope_exit.hpp"

namespace looplab {

namespace detail {
struct ContextEntry {
  std::uint64_t var_id;
  std::shared_ptr<const void> value;
};
using VarMap = std::vector<ContextEntry>;  // sorted by var_id; never changed once shared

/// A new variable's key: one counter for every ContextVar<T>, whatever its
/// T, since one map holds them all.
std::uint64_t next_var_id() noexcept;

/// "<KIND ... at 0x55d0c0ffee00>": how Python's reprs name an object. The
/// address is the C++ object's, so only its shape can match CPython's.
inline std::string object_repr(const std::string& kind, const void* object) {
  char address[32];
  std::snprintf(address, sizeof address, "%p", object);
  return "<" + kind + " at " + address + ">";
}
}  // namespace detail

template <typename T>
class ContextVar;

class Context {
 public:
  /// An empty context: every variable has its default value.
  Context() = default;
  // A copy takes the snapshot, never the "entered" state, and is another
  // Context for tokens (Python's ctx.copy()); so is the Context assigned
  // to. A move hands the Context over, tokens' identity included.
  Context(const Context& other) : vars_(other.vars_) {}
  Context(Context&& other) noexcept : vars_(std::move(other.vars_)), identity_(other.identity_) {
    other.identity_ = 0;
  }
  Context& operator=(const Context& other) {
    if (this != &other) {
      vars_ = other.vars_;
      identity_ = 0;
    }
    return *this;
  }
  Context& operator=(Context&& other) noexcept {
    if (this != &other) {
      vars_ = std::move(other.vars_);
      identity_ = other.identity_;
      other.identity_ = 0;
    }
    return *this;
  }
  ~Context() = default;

  /// contextvars.copy_context(): a copy of the context this thread runs in.
  static Context copy_current() { return Context(current()); }

  /// The context this thread runs in now: the one being run(), or the thread's own.
  static Context& current() { return current_ != nullptr ? *current_ : thread_context(); }

  /// Context.run(): makes this the current context while `fn` runs. Variables
  /// set inside `fn` change this Context, and nothing outside it.
  template <typename F>
  decltype(auto) run(F&& fn) {
    if (entered_) {
      throw RuntimeError(
          "cannot enter context: " + detail::object_repr("_contextvars.Context object", this) +
          " is already entered");
    }
    ScopeExit leave([this, previous = std::exchange(current_, this)] {
      entered_ = false;
      current_ = previous;
    });
    entered_ = true;
    return std::invoke(std::forward<F>(fn));
  }

  /// How many variables have a value in this context.
  std::size_t size() const noexcept { return vars_ ? vars_->size() : 0; }

 private:
  template <typename T>
  friend class ContextVar;

  static Context& thread_context();
  const std::shared_ptr<const void>* find(std::uint64_t var_id) const;
  void assign(std::uint64_t var_id, std::shared_ptr<const void> value);  // null value = remove

  /// Who this Context is, for a Token (Python compares Context objects): a
  /// number given the first time a Token is made in it, never given again,
  /// where an address would be, to the next Context made in the same memory.
  /// 0 until then; a copy, being another Context, starts at 0 too.
  std::uint64_t identity_for_tokens();

  std::shared_ptr<const detail::VarMap> vars_;
  std::uint64_t identity_ : 63 = 0;  // identity_for_tokens()
  std::uint64_t entered_ : 1 = 0;    // in run() now (a bit: a Context is in every Handle)
  static inline thread_local Context* current_ = nullptr;
};

/// What ContextVar::set() returns, for ContextVar::reset() (Python's Token).
template <typename T>
class Token {
 public:
  /// The value the variable had before set(); nullopt is Python's Token.MISSING.
  const std::optional<T>& old_value() const noexcept { return old_value_; }

 private:
  friend class ContextVar<T>;
  Token(const ContextVar<T>* var, std::uint64_t context, std::optional<T> old_value)
      : var_(var), context_(context), old_value_(std::move(old_value)) {}
  /// repr(token): "<Token var=<ContextVar name='v' at 0x...> at 0x...>",
  /// "<Token used var=...>" once reset() has used it.
  std::string repr() const {
    return detail::object_repr(std::string(used_ ? "Token used" : "Token") + " var=" + var_->repr(),
                               this);
  }

  const ContextVar<T>* var_;
  std::uint64_t context_;  // the identity of the Context it was made in
  std::optional<T> old_value_;
  bool used_ = false;
};

/// A variable whose value depends on the current Context (Python's ContextVar).
/// Like Python's, ContextVars are meant to be long-lived: globals or statics.
template <typename T>
class ContextVar {
 public:
  explicit ContextVar(std::string name) : name_(std::move(name)) {}
  ContextVar(std::string name, T default_value)
      : name_(std::move(name)), default_(std::move(default_value)) {}
  ContextVar(const ContextVar&) = delete;
  ContextVar& operator=(const ContextVar&) = delete;

  const std::string& name() const noexcept { return name_; }
  /// repr(var) without its default: "<ContextVar name='v' at 0x...>".
  std::string repr() const {
    return detail::object_repr("ContextVar name=" + python_repr(name_), this);
  }

  /// The value in the current context, else the default, else LookupError,
  /// whose message is the variable's repr, as Python's.
  T get() const {
    if (const T* value = find()) return *value;
    if (default_) return *default_;
    throw LookupError(repr());
  }

  /// The value in the current context, else `fallback`.
  T get(T fallback) const {
    const T* value = find();
    return value != nullptr ? *value : std::move(fallback);
  }

  /// Sets the value in the current context; the token can undo it.
  Token<T> set(T value) {
    Context& context = Context::current();
    const T* old = find();
    Token<T> token(this, context.identity_for_tokens(),
                   old != nullptr ? std::optional<T>(*old) : std::nullopt);
    context.assign(id_, std::make_shared<const T>(std::move(value)));
    return token;
  }

  /// Restores the value the variable had before `token`'s set().
  void reset(Token<T>& token) {
    if (token.used_) throw RuntimeError(token.repr() + " has already been used once");
    if (token.var_ != this)
      throw ValueError(token.repr() + " was created by a different ContextVar");
    Context& context = Context::current();
    if (token.context_ != context.identity_for_tokens()) {
      throw ValueError(token.repr() + " was created in a different Context");
    }
    token.used_ = true;
    context.assign(id_, token.old_value_ ? std::make_shared<const T>(*token.old_value_) : nullptr);
  }

 private:
  const T* find() const {
    const std::shared_ptr<const void>* value = Context::current().find(id_);
    return value != nullptr ? static_cast<const T*>(value->get()) : nullptr;
  }

  std::string name_;
  std::optional<T> default_;
  std::uint64_t id_ = detail::next_var_id();  // the key in every Context's map
};

}  // namespace looplab
