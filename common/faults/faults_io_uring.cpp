// The looplab_faulty_io_uring_* functions: liburing's submissions (each an
// io_uring_enter), which fail as the kernel's do, with a negative errno.
#include <liburing.h>

#include "faults_internal.hpp"

using looplab::testing::faults::Call;
using looplab::testing::faults::detail::error_before;

extern "C" {

int looplab_faulty_io_uring_submit(io_uring* ring) {
  if (int error = error_before(Call::kIoUringEnter); error != 0) return -error;
  return io_uring_submit(ring);
}

int looplab_faulty_io_uring_submit_and_wait(io_uring* ring, unsigned wait_nr) {
  if (int error = error_before(Call::kIoUringEnter); error != 0) return -error;
  return io_uring_submit_and_wait(ring, wait_nr);
}

int looplab_faulty_io_uring_submit_and_get_events(io_uring* ring) {
  if (int error = error_before(Call::kIoUringEnter); error != 0) return -error;
  return io_uring_submit_and_get_events(ring);
}

int looplab_faulty_io_uring_submit_and_wait_timeout(io_uring* ring, io_uring_cqe** cqe,
                                                    unsigned wait_nr, __kernel_timespec* timeout,
                                                    sigset_t* sigmask) {
  if (int error = error_before(Call::kIoUringEnter); error != 0) return -error;
  return io_uring_submit_and_wait_timeout(ring, cqe, wait_nr, timeout, sigmask);
}

}  // extern "C"
