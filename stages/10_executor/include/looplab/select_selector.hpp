// select_selector.hpp: the Selector over select(2), Python's SelectSelector.
//
// select() takes three bitmaps of descriptors (read, write, error) and
// returns them with only the ready bits left. Its costs are the lesson of this
// chapter: the bitmaps are rebuilt and scanned for every call, so each wait
// costs time in proportion to the highest descriptor watched, however few are
// ready; and a bitmap holds FD_SETSIZE (1024) descriptors, no more.
#pragma once

#include <sys/select.h>

#include <vector>

#include "looplab/interest_table.hpp"
#include "looplab/selector.hpp"

namespace looplab {

// [select_selector]
class SelectSelector final : public Selector {
 public:
  void register_fd(int fd, unsigned events) override;
  void modify(int fd, unsigned events) override;
  void unregister(int fd) override;
  std::span<const SelectorEvent> select(Timeout timeout) override;
  std::size_t size() const noexcept override { return interest_.size(); }
  const char* name() const noexcept override { return "select"; }

 private:
  InterestTable interest_;  // the table every backend keeps (stage 04)
  int max_fd_ = -1;         // select() scans 0..max_fd_
  std::vector<SelectorEvent> ready_;
};
// [select_selector]

}  // namespace looplab
