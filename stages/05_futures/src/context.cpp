#include "looplab/context.hpp"

#include <algorithm>

namespace looplab {
namespace {

detail::VarMap::const_iterator position(const detail::VarMap& map, std::uint64_t var_id) {
  return std::lower_bound(
      map.begin(), map.end(), var_id,
      [](const detail::ContextEntry& e, std::uint64_t id) { return e.var_id < id; });
}

}  // namespace

std::uint64_t detail::next_var_id() noexcept {
  static std::atomic<std::uint64_t> last{0};
  return ++last;
}

Context& Context::thread_context() {
  thread_local Context context;
  return context;
}

std::uint64_t Context::identity_for_tokens() {
  static std::atomic<std::uint64_t> last{0};
  if (identity_ == 0) identity_ = ++last;
  return identity_;
}

const std::shared_ptr<const void>* Context::find(std::uint64_t var_id) const {
  if (!vars_) return nullptr;
  auto it = position(*vars_, var_id);
  return it != vars_->end() && it->var_id == var_id ? &it->value : nullptr;
}

void Context::assign(std::uint64_t var_id, std::shared_ptr<const void> value) {
  // Copy on write: other Contexts may share the old map.
  auto map = vars_ ? std::make_shared<detail::VarMap>(*vars_) : std::make_shared<detail::VarMap>();
  auto it = map->begin() + (position(*map, var_id) - map->cbegin());
  bool present = it != map->end() && it->var_id == var_id;
  if (value == nullptr) {
    if (present) map->erase(it);
  } else if (present) {
    it->value = std::move(value);
  } else {
    map->insert(it, detail::ContextEntry{var_id, std::move(value)});
  }
  if (map->empty()) {
    vars_.reset();
  } else {
    vars_ = std::move(map);
  }
}

}  // namespace looplab
