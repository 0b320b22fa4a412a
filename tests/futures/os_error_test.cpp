// make_os_error(): the exception Python's OSError(errno, text) becomes, so a
// failed socket operation can be caught as ConnectionRefusedError & co.
#include <gtest/gtest.h>

#include <cerrno>
#include <exception>
#include <string>

#include "looplab/exceptions.hpp"

namespace looplab {
namespace {

// The exception's type, as describe_exception() names it.
std::string made_for(int error_number) {
  std::string described = describe_exception(make_os_error(error_number, "connect() failed"));
  return described.substr(0, described.find(':'));
}

TEST(OsError, AConnectionsErrnoBecomesItsPythonSubclass) {
  EXPECT_EQ(made_for(ECONNREFUSED), "ConnectionRefusedError");
  EXPECT_EQ(made_for(ECONNRESET), "ConnectionResetError");
  EXPECT_EQ(made_for(ECONNABORTED), "ConnectionAbortedError");
  EXPECT_EQ(made_for(EPIPE), "BrokenPipeError");
  EXPECT_EQ(made_for(ESHUTDOWN), "BrokenPipeError");
  EXPECT_EQ(made_for(EBADF), "OSError");
}

TEST(OsError, EachIsAnOSErrorThatKeepsItsErrno) {
  try {
    std::rethrow_exception(make_os_error(ECONNREFUSED, "connect() failed"));
  } catch (const ConnectionError& error) {
    EXPECT_EQ(error.code().value(), ECONNREFUSED);
    EXPECT_TRUE(dynamic_cast<const OSError*>(&error) != nullptr);
    return;
  }
  ADD_FAILURE() << "not a ConnectionError";
}

}  // namespace
}  // namespace looplab
