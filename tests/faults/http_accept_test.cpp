// The example HTTP server when accept() runs out of descriptors (EMFILE):
// as asyncio's servers do, it keeps serving the connections it has, and
// accepts again after ACCEPT_RETRY_DELAY (1 s) instead of failing again at
// once on a listener that stays readable. The EMFILE is injected: a real
// one would leave the sanitizers no descriptor for their own checks.
#include <gtest/gtest.h>

#include <cerrno>
#include <string>
#include <vector>

#include "http/support.hpp"
#include "looplab/testing/faults.hpp"

namespace looplab {
namespace {

using testing::count;
using testing::Fd;
using testing::Served;
namespace faults = testing::faults;

TEST(HttpAccept, OutOfDescriptorsItKeepsServingAndAcceptsAgainLater) {
  faults::AskedOnly only_asked;
  testing::TestLoop t;
  Served s(t.loop);
  Fd first;
  int fd = t.loop.run_until_complete(
      create_task(t.loop, testing::connect_to(&t.loop, &s.listener, &first)));
  std::string get = "GET / HTTP/1.1\r\n\r\n";
  t.loop.run_until_complete(create_task(t.loop, testing::exchange(&t.loop, fd, get, 1)));

  faults::fail_next(faults::Call::kAccept, EMFILE, 2);
  double start = t.now();
  std::vector<Fd> later(2);
  for (Fd& client : later) {
    t.loop.run_until_complete(
        create_task(t.loop, testing::connect_to(&t.loop, &s.listener, &client)));
  }
  // The connection it has is served while accept() fails.
  std::string again =
      t.loop.run_until_complete(create_task(t.loop, testing::exchange(&t.loop, fd, get, 1)));
  EXPECT_EQ(count(again, "200 OK"), 1u);
  EXPECT_LT(t.now() - start, 1.0);
  for (Fd& client : later) {
    std::string got = t.loop.run_until_complete(
        create_task(t.loop, testing::exchange(&t.loop, client.get(), get, 1)));
    EXPECT_EQ(count(got, "200 OK"), 1u);
  }
  // Two failures, two pauses of a second each, then it accepted both.
  EXPECT_EQ(s.server.accept_pauses(), 2u);
  EXPECT_GE(t.now() - start, 2.0);
  EXPECT_EQ(s.server.open_connections(), 3u);
}

}  // namespace
}  // namespace looplab
