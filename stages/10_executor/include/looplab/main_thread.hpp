// main_thread.hpp: is this the process's main thread?
//
// Signal handlers are set, and SIGINT is taken over by run(), only from the
// main thread, as Python allows signal.signal() only there: the main
// thread is the one whose thread id is the process id.
#pragma once

#include <sys/syscall.h>
#include <unistd.h>

namespace looplab {

inline bool in_main_thread() noexcept { return ::syscall(SYS_gettid) == ::getpid(); }

}  // namespace looplab
