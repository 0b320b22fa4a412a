// selector_errors.hpp: one wording for the mistakes every backend can meet,
// so that a program sees the same error whichever selector it runs on.
#pragma once

#include <cerrno>
#include <string>

#include "looplab/exceptions.hpp"

namespace looplab {

// [cannot_watch]
/// Throws the OSError for a descriptor that `backend` could not watch.
[[noreturn]] inline void throw_cannot_watch(int error, int fd, const std::string& backend) {
  std::string descriptor = "file descriptor " + std::to_string(fd);
  switch (error) {
    case EBADF:
      throw OSError(error, descriptor + " is not open");
    case EPERM:
      throw OSError(error, descriptor + " cannot be watched by " + backend +
                               ": regular files and directories are always ready, "
                               "read them directly");
    case ENOSPC:
    case ENOMEM:
      throw OSError(error, descriptor + ": too many descriptors for " + backend);
    default:
      throw OSError(error, backend + " could not watch " + descriptor);
  }
}
// [cannot_watch]

}  // namespace looplab
