// Choosing a backend: by name at construction, through LOOPLAB_SELECTOR, or
// the default; and io_uring's fallback to epoll when the kernel refuses it.
#include <gtest/gtest.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstddef>
#include <cstdlib>
#include <optional>
#include <string>

#include "looplab/default_selector.hpp"
#include "looplab/event_loop.hpp"
#include "pollers/backends.hpp"

namespace looplab {
namespace {

// Sets LOOPLAB_SELECTOR for one test, and puts back what was there.
class SelectorVariable {
 public:
  explicit SelectorVariable(const char* value) {
    if (const char* old = std::getenv("LOOPLAB_SELECTOR")) old_ = old;
    if (value != nullptr) {
      ::setenv("LOOPLAB_SELECTOR", value, 1);
    } else {
      ::unsetenv("LOOPLAB_SELECTOR");
    }
  }
  ~SelectorVariable() {
    if (old_) {
      ::setenv("LOOPLAB_SELECTOR", old_->c_str(), 1);
    } else {
      ::unsetenv("LOOPLAB_SELECTOR");
    }
  }

 private:
  std::optional<std::string> old_;
};

TEST(BackendChoice, NamesRoundTrip) {
  for (SelectorKind kind : compiled_selectors()) {
    EXPECT_EQ(parse_selector_kind(to_string(kind)), kind);
  }
  EXPECT_EQ(parse_selector_kind("poll"), std::nullopt);
}

TEST(BackendChoice, TheDefaultIsTheBestCompiledAndEpollOnLinux) {
  SelectorVariable unset(nullptr);
  EXPECT_EQ(default_selector_kind(), compiled_selectors().front());
#ifdef __linux__
  EXPECT_EQ(default_selector_kind(), SelectorKind::kEpoll);
#endif
  EXPECT_EQ(compiled_selectors().back(), SelectorKind::kSelect);  // always there, last
}

TEST(BackendChoice, TheEnvironmentVariableChoosesTheBackendOfANewLoop) {
  for (SelectorKind kind : compiled_selectors()) {
    SelectorVariable chosen(std::string(to_string(kind)).c_str());
    EventLoop loop;
    EXPECT_EQ(std::string(loop.selector().name()).rfind(to_string(kind), 0), 0u)
        << loop.selector().name();  // "kqueue-shim" starts with "kqueue"
  }
}

TEST(BackendChoice, AnUnknownNameIsAValueErrorThatListsTheChoices) {
  SelectorVariable wrong("poll");
  try {
    EventLoop loop;
    FAIL() << "no error";
  } catch (const ValueError& error) {
    std::string message = error.what();
    EXPECT_NE(message.find("LOOPLAB_SELECTOR=poll"), std::string::npos) << message;
    EXPECT_NE(message.find("select"), std::string::npos) << message;
  }
}

TEST(BackendChoice, ConstructionTakesABackendByName) {
  VirtualClock clock;
  EventLoop loop(clock, make_selector(SelectorKind::kSelect));
  EXPECT_STREQ(loop.selector().name(), "select");
}

#if LOOPLAB_HAVE_IO_URING
// Installs a seccomp filter that makes io_uring_setup() fail with EPERM, as
// Docker's default profile and many sandboxes do.
bool forbid_io_uring() {
  sock_filter filter[] = {
      BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(seccomp_data, nr)),
      BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_io_uring_setup, 0, 1),
      BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | (EPERM & SECCOMP_RET_DATA)),
      BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
  };
  sock_fprog program{static_cast<unsigned short>(std::size(filter)), filter};
  return ::prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) == 0 &&
         ::prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &program) == 0;
}

// In a child process, so that the filter does not outlive the test.
TEST(BackendChoice, WhenTheKernelRefusesIoUringTheLoopFallsBackToEpollAndSaysWhy) {
  pid_t child = ::fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    if (!forbid_io_uring()) ::_exit(2);
    SelectorChoice choice = open_selector(SelectorKind::kIoUring);
    bool said_why = choice.fallback_reason.find("not permitted") != std::string::npos &&
                    choice.fallback_reason.find("using epoll") != std::string::npos;
    bool is_epoll = std::string(choice.selector->name()) == "epoll";
    ::_exit(said_why && is_epoll ? 0 : 1);
  }
  int status = 0;
  ASSERT_EQ(::waitpid(child, &status, 0), child);
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 0) << "1: wrong fallback, 2: could not install the filter";
}

// What lets the io_uring tests skip, rather than fail, where Docker's
// default seccomp profile refuses io_uring: the refusal is recognised.
TEST(BackendChoice, WhenTheKernelRefusesIoUringItsTestsAreToldWhyAndSkip) {
  pid_t child = ::fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    if (!forbid_io_uring()) ::_exit(2);
    std::string why = testing::ask_why_refused(SelectorKind::kIoUring);
    bool told = why.find("this machine refuses io_uring") != std::string::npos &&
                why.find("not permitted") != std::string::npos;
    ::_exit(told && testing::ask_why_refused(SelectorKind::kEpoll).empty() ? 0 : 1);
  }
  int status = 0;
  ASSERT_EQ(::waitpid(child, &status, 0), child);
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 0) << "1: not recognised, 2: could not install the filter";
}

TEST(BackendChoice, WhenIoUringWorksThereIsNoFallback) {
  if (std::string why = testing::why_refused(SelectorKind::kIoUring); !why.empty()) {
    GTEST_SKIP() << why;
  }
  SelectorChoice choice = open_selector(SelectorKind::kIoUring);
  EXPECT_EQ(choice.fallback_reason, "");
  EXPECT_STREQ(choice.selector->name(), "io_uring");
}
#endif

}  // namespace
}  // namespace looplab
