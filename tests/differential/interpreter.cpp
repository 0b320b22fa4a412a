// interpreter.cpp: the differential tester's C++ side, runs loop programs on looplab.
//
// tests/differential/difftest.py generates random loop programs (the format is
// in tests/differential/README.md) and feeds the same programs to this
// interpreter and to its Python twin, comparisons/differential/interpreter.py,
// which runs them on CPython's asyncio. The two traces must be identical.
//
// Programs come on stdin, separated by lines "%%"; each program's trace goes
// to stdout followed by a line "%%". Every line is flushed at once, so that
// after a crash the runner knows which program crashed and how far it got.
// Every program gets a fresh loop on a fresh virtual clock, and one unit of
// time is a millisecond. Only the public API is used: the trace is what a user
// of the loop can observe.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <exception>
#include <iostream>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

#include "looplab/event_loop.hpp"

#if LOOPLAB_STAGE >= 3
#include <fcntl.h>
#include <sys/socket.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#endif

namespace {

using std::chrono::milliseconds;

constexpr const char* kDelimiter = "%%";

// One op of a program. Scheduling ops (soon, later, at, reader) carry the id
// of the callback they schedule and the body it runs; `value` is the delay of
// `later` and the deadline of `at`, in milliseconds.
struct Op {
  std::string kind;
  long long id = 0;     // soon/later/at/reader: the callback's id; cancel: its target; else: P
  long long value = 0;  // later: delay; at: deadline; reader: its pair; write: bytes
  std::vector<Op> body;
};

struct OpSpec {
  const char* kind;
  int operands;
  bool has_body;
  int since;  // the first stage that has it
};

// Keep in step with comparisons/differential/interpreter.py and difftest.py.
constexpr OpSpec kOps[] = {
    {"soon", 1, true, 2},   // soon ID
    {"later", 2, true, 2},  // later ID DELAY
    {"at", 2, true, 2},     // at ID WHEN
    {"cancel", 1, false, 2},
    {"stop", 0, false, 2},
    {"raise", 0, false, 2},
    // Stage 03: readers on socketpairs (README.md, "Stage 03").
    {"pair", 1, false, 3},           // pair P
    {"reader", 2, true, 3},          // reader ID P
    {"write", 2, false, 3},          // write P BYTES
    {"remove_reader", 1, false, 3},  // remove_reader P
};

const OpSpec* find_op(const std::string& kind) {
  for (const OpSpec& spec : kOps) {
    if (kind == spec.kind) return &spec;
  }
  return nullptr;
}

struct ProgramError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// The top-level ops of a program; a body is indented two spaces deeper than its owner.
std::vector<Op> parse(const std::vector<std::string>& lines) {
  std::vector<Op> top;
  struct Level {
    long indent;
    std::vector<Op>* body;
  };
  std::vector<Level> stack{{-1, &top}};
  for (std::size_t i = 0; i < lines.size(); ++i) {
    std::string where = "line " + std::to_string(i + 1) + ": ";
    std::string text = lines[i].substr(0, lines[i].find('#'));
    std::size_t first = text.find_first_not_of(' ');
    if (first == std::string::npos || text.find_first_not_of(" \t\r", first) == std::string::npos) {
      continue;
    }
    long indent = static_cast<long>(first);
    std::vector<std::string> words;
    for (std::size_t at = first; at < text.size();) {
      std::size_t end = text.find_first_of(" \t\r", at);
      if (end == std::string::npos) end = text.size();
      if (end > at) words.push_back(text.substr(at, end - at));
      at = end + 1;
    }
    const OpSpec* spec = find_op(words[0]);
    if (spec == nullptr) throw ProgramError(where + "unknown op '" + words[0] + "'");
    if (spec->since > LOOPLAB_STAGE) {
      throw ProgramError(where + words[0] + " needs stage " + std::to_string(spec->since));
    }
    if (static_cast<int>(words.size()) - 1 != spec->operands) {
      throw ProgramError(where + words[0] + " takes " + std::to_string(spec->operands) +
                         " operand(s)");
    }
    Op op;
    op.kind = words[0];
    try {
      if (spec->operands >= 1) op.id = std::stoll(words[1]);
      if (spec->operands >= 2) op.value = std::stoll(words[2]);
    } catch (const std::exception&) {
      throw ProgramError(where + "operands must be integers");
    }
    while (indent <= stack.back().indent) stack.pop_back();
    long owner = stack.back().indent;
    if (indent != owner + 2 && !(owner == -1 && indent == 0)) {
      throw ProgramError(where + "bad indentation");
    }
    if (op.kind == "raise" && owner == -1) throw ProgramError(where + "raise outside a callback");
    std::vector<Op>& body = *stack.back().body;
    body.push_back(std::move(op));
    if (spec->has_body) stack.push_back({indent, &body.back().body});
  }
  return top;
}

bool schedules(const Op& op) { return op.kind == "soon" || op.kind == "later" || op.kind == "at"; }

// The latest time any timer of the program can be due: the sentinel goes after it.
// A reader runs when its pair has data: it counts as running at `reader_at`
// (-1: readers are left out, which gives the time of the last write).
long long latest_deadline(const std::vector<Op>& ops, long long now, long long reader_at) {
  long long latest = now;
  for (const Op& op : ops) {
    if (!schedules(op) && op.kind != "reader") continue;
    if (op.kind == "reader" && reader_at < 0) continue;
    long long runs_at = now;
    if (op.kind == "later") runs_at = now + std::max(op.value, 0LL);
    if (op.kind == "at") runs_at = std::max(now, op.value);
    if (op.kind == "reader") runs_at = std::max(now, reader_at);
    latest = std::max({latest, runs_at, latest_deadline(op.body, runs_at, reader_at)});
  }
  return latest;
}

long long latest_deadline(const std::vector<Op>& ops) {
  return latest_deadline(ops, 0, latest_deadline(ops, 0, -1));
}

long long count_kind(const std::vector<Op>& ops, const std::string& kind) {
  long long count = 0;
  for (const Op& op : ops) count += (op.kind == kind ? 1 : 0) + count_kind(op.body, kind);
  return count;
}

// How many times stop() can be called: a reader runs at most once per write.
long long count_stops(const std::vector<Op>& ops, long long writes) {
  long long count = 0;
  for (const Op& op : ops) {
    long long body = count_stops(op.body, writes);
    count += (op.kind == "stop" ? 1 : 0) + (op.kind == "reader" ? body * writes : body);
  }
  return count;
}

// The loop's clock: a VirtualClock with a watchdog. A loop with a bug can
// turn for ever without finishing a program (one that never moves due timers
// to the ready queue, say). The loop reads the clock at every turn while a
// timer is pending, and the sentinel always is: generated programs need a few
// hundred readings, and after 100,000 the program is abandoned (its trace
// says so) instead of hanging the whole batch.
struct Watchdog : looplab::SystemExit {  // SystemExit: escapes callbacks and the loop
  const char* what() const noexcept override {
    return "watchdog: the loop read the clock 100000 times without finishing the program";
  }
};

class WatchdogClock final : public looplab::Clock {
 public:
  time_point now() override {
    if (++readings_ > kMaxReadings) throw Watchdog();
    return clock_.now();
  }
  void sleep_until(time_point deadline) override { clock_.sleep_until(deadline); }
  duration resolution() const override { return clock_.resolution(); }
#if LOOPLAB_STAGE >= 3
  // From stage 03 the loop waits in select(), and jumps the clock instead only
  // for a clock that says it is virtual.
  bool is_virtual() const noexcept override { return true; }
#endif

