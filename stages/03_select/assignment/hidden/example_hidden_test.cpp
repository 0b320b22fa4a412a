// An example of an instructor's hidden tests for assignment 03 (the format:
// GoogleTest files named *_test.cpp in one folder; `make grade HIDDEN=dir`).
#include <gtest/gtest.h>
#include <unistd.h>

#include <string>

#include "io/socket_pair.hpp"
#include "looplab/event_loop.hpp"
#include "support/run_one_turn.hpp"

namespace looplab {
namespace {

TEST(HiddenExample, AReaderAndAWriterOnOneDescriptorBothRun) {
  EventLoop loop;
  testing::SocketPair pair;
  ASSERT_EQ(::write(pair.right(), "x", 1), 1);
  std::string ran;
  loop.add_reader(pair.left(), [&] { ran += "reader;"; });
  loop.add_writer(pair.left(), [&] { ran += "writer;"; });
  testing::run_one_turn(loop);
  EXPECT_EQ(ran, "reader;writer;");
}

TEST(HiddenExample, RemovingTheWriterKeepsTheReader) {
  EventLoop loop;
  testing::SocketPair pair;
  ASSERT_EQ(::write(pair.right(), "x", 1), 1);
  int reads = 0;
  loop.add_reader(pair.left(), [&] { ++reads; });
  loop.add_writer(pair.left(), [] {});
  EXPECT_TRUE(loop.remove_writer(pair.left()));
  EXPECT_FALSE(loop.remove_writer(pair.left()));
  testing::run_one_turn(loop);
  EXPECT_EQ(reads, 1);
  EXPECT_TRUE(loop.remove_reader(pair.left()));
}

}  // namespace
}  // namespace looplab
