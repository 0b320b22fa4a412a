#include "looplab/default_selector.hpp"

#include <algorithm>
#include <cstdlib>
#include <iostream>

#include "looplab/exceptions.hpp"
#include "looplab/select_selector.hpp"
#if LOOPLAB_HAVE_EPOLL
#include "looplab/epoll_selector.hpp"
#endif
#if LOOPLAB_HAVE_IO_URING
#include "looplab/io_uring_selector.hpp"
#endif
#if LOOPLAB_HAVE_KQUEUE
#include "looplab/kqueue_selector.hpp"
#endif

namespace looplab {

std::string_view to_string(SelectorKind kind) noexcept {
  switch (kind) {
    case SelectorKind::kSelect:
      return "select";
    case SelectorKind::kEpoll:
      return "epoll";
    case SelectorKind::kIoUring:
      return "io_uring";
    case SelectorKind::kKqueue:
      return "kqueue";
  }
  return "?";
}

std::optional<SelectorKind> parse_selector_kind(std::string_view name) noexcept {
  for (SelectorKind kind : {SelectorKind::kSelect, SelectorKind::kEpoll, SelectorKind::kIoUring,
                            SelectorKind::kKqueue}) {
    if (name == to_string(kind)) return kind;
  }
  return std::nullopt;
}

// [best_selector]
// Best first. epoll comes before io_uring: for readiness, which is all
// asyncio's contract asks, a poll request costs io_uring a little more than
// epoll_wait() costs epoll, and epoll has no file references to manage
// (chapter 4 has the figures). On Linux, kqueue is an emulation over epoll
// (libkqueue, or the test shim), so it is never the default there.
std::vector<SelectorKind> compiled_selectors() {
  std::vector<SelectorKind> kinds;
#if LOOPLAB_HAVE_KQUEUE && !defined(__linux__)
  kinds.push_back(SelectorKind::kKqueue);
#endif
#if LOOPLAB_HAVE_EPOLL
  kinds.push_back(SelectorKind::kEpoll);
#endif
#if LOOPLAB_HAVE_IO_URING
  kinds.push_back(SelectorKind::kIoUring);
#endif
#if LOOPLAB_HAVE_KQUEUE && defined(__linux__)
  kinds.push_back(SelectorKind::kKqueue);
#endif
  kinds.push_back(SelectorKind::kSelect);
  return kinds;
}
// [best_selector]

// [open_selector]
SelectorChoice open_selector(SelectorKind kind) {
  switch (kind) {
    case SelectorKind::kSelect:
      return {std::make_unique<SelectSelector>(), ""};
#if LOOPLAB_HAVE_EPOLL
    case SelectorKind::kEpoll:
      return {std::make_unique<EpollSelector>(), ""};
#endif
#if LOOPLAB_HAVE_IO_URING
    case SelectorKind::kIoUring:
      try {
        return {std::make_unique<IoUringSelector>(), ""};
      } catch (const OSError& error) {
        return {std::make_unique<EpollSelector>(),
                std::string("io_uring is unavailable: ") + error.what() + "; using epoll"};
      }
#endif
#if LOOPLAB_HAVE_KQUEUE
    case SelectorKind::kKqueue:
      return {std::make_unique<KqueueSelector>(), ""};
#endif
    default:
      throw ValueError("the " + std::string(to_string(kind)) +
                       " selector is not available in this build");
  }
}
// [open_selector]

std::unique_ptr<Selector> make_selector(SelectorKind kind) {
  SelectorChoice choice = open_selector(kind);
  if (!choice.fallback_reason.empty()) std::cerr << "looplab: " << choice.fallback_reason << "\n";
  return std::move(choice.selector);
}

SelectorKind default_selector_kind() {
  const char* requested = std::getenv("LOOPLAB_SELECTOR");
  if (requested == nullptr || *requested == '\0') return compiled_selectors().front();
  std::optional<SelectorKind> kind = parse_selector_kind(requested);
  std::vector<SelectorKind> compiled = compiled_selectors();
  if (!kind || std::find(compiled.begin(), compiled.end(), *kind) == compiled.end()) {
    std::string known;
    for (SelectorKind k : compiled)
      known += (known.empty() ? "" : ", ") + std::string(to_string(k));
    throw ValueError("LOOPLAB_SELECTOR=" + std::string(requested) +
                     " names no selector of this build (it has: " + known + ")");
  }
  return *kind;
}

std::unique_ptr<Selector> make_default_selector() { return make_selector(default_selector_kind()); }

}  // namespace looplab
