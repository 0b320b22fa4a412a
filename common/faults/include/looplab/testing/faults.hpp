// faults.hpp: system calls that fail on purpose, for tests only.
//
// A test build links a copy of the stage's library whose calls to recv, send,
// read, write, accept4, epoll_wait, select and liburing's io_uring_submit*
// (each an io_uring_enter) were renamed (objcopy
// --redefine-syms, common/faults/redefine.syms) to the looplab_faulty_*
// functions of faults.cpp. Those call the real function, or fail first, on a
// schedule: the environment variable LOOPLAB_FAULTS, for example
//
//   LOOPLAB_FAULTS=seed=7,rate=0.3,kinds=eintr+short_send
//
// makes about 30% of those calls fail once with EINTR, or send only part of
// their bytes, from a pseudo-random sequence that seed 7 repeats. Only the
// loop's own calls are affected: the test's helpers and GoogleTest call the
// real functions. The release build carries none of it.
//
// Kinds: eintr (any call fails with EINTR before doing anything), short_send
// (send() sends a prefix), short_recv (recv() receives a prefix), eagain
// (recv, send and accept4 fail with EAGAIN: a readiness that was not there),
// busy (an io_uring submission fails with EBUSY or EAGAIN: the kernel's
// completion queue is full, or it is short of memory for now).
// A test can also ask for one fault, ahead of the schedule: fail_next().
#pragma once

#include <cstddef>
#include <cstdint>

namespace looplab::testing::faults {

enum class Call {
  kRecv,
  kSend,
  kRead,
  kWrite,
  kAccept,
  kEpollWait,
  kSelect,
  kIoUringEnter,
  kCount
};

/// The next `count` calls of `call` fail with `error` (errno), whatever the schedule.
void fail_next(Call call, int error, int count = 1);

/// Faults injected so far in this process, by the schedule and by fail_next().
std::uint64_t injected();

/// While one lives, only the faults asked with fail_next() happen, not the
/// schedule's; those still unused when it ends are forgotten.
class AskedOnly {
 public:
  AskedOnly();
  ~AskedOnly();
  AskedOnly(const AskedOnly&) = delete;
  AskedOnly& operator=(const AskedOnly&) = delete;
};

}  // namespace looplab::testing::faults