 private:
  static constexpr long kMaxReadings = 100'000;
  looplab::VirtualClock clock_;
  long readings_ = 0;
};

// One program on one fresh loop.
class Run {
 public:
  explicit Run(const std::vector<Op>& ops) : ops_(ops) {}

  void run() {
    try {
      loop_.set_exception_handler(
          [](looplab::EventLoop&, const looplab::ExceptionContext& context) {
            line("handler " + message_of(context.exception));
          });
      looplab::Clock::time_point sentinel(milliseconds(latest_deadline(ops_) + 1));
      loop_.call_at(sentinel, [this] {
        done_ = true;
        loop_.stop();
      });
      execute(ops_, 0);
      long long stops = 1 + count_stops(ops_, count_kind(ops_, "write"));
      while (!done_) {
        loop_.run_forever();
        line("run_forever returned t=" + now());
        if (--stops < 0) {
          line("driver: run_forever returned more often than stop() was called");
          break;
        }
      }
    } catch (const Watchdog& watchdog) {
      line(std::string("driver: ") + watchdog.what());
    } catch (...) {
      line("driver: " + looplab::describe_exception(std::current_exception()));
    }
#if LOOPLAB_STAGE >= 3
    for (auto& [number, ends] : pairs_) {
      loop_.remove_reader(ends[0]);
      ::close(ends[0]);
      ::close(ends[1]);
    }
#endif
    loop_.close();
  }

 private:
  static void line(const std::string& text) {
    std::fputs((text + "\n").c_str(), stdout);
    std::fflush(stdout);
  }

  // Loop time in whole milliseconds (as a fraction if a bug made it one).
  std::string now() const {
    auto since_zero = loop_.time().time_since_epoch();
    auto whole = std::chrono::duration_cast<milliseconds>(since_zero);
    std::string text = std::to_string(whole.count());
    if (auto rest = (since_zero - whole).count(); rest != 0) {
      text.append("+").append(std::to_string(rest)).append("ns");
    }
    return text;
  }

