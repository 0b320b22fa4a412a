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

namespace {

using std::chrono::milliseconds;

constexpr const char* kDelimiter = "%%";

// One op of a program. Scheduling ops (soon, later, at) carry the id of the
// callback they schedule and the body it runs; `value` is the delay of
// `later` and the deadline of `at`, in milliseconds.
struct Op {
  std::string kind;
  long long id = 0;  // soon/later/at: the callback's id; cancel: its target
  long long value = 0;
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
    {"cancel", 1, false, 2}, {"stop", 0, false, 2}, {"raise", 0, false, 2},
    // Stage 03 extension point (readers on socketpairs), not implemented yet:
    // {"pair", 1, false, 3}, {"reader", 2, true, 3},
    // {"write", 2, false, 3}, {"remove_reader", 1, false, 3},
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
long long latest_deadline(const std::vector<Op>& ops, long long now) {
  long long latest = now;
  for (const Op& op : ops) {
    if (!schedules(op)) continue;
    long long runs_at = now;
    if (op.kind == "later") runs_at = now + std::max(op.value, 0LL);
    if (op.kind == "at") runs_at = std::max(now, op.value);
    latest = std::max({latest, runs_at, latest_deadline(op.body, runs_at)});
  }
  return latest;
}

long long count_stops(const std::vector<Op>& ops) {
  long long count = 0;
  for (const Op& op : ops) count += (op.kind == "stop" ? 1 : 0) + count_stops(op.body);
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
      looplab::Clock::time_point sentinel(milliseconds(latest_deadline(ops_, 0) + 1));
      loop_.call_at(sentinel, [this] {
        done_ = true;
        loop_.stop();
      });
      execute(ops_, 0);
      long long stops = 1 + count_stops(ops_);
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
      // Stage 03 adds pair, reader, write and remove_reader here (#if LOOPLAB_STAGE >= 3).
    }
  }

  void callback(const Op& op) {
    line("run " + std::to_string(op.id) + " t=" + now());
    execute(op.body, op.id);
  }

  const std::vector<Op>& ops_;
  WatchdogClock clock_;
  looplab::EventLoop loop_{clock_};
  std::map<long long, looplab::Handle> handles_;
  bool done_ = false;
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
