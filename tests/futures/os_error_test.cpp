// make_os_error(): the exception Python's OSError(errno, text) becomes, so a
// failed socket operation can be caught as ConnectionRefusedError & co, and
// reads as Python's does.
#include <gtest/gtest.h>

#include <cerrno>
#include <exception>
#include <string>

#include "looplab/exceptions.hpp"

namespace looplab {
namespace {

// The exception's type, as describe_exception() names it.
std::string made_for(int error_number) {
  std::string described = describe_exception(make_os_error(error_number));
  return described.substr(0, described.find(':'));
}

TEST(OsError, AConnectionsErrnoBecomesItsPythonSubclass) {
  EXPECT_EQ(made_for(ECONNREFUSED), "ConnectionRefusedError");
  EXPECT_EQ(made_for(ECONNRESET), "ConnectionResetError");
  EXPECT_EQ(made_for(ECONNABORTED), "ConnectionAbortedError");
  EXPECT_EQ(made_for(EPIPE), "BrokenPipeError");
  EXPECT_EQ(made_for(ESHUTDOWN), "BrokenPipeError");
  EXPECT_EQ(made_for(ENOENT), "FileNotFoundError");
  EXPECT_EQ(made_for(EACCES), "PermissionError");
  EXPECT_EQ(made_for(EPERM), "PermissionError");
  EXPECT_EQ(made_for(EBADF), "OSError");
}

// The rest of Python's errno table (PEP 3151), as OSError(errno, text) picks
// the subclass; ETIMEDOUT stays an OSError here (exceptions.hpp says why).
TEST(OsError, EveryOtherErrnoWithAPythonSubclassBecomesIt) {
  EXPECT_EQ(made_for(EEXIST), "FileExistsError");
  EXPECT_EQ(made_for(ENOTDIR), "NotADirectoryError");
  EXPECT_EQ(made_for(EISDIR), "IsADirectoryError");
  EXPECT_EQ(made_for(EAGAIN), "BlockingIOError");
  EXPECT_EQ(made_for(EWOULDBLOCK), "BlockingIOError");
  EXPECT_EQ(made_for(EALREADY), "BlockingIOError");
  EXPECT_EQ(made_for(EINPROGRESS), "BlockingIOError");
  EXPECT_EQ(made_for(EINTR), "InterruptedError");
  EXPECT_EQ(made_for(ESRCH), "ProcessLookupError");
  EXPECT_EQ(made_for(ECHILD), "ChildProcessError");
  EXPECT_EQ(made_for(ETIMEDOUT), "OSError");
  EXPECT_EQ(describe_exception(make_os_error(ENOTDIR)),
            "NotADirectoryError: [Errno " + std::to_string(ENOTDIR) + "] Not a directory");
}

// Python: str(e) is "[Errno 104] Connection reset by peer", repr(e)
// "ConnectionResetError(104, 'Connection reset by peer')"; asyncio's failed
// connect gives its own strerror, "Connect call failed ('127.0.0.1', 9)".
TEST(OsError, ItReadsAsPythonsStrAndRepr) {
  std::exception_ptr reset = make_os_error(ECONNRESET);
  EXPECT_EQ(
      describe_exception(reset),
      "ConnectionResetError: [Errno " + std::to_string(ECONNRESET) + "] Connection reset by peer");
  EXPECT_EQ(exception_repr(reset),
            "ConnectionResetError(" + std::to_string(ECONNRESET) + ", 'Connection reset by peer')");
  std::exception_ptr refused = make_os_error(ECONNREFUSED, "Connect call failed ('127.0.0.1', 9)");
  EXPECT_EQ(exception_repr(refused), "ConnectionRefusedError(" + std::to_string(ECONNREFUSED) +
                                         ", \"Connect call failed ('127.0.0.1', 9)\")");
}

// looplab's own failures keep saying which call failed.
TEST(OsError, OneLooplabRaisesNamesTheCall) {
  OSError error(EBADF, "epoll_wait() failed");
  EXPECT_EQ(std::string(error.what()), "epoll_wait() failed: Bad file descriptor");
  EXPECT_EQ(error.strerror(), "Bad file descriptor");
}

TEST(OsError, EachIsAnOSErrorThatKeepsItsErrno) {
  try {
    std::rethrow_exception(make_os_error(ECONNREFUSED));
  } catch (const ConnectionError& error) {
    EXPECT_EQ(error.code().value(), ECONNREFUSED);
    EXPECT_TRUE(dynamic_cast<const OSError*>(&error) != nullptr);
    return;
  }
  ADD_FAILURE() << "not a ConnectionError";
}

}  // namespace
}  // namespace looplab