  static std::string message_of(const std::exception_ptr& error) {
    if (!error) return "?";
    try {
      std::rethrow_exception(error);
    } catch (const std::exception& e) {
      return e.what();
    } catch (...) {
      return "?";
    }
  }

  // Runs ops in order: the top level before the loop starts (owner 0), or a
  // callback's body when it runs.
  void execute(const std::vector<Op>& ops, long long owner) {
    for (const Op& op : ops) {
      if (op.kind == "soon") {
        handles_[op.id] = loop_.call_soon([this, &op] { callback(op); });
      } else if (op.kind == "later") {
        handles_[op.id] = loop_.call_later(milliseconds(op.value), [this, &op] { callback(op); });
      } else if (op.kind == "at") {
        looplab::Clock::time_point when(milliseconds(op.value));
        handles_[op.id] = loop_.call_at(when, [this, &op] { callback(op); });
      } else if (op.kind == "cancel") {
        auto found = handles_.find(op.id);
        if (found != handles_.end()) found->second.cancel();  // not scheduled (yet): no-op
      } else if (op.kind == "stop") {
        loop_.stop();
      } else if (op.kind == "raise") {
        throw looplab::ValueError(std::to_string(owner));
      }
#if LOOPLAB_STAGE >= 3
      execute_io(op);
#endif
    }
  }

  void callback(const Op& op) {
    line("run " + std::to_string(op.id) + " t=" + now());
    execute(op.body, op.id);
  }

#if LOOPLAB_STAGE >= 3
  // pair P makes socketpair P (a second `pair P` does nothing); reader,
  // write and remove_reader on a pair not made (yet) do nothing either.
  void execute_io(const Op& op) {
    if (op.kind == "pair") {
      if (pairs_.contains(op.id)) return;
      std::array<int, 2> ends{};
      if (::socketpair(AF_UNIX, SOCK_STREAM, 0, ends.data()) != 0)
        throw looplab::OSError(errno, "socketpair");
      for (int fd : ends) ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) | O_NONBLOCK);
      pairs_[op.id] = ends;
      return;
    }
    long long number = op.kind == "reader" ? op.value : op.id;
    auto found = pairs_.find(number);
    if (found == pairs_.end()) return;
    int left = found->second[0];  // not a structured binding: clang 14 cannot capture those
    int right = found->second[1];
    if (op.kind == "reader") {
      loop_.add_reader(left, [this, &op, left] { read(op, left); });
    } else if (op.kind == "write") {
      std::string bytes(static_cast<std::size_t>(op.value), 'x');
      if (::write(right, bytes.data(), bytes.size()) != static_cast<ssize_t>(bytes.size())) {
        throw looplab::OSError(errno, "write");
      }
    } else if (op.kind == "remove_reader") {
      bool removed = loop_.remove_reader(left);
      line("remove_reader " + std::to_string(number) + " -> " + (removed ? "True" : "False"));
    }
  }

  // A reader drains its end (to EAGAIN, or EOF), says how much it read, runs its body.
  void read(const Op& op, int fd) {
    std::array<char, 4096> buffer{};
    long long count = 0;
    for (ssize_t n; (n = ::read(fd, buffer.data(), buffer.size())) > 0;) count += n;
    line("read " + std::to_string(op.id) + " " + std::to_string(op.value) + " t=" + now() +
         " n=" + std::to_string(count));
    execute(op.body, op.id);
  }
#endif

  const std::vector<Op>& ops_;
  WatchdogClock clock_;
  looplab::EventLoop loop_{clock_};
  std::map<long long, looplab::Handle> handles_;
  bool done_ = false;
#if LOOPLAB_STAGE >= 3
  std::map<long long, std::array<int, 2>> pairs_;  // pair P: {left end, right end}
#endif
};

void run_program(const std::vector<std::string>& lines) {
  try {
    std::vector<Op> ops = parse(lines);
    Run(ops).run();
  } catch (const ProgramError& error) {
    std::printf("error: %s\n", error.what());
  }
  std::printf("%s\n", kDelimiter);
  std::fflush(stdout);
}

bool blank(const std::vector<std::string>& lines) {
  for (const std::string& text : lines) {
    std::string code = text.substr(0, text.find('#'));
    if (code.find_first_not_of(" \t\r") != std::string::npos) return false;
  }
  return true;
}

}  // namespace

int main() {
  std::vector<std::string> lines;
  std::string text;
  while (std::getline(std::cin, text)) {
    std::size_t first = text.find_first_not_of(" \t\r");
    std::size_t last = text.find_last_not_of(" \t\r");
    if (first != std::string::npos && text.substr(first, last - first + 1) == kDelimiter) {
      run_program(lines);
      lines.clear();
    } else {
      lines.push_back(text);
    }
  }
  if (!blank(lines)) run_program(lines);  // a last program without %%
  return 0;
}
