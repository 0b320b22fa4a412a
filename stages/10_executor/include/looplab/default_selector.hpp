// default_selector.hpp: choosing a backend, Python's selectors.DefaultSelector.
//
// A loop gets its selector when it is made: EventLoop(clock, make_selector(
// SelectorKind::kEpoll)) asks for one by name, and EventLoop() or
// EventLoop(clock) take the default: the backend named by the environment
// variable LOOPLAB_SELECTOR (select, epoll, io_uring, kqueue) if it is set,
// otherwise the best this build and this machine have.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "looplab/selector.hpp"

namespace looplab {

// [default_selector]
enum class SelectorKind { kSelect, kEpoll, kIoUring, kKqueue };

/// "select", "epoll", "io_uring", "kqueue".
std::string_view to_string(SelectorKind kind) noexcept;
/// The kind named `name`; nullopt for an unknown name.
std::optional<SelectorKind> parse_selector_kind(std::string_view name) noexcept;
/// The backends compiled into this build, best first.
std::vector<SelectorKind> compiled_selectors();

/// A selector and, when it is not the one asked for, why.
struct SelectorChoice {
  std::unique_ptr<Selector> selector;
  std::string fallback_reason;  // empty: the backend asked for
};

/// The backend `kind`. If it is io_uring and the kernel refuses it (too old,
/// forbidden by seccomp or policy), falls back to epoll and says why in
/// fallback_reason. Throws ValueError for a backend this build lacks.
SelectorChoice open_selector(SelectorKind kind);

/// open_selector(kind).selector, printing the reason for a fallback on stderr.
std::unique_ptr<Selector> make_selector(SelectorKind kind);

/// LOOPLAB_SELECTOR's backend if set (ValueError if it names none), else the
/// best one compiled in.
SelectorKind default_selector_kind();
std::unique_ptr<Selector> make_default_selector();
// [default_selector]

}  // namespace looplab
