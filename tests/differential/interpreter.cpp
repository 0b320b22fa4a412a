// interpreter.cpp: the differential tester's C++ side, runs loop programs on
// looplab.
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
//
// From stage 05 programs make futures, and from stage 06 tasks, whose bodies
// run as coroutines (README.md, "Stages 05 and 06").
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <exception>
#include <iostream>
#include <map>
#include <stdexcept>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "looplab/event_loop.hpp"

#if LOOPLAB_STAGE >= 5
#include "looplab/future.hpp"
#endif
#if LOOPLAB_STAGE >= 6
#include "looplab/coro.hpp"
#include "looplab/gather.hpp"
#include "looplab/locks.hpp"
#include "looplab/semaphore.hpp"
#include "looplab/sleep.hpp"
#include "looplab/task.hpp"
#include "looplab/timeout.hpp"
#include "looplab/wait.hpp"
#endif
#if LOOPLAB_STAGE >= 7
#include "looplab/queues.hpp"
#endif
#if LOOPLAB_STAGE >= 8
#include "looplab/task_group.hpp"
#endif
#if LOOPLAB_STAGE >= 9
#include <thread>
#endif

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
// of the callback they schedule and the body it runs; so do done_cb (a done
// callback), task (its body is the coroutine's) and timeout (a region of a
// task's body). The operands, in the order of the program text:
//   id:    soon/later/at/reader/done_cb/task/timeout: its own id; cancel: its
//          target; the others: P, F, T or MS (sleep), whichever comes first
//   value: later: delay; at: deadline; reader: P; write: bytes; resolve: the
//          value; done_cb, remove_cb: F; cancel_future, cancel_task: the
//          message (0: none); wait_for, timeout: MS; gather: F
//   extra: gather: E
struct Op {
  std::string kind;
  long long id = 0;
  long long value = 0;
  long long extra = 0;  // a third operand (gather's E)
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
    // Stage 05: futures (README.md, "Stages 05 and 06").
    {"future", 1, false, 5},         // future F
    {"resolve", 2, false, 5},        // resolve F VALUE
    {"fail", 1, false, 5},           // fail F
    {"cancel_future", 2, false, 5},  // cancel_future F MSG
    {"done_cb", 2, true, 5},         // done_cb ID F
    {"remove_cb", 2, false, 5},      // remove_cb ID F
    {"run_until", 1, false, 5},      // run_until F (top level only)
    // Stage 06: tasks; the awaits and catch_cancel go in a task's body only.
    {"task", 1, true, 6},              // task T
    {"sleep", 1, false, 6},            // sleep MS
    {"await_future", 1, false, 6},     // await_future F
    {"await_task", 1, false, 6},       // await_task T
    {"catch_cancel", 0, false, 6},     // catch_cancel
    {"cancel_task", 2, false, 6},      // cancel_task T MSG
    {"cancelling", 1, false, 6},       // cancelling T
    {"uncancel", 1, false, 6},         // uncancel T
    {"current", 0, false, 6},          // current
    {"run_until_task", 1, false, 6},   // run_until_task T (top level only)
    {"wait_for", 2, false, 6},         // wait_for F MS
    {"shield", 1, false, 6},           // shield F
    {"timeout", 2, true, 6},           // timeout ID MS (its body: more of the task's body)
    {"wait_first", 2, false, 6},       // wait_first F MS
    {"set_task_result", 1, false, 6},  // set_task_result T
    {"gather", 3, false, 6},           // gather T F E
    {"lock", 1, false, 6},             // lock S
    {"semaphore", 2, false, 6},        // semaphore S N
    {"acquire", 1, false, 6},          // acquire S
    {"release", 1, false, 6},          // release S
    {"event", 1, false, 6},            // event E
    {"wait_event", 1, false, 6},       // wait_event E
    {"set_event", 1, false, 6},        // set_event E
    {"clear_event", 1, false, 6},      // clear_event E
    // Stage 07: eager tasks.
    {"task_factory", 1, false, 7},  // task_factory E (1: eager_task_factory, 0: none)
    // Stage 07 also has queues; put, get and join go in a task's body only.
    {"queue", 2, false, 7},       // queue Q N (maxsize N)
    {"put", 2, false, 7},         // put Q V
    {"get", 1, false, 7},         // get Q
    {"put_nowait", 2, false, 7},  // put_nowait Q V
    {"get_nowait", 1, false, 7},  // get_nowait Q
    {"task_done", 1, false, 7},   // task_done Q
    {"join", 1, false, 7},        // join Q
    // Stage 08: task groups; both go in a task's body only.
    {"group", 1, true, 8},       // group ID (its body: more of the task's body, in the group)
    {"group_task", 1, true, 8},  // group_task T (in a group's body: the group makes task T)
    // Stage 09: another thread posts a callback (and is joined at once).
    {"post", 1, true, 9},  // post ID
};

// In a task's body, or a timeout region's, only.
bool task_only(const std::string& kind) {
  return kind == "sleep" || kind == "await_future" || kind == "await_task" ||
         kind == "catch_cancel" || kind == "wait_for" || kind == "shield" || kind == "timeout" ||
         kind == "wait_first" || kind == "group" || kind == "group_task" || kind == "gather" ||
         kind == "put" || kind == "get" || kind == "join" || kind == "acquire" ||
         kind == "wait_event";
}
// A task's body, or a region of one (timeout, group).
bool task_region(const std::string& kind) {
  return kind == "task" || kind == "timeout" || kind == "group" || kind == "group_task";
}
bool top_only(const std::string& kind) { return kind == "run_until" || kind == "run_until_task"; }

const OpSpec* find_op(const std::string& kind) {
  for (const OpSpec& spec : kOps) {
    if (kind == spec.kind) return &spec;
  }
  return nullptr;
}

struct ProgramError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// The top-level ops of a program; a body is indented two spaces deeper than its
// owner.
std::vector<Op> parse(const std::vector<std::string>& lines) {
  std::vector<Op> top;
  struct Level {
    long indent;
    std::vector<Op>* body;
    std::string kind;  // of the op whose body this is ("" at the top level)
  };
  std::vector<Level> stack{{-1, &top, ""}};
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
      if (spec->operands >= 3) op.extra = std::stoll(words[3]);
    } catch (const std::exception&) {
      throw ProgramError(where + "operands must be integers");
    }
    while (indent <= stack.back().indent) stack.pop_back();
    long owner = stack.back().indent;
    if (indent != owner + 2 && !(owner == -1 && indent == 0)) {
      throw ProgramError(where + "bad indentation");
    }
    if (op.kind == "raise" && owner == -1) throw ProgramError(where + "raise outside a callback");
    if (task_only(op.kind) && !task_region(stack.back().kind)) {
      throw ProgramError(where + op.kind + " outside a task's body");
    }
    if (top_only(op.kind) && owner != -1)
      throw ProgramError(where + op.kind + " below the top level");
    std::vector<Op>& body = *stack.back().body;
    body.push_back(std::move(op));
    if (spec->has_body) stack.push_back({indent, &body.back().body, body.back().kind});
  }
  return top;
}

bool schedules(const Op& op) {
  return op.kind == "soon" || op.kind == "later" || op.kind == "at" || op.kind == "post";
}

// The latest time any timer of the program can be due: the sentinel goes after
// it. A reader runs when its pair has data: it counts as running at `reader_at`
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

long long count_kind(const std::vector<Op>& ops, const std::string& kind) {
  long long count = 0;
  for (const Op& op : ops) count += (op.kind == kind ? 1 : 0) + count_kind(op.body, kind);
  return count;
}

bool uses_futures(const std::vector<Op>& ops) {
  for (const Op& op : ops) {
    const OpSpec* spec = find_op(op.kind);
    if ((spec != nullptr && spec->since >= 5) || uses_futures(op.body)) return true;
  }
  return false;
}

// With futures or tasks a wait can end at any time: the bound is the latest
// `at` plus every delay, sleep and timeout, each counted as often as it can
// run (the body of a reader once per write). {latest at, sum of delays}
std::pair<long long, long long> sum_bound(const std::vector<Op>& ops, long long times,
                                          long long writes) {
  long long latest_at = 0;
  long long delays = 0;
  for (const Op& op : ops) {
    if (op.kind == "at") latest_at = std::max(latest_at, op.value);
    if (op.kind == "later") delays += std::max(op.value, 0LL) * times;
    if (op.kind == "sleep") delays += std::max(op.id, 0LL) * times;
    if (op.kind == "wait_for" || op.kind == "timeout" || op.kind == "wait_first") {
      delays += std::max(op.value, 0LL) * times;
    }
    auto [at, more] = sum_bound(op.body, op.kind == "reader" ? times * writes : times, writes);
    latest_at = std::max(latest_at, at);
    delays += more;
  }
  return {latest_at, delays};
}

long long latest_deadline(const std::vector<Op>& ops) {
  if (uses_futures(ops)) {
    auto [latest_at, delays] = sum_bound(ops, 1, count_kind(ops, "write"));
    return latest_at + delays;
  }
  return latest_deadline(ops, 0, latest_deadline(ops, 0, -1));
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
    return "watchdog: the loop read the clock 100000 times without finishing "
           "the program";
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
          [this](looplab::EventLoop&, const looplab::ExceptionContext& context) {
            // Once the trace is over, closing the loop destroys the tasks
            // still pending and what only they held (a gather() they waited
            // for, say), and reports them; CPython reports them whenever it
            // collects them, which is not comparable.
            if (trace_over_) return;
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
#if LOOPLAB_STAGE >= 6
      cleanup();
#endif
    } catch (const Watchdog& watchdog) {
      line(std::string("driver: ") + watchdog.what());
    } catch (...) {
      line("driver: " + looplab::describe_exception(std::current_exception()));
    }
#if LOOPLAB_STAGE >= 5
    finish_futures();
#endif
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
    for (const Op& op : ops) execute_one(op, owner);
  }

  void execute_one(const Op& op, long long owner) {
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
#if LOOPLAB_STAGE >= 9
    if (op.kind == "post") post_from_a_thread(op);
#endif
#if LOOPLAB_STAGE >= 5
    execute_future_op(op);
#endif
  }

  void callback(const Op& op) {
    line("run " + std::to_string(op.id) + " t=" + now());
    execute(op.body, op.id);
  }

#if LOOPLAB_STAGE >= 9
  // post ID: a thread of its own calls call_soon_threadsafe() and is joined
  // before the next op, so where the callback lands in the ready queue is
  // decided, and asyncio's order can be compared.
  // What the thread throws is thrown here.
  void post_from_a_thread(const Op& op) {
    looplab::Handle handle;
    std::exception_ptr error;
    std::thread poster([&] {
      try {
        handle = loop_.call_soon_threadsafe([this, &op] { callback(op); });
      } catch (...) {
        error = std::current_exception();
      }
    });
    poster.join();
    if (error) std::rethrow_exception(error);
    handles_[op.id] = std::move(handle);
  }
#endif

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
    int left = found->second[0];  // not a structured binding: clang 14 cannot
                                  // capture those
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

  // A reader drains its end (to EAGAIN, or EOF), says how much it read, runs
  // its body.
  void read(const Op& op, int fd) {
    std::array<char, 4096> buffer{};
    long long count = 0;
    for (ssize_t n; (n = ::read(fd, buffer.data(), buffer.size())) > 0;) count += n;
    line("read " + std::to_string(op.id) + " " + std::to_string(op.value) + " t=" + now() +
         " n=" + std::to_string(count));
    execute(op.body, op.id);
  }
#endif

#if LOOPLAB_STAGE >= 5
  using Future = looplab::Future<long long>;

  // An exception as the trace prints it: "cancelled" or "cancelled(MSG)",
  // "exception ValueError(MESSAGE)", or "exception TYPE" for any other. A
  // cancelled task's message is printed too: both give it to the first
  // caller of result() or exception() only, later ones get none.
  static std::string error_text(const std::exception_ptr& error) {
    try {
      std::rethrow_exception(error);
    } catch (const looplab::CancelledError& cancelled) {
      return cancelled.message().empty() ? "cancelled" : "cancelled(" + cancelled.message() + ")";
    } catch (const looplab::ValueError& value_error) {
      return std::string("exception ValueError(") + value_error.what() + ")";
    } catch (const looplab::InvalidStateError&) {
      return "exception InvalidStateError";
#if LOOPLAB_STAGE >= 7
    } catch (const looplab::QueueEmpty&) {
      return "exception QueueEmpty";
    } catch (const looplab::QueueFull&) {
      return "exception QueueFull";
#endif
    } catch (const looplab::RuntimeError&) {
      return "exception RuntimeError";
#if LOOPLAB_STAGE >= 6
    } catch (const looplab::TimeoutError&) {
      return "exception TimeoutError";
#endif
#if LOOPLAB_STAGE >= 8
    } catch (const looplab::ExceptionGroup& group) {
      // exception ExceptionGroup[ValueError(2), ExceptionGroup[...]]
      std::string text = "exception ExceptionGroup[";
      for (const std::exception_ptr& error : group.exceptions()) {
        if (text.back() != '[') text += ", ";
        text += error_text(error).substr(std::string("exception ").size());
      }
      return text + "]";
#endif
    } catch (...) {
      return "exception " + looplab::describe_exception(std::current_exception());
    }
  }

  // How a done future ended, in a done callback; cancelled without the
  // message: asking for it would use up a task's for its awaiters.
  static std::string outcome(const Future& future) {
    if (future.cancelled()) return "cancelled";
    if (std::exception_ptr error = future.exception()) return error_text(error);
    return "value " + std::to_string(future.result());
  }

  // cancel_future F MSG, cancel_task T MSG: no message for 0.
  static std::string message(long long number) { return number == 0 ? "" : std::to_string(number); }

  // The ops of stages 05 and 06. An op on a future or a task not made (yet)
  // does nothing and prints nothing.
  void execute_future_op(const Op& op) {
    if (op.kind == "future") {
      Future future = loop_.create_future<long long>();
      futures_.insert_or_assign(op.id, future);
      every_future_.push_back(future);
      return;
    }
#if LOOPLAB_STAGE >= 6
    if (execute_task_op(op)) return;
#endif
    if (op.kind != "resolve" && op.kind != "fail" && op.kind != "cancel_future" &&
        op.kind != "done_cb" && op.kind != "remove_cb" && op.kind != "run_until") {
      return;
    }
    long long number = op.kind == "done_cb" || op.kind == "remove_cb" ? op.value : op.id;
    auto found = futures_.find(number);
    if (found == futures_.end()) return;
    Future future = found->second;
    std::string f = std::to_string(number);
    if (op.kind == "resolve" || op.kind == "fail") {
      try {
        if (op.kind == "resolve") {
          future.set_result(op.value);
        } else {
          future.set_exception(looplab::ValueError("f" + f));
        }
      } catch (const looplab::InvalidStateError&) {
        line(op.kind + " " + f + " -> InvalidStateError");
      }
    } else if (op.kind == "cancel_future") {
      bool cancelled = future.cancel(message(op.value));
      line("cancel_future " + f + " -> " + (cancelled ? "True" : "False"));
    } else if (op.kind == "done_cb") {
      done_callbacks_[op.id] = future.add_done_callback([this, &op](Future& done) {
        line("done " + std::to_string(op.id) + " " + std::to_string(op.value) + " t=" + now() +
             " -> " + outcome(done));
        execute(op.body, op.id);
      });
    } else if (op.kind == "remove_cb") {
      auto callback = done_callbacks_.find(op.id);
      std::size_t count =
          callback == done_callbacks_.end() ? 0 : future.remove_done_callback(callback->second);
      line("remove_cb " + std::to_string(op.id) + " " + f + " -> " + std::to_string(count));
    } else if (op.kind == "run_until") {
      run_until("run_until " + f, future);
    }
  }

  // run_until F, run_until_task T (`is_task`: no cancel message, see
  // error_text).
  void run_until(const std::string& what, const Future& future) {
    std::string text;
    try {
      text = "value " + std::to_string(loop_.run_until_complete(future));
    } catch (const Watchdog&) {
      throw;
    } catch (const looplab::CancelledError&) {
      text = error_text(std::current_exception());
    } catch (...) {
      text = error_text(std::current_exception());
    }
    line(what + " t=" + now() + " -> " + text);
  }

  // At the end, after the last line of the trace: every exception is
  // retrieved, so that none is reported as never retrieved (CPython would
  // report it whenever it collects the future). And every future still
  // pending is cancelled, which hands its callbacks to the ready queue, which
  // close() empties: shield() and gather() leave reference cycles between
  // the futures they join (inner -> callback -> outer -> callback -> inner),
  // which only completing a future breaks, and LeakSanitizer would report
  // them (CPython's garbage collector frees such cycles).
  void finish_futures() {
    trace_over_ = true;
    for (const Future& future : every_future_) {
      if (!future.done()) {
        future.cancel();
      } else if (!future.cancelled()) {
        (void)future.exception();
      }
    }
#if LOOPLAB_STAGE >= 6
    for (const auto& [id, task] : every_task_) {
      if (task.done() && !task.cancelled()) (void)task.exception();
    }
#endif
  }
#endif

#if LOOPLAB_STAGE >= 6
  using Task = looplab::Task<long long>;

#if LOOPLAB_STAGE >= 7
  using Queue = looplab::Queue<long long>;

  // queue, put_nowait, get_nowait, task_done; false for any other op. An op
  // on a queue not made does nothing and prints nothing.
  bool execute_queue_op(const Op& op) {
    if (op.kind == "queue") {
      queues_.insert_or_assign(op.id, Queue(static_cast<int>(op.value)));
      return true;
    }
    if (op.kind != "put_nowait" && op.kind != "get_nowait" && op.kind != "task_done") return false;
    auto found = queues_.find(op.id);
    if (found == queues_.end()) return true;
    const Queue& queue = found->second;
    std::string what = op.kind + " " + std::to_string(op.id);
    std::string text = "done";
    try {
      if (op.kind == "put_nowait") {
        what += " " + std::to_string(op.value);
        queue.put_nowait(op.value);
      } else if (op.kind == "get_nowait") {
        text = "value " + std::to_string(queue.get_nowait());
      } else {
        queue.task_done();
      }
    } catch (...) {
      text = error_text(std::current_exception());
    }
    line(what + " -> " + text);
    return true;
  }
#endif

  using Sync = std::variant<looplab::Lock, looplab::Semaphore>;

  // lock, semaphore, release, event, set_event, clear_event; false for any
  // other op. An op on one not made does nothing and prints nothing.
  bool execute_sync_op(const Op& op) {
    if (op.kind == "lock" || op.kind == "semaphore") {
      syncs_.insert_or_assign(op.id, op.kind == "lock"
                                         ? Sync(looplab::Lock())
                                         : Sync(looplab::Semaphore(static_cast<int>(op.value))));
      return true;
    }
    if (op.kind == "event") {
      events_.insert_or_assign(op.id, looplab::Event());
      return true;
    }
    if (op.kind == "release") {
      auto found = syncs_.find(op.id);
      if (found == syncs_.end()) return true;
      std::string text = "done";
      try {
        std::visit([](const auto& held) { held.release(); }, found->second);
      } catch (...) {
        text = error_text(std::current_exception());  // an unlocked Lock: RuntimeError
      }
      line("release " + std::to_string(op.id) + " -> " + text);
      return true;
    }
    if (op.kind != "set_event" && op.kind != "clear_event") return false;
    auto found = events_.find(op.id);
    if (found == events_.end()) return true;
    if (op.kind == "set_event") {
      found->second.set();
    } else {
      found->second.clear();
    }
    return true;
  }

  // task, cancel_task, cancelling, uncancel, current, run_until_task; false for
  // any other op.
  bool execute_task_op(const Op& op) {
    std::string t = std::to_string(op.id);
    if (execute_sync_op(op)) return true;
    if (op.kind == "task") {
      record_task(op.id, looplab::create_task(loop_, task_body(&op)));
      return true;
    }
#if LOOPLAB_STAGE >= 7
    if (op.kind == "task_factory") {
      loop_.set_task_factory(op.id != 0 ? looplab::TaskFactory(looplab::eager_task_factory)
                                        : nullptr);
      return true;
    }
    if (execute_queue_op(op)) return true;
#endif
    if (op.kind == "current") {
      looplab::TaskBase* task = looplab::TaskBase::current();
      line("current -> " +
           (task == nullptr ? std::string("None") : std::to_string(task_ids_.at(task))));
      return true;
    }
    if (op.kind != "cancel_task" && op.kind != "cancelling" && op.kind != "uncancel" &&
        op.kind != "run_until_task" && op.kind != "set_task_result") {
      return false;
    }
    auto found = tasks_.find(op.id);
    if (found == tasks_.end()) return true;
    Task task = found->second;
    if (op.kind == "set_task_result") {
      std::string text = "accepted";
      try {
        task.set_result(0);
      } catch (const looplab::RuntimeError&) {
        text = error_text(std::current_exception());
      }
      line("set_task_result " + t + " -> " + text);
    } else if (op.kind == "cancel_task") {
      bool cancelled = task.cancel(message(op.value));
      line("cancel_task " + t + " -> " + (cancelled ? "True" : "False"));
    } else if (op.kind == "cancelling") {
      line("cancelling " + t + " -> " + std::to_string(task.cancelling()));
    } else if (op.kind == "uncancel") {
      line("uncancel " + t + " -> " + std::to_string(task.uncancel()));
    } else {
      run_until("run_until_task " + t, task);
    }
    return true;
  }

  // A task made by `task T` or `group_task T`: known by its id from now on,
  // and "end T" once it is done.
  void record_task(long long id, Task task) {
    std::string t = std::to_string(id);
    tasks_.insert_or_assign(id, task);
    every_task_.emplace_back(id, task);
    task.add_done_callback(
        [this, t](Future& done) { line("end " + t + " t=" + now() + " -> " + outcome(done)); });
  }

  // Task T: "start T", then its body (block()); the task's result is T.
  looplab::Coro<long long> task_body(const Op* op) {
    // Known by its id from its first step on, which an eager task runs
    // inside create_task(), before the op below can record it.
    task_ids_[looplab::TaskBase::current()] = op->id;
    line("start " + std::to_string(op->id) + " t=" + now());
    bool catching = false;
    looplab::Coro<void> body = block(&op->body, op->id, &catching, nullptr);
    co_await std::move(body);
    co_return op->id;
  }

  static bool awaits(const std::string& kind) {
    return kind == "sleep" || kind == "await_future" || kind == "await_task" ||
           kind == "wait_for" || kind == "shield" || kind == "timeout" || kind == "wait_first" ||
           kind == "group" || kind == "gather" || kind == "put" || kind == "get" ||
           kind == "join" || kind == "acquire" || kind == "wait_event";
  }

#if LOOPLAB_STAGE >= 8
  using Group = looplab::TaskGroup;
  // group ID: the region's ops, as a TaskGroup's body.
  static looplab::Coro<void> group_region(looplab::TaskGroup* group, Run* self, const Op* op,
                                          long long id, bool* catching) {
    co_await self->block(&op->body, id, catching, group);
  }
  // group_task T in a group's body: the group makes task T; a group that is
  // shutting down or finished refuses (RuntimeError).
  void make_group_task(const Op& op, Group* group) {
    try {
      record_task(op.id, group->create_task(task_body(&op)));
    } catch (const looplab::RuntimeError&) {
      line("group_task " + std::to_string(op.id) + " -> " + error_text(std::current_exception()));
    }
  }
#else
  struct Group {};  // no task groups before stage 08
#endif

  // The body of task `id` (or of a timeout or group region in it; `group`:
  // the innermost group region's, null outside one): its ops in order.
  // An await prints what it got; an exception other than CancelledError is
  // printed and the body goes on; a CancelledError ends the task unless a
  // catch_cancel of the task came first. (Everything co_awaited is a named
  // local: g++ 12 pitfall P1.)
  looplab::Coro<void> block(const std::vector<Op>* ops, long long id, bool* catching,
                            Group* group) {
    std::string t = std::to_string(id);
    for (const Op& child : *ops) {
      if (child.kind == "catch_cancel") {
        *catching = true;
        continue;
      }
      if (child.kind == "group_task") {
#if LOOPLAB_STAGE >= 8
        if (group != nullptr) make_group_task(child, group);
#endif
        continue;
      }
      if (!awaits(child.kind)) {
        execute_one(child, id);
        continue;
      }
      std::string what = child.kind + " " + std::to_string(child.id);
      if (child.kind == "wait_for" || child.kind == "timeout" || child.kind == "wait_first" ||
          child.kind == "put") {
        what += " " + std::to_string(child.value);
      } else if (child.kind == "gather") {
        what += " " + std::to_string(child.value) + " " + std::to_string(child.extra);
      }
      std::string text;
      std::exception_ptr cancelled;
      try {
        if (child.kind == "sleep") {
          looplab::SleepAwaiter nap = looplab::sleep(milliseconds(child.id));
          co_await nap;
          text = "done";
        } else if (child.kind == "group") {
#if LOOPLAB_STAGE >= 8
          looplab::Coro<void> region =
              looplab::task_group(&group_region, this, &child, id, catching);
          co_await std::move(region);
#endif
          text = "done";
        } else if (child.kind == "timeout") {
          looplab::Coro<void> region = block(&child.body, id, catching, group);
          looplab::Coro<void> limited =
              looplab::timeout(milliseconds(child.value), std::move(region));
          co_await std::move(limited);
          text = "done";
#if LOOPLAB_STAGE >= 7
        } else if (child.kind == "put" || child.kind == "get" || child.kind == "join") {
          auto found = queues_.find(child.id);
          if (found == queues_.end()) continue;
          Queue queue = found->second;
          text = "done";
          if (child.kind == "put") {
            looplab::Coro<void> putting = queue.put(child.value);
            co_await std::move(putting);
          } else if (child.kind == "get") {
            looplab::Coro<long long> getting = queue.get();
            long long value = co_await std::move(getting);
            text = "value " + std::to_string(value);
          } else {
            looplab::Coro<void> joining = queue.join();
            co_await std::move(joining);
          }
#endif
        } else if (child.kind == "acquire") {
          auto found = syncs_.find(child.id);
          if (found == syncs_.end()) continue;
          Sync held = found->second;
          looplab::Coro<bool> acquiring =
              std::visit([](const auto& lock) { return lock.acquire(); }, held);
          bool value = co_await std::move(acquiring);
          text = std::string("value ") + (value ? "True" : "False");
        } else if (child.kind == "wait_event") {
          auto found = events_.find(child.id);
          if (found == events_.end()) continue;
          looplab::Event event = found->second;
          looplab::Coro<bool> waiting = event.wait();
          bool value = co_await std::move(waiting);
          text = std::string("value ") + (value ? "True" : "False");
        } else if (child.kind == "gather") {
          std::vector<Future> children = gather_children(child);
          if (children.empty()) continue;
          if ((child.extra & 1) != 0) {
            looplab::Future<std::vector<looplab::Outcome<long long>>> all =
                looplab::gather_return_exceptions(loop_, std::move(children));
            std::vector<looplab::Outcome<long long>> outcomes = co_await all;
            text = values_text(outcomes);
          } else {
            looplab::Future<std::vector<long long>> all =
                looplab::gather(loop_, std::move(children));
            std::vector<long long> values = co_await all;
            text = values_text(values);
          }
        } else if (child.kind == "await_task") {
          auto found = tasks_.find(child.id);
          if (found == tasks_.end()) continue;
          Task task = found->second;
          long long value = co_await task;
          text = "value " + std::to_string(value);
        } else {
          auto found = futures_.find(child.id);
          if (found == futures_.end()) continue;
          Future future = found->second;
          long long value = 0;
          if (child.kind == "wait_first") {
            std::vector<Future> just_it{future};
            looplab::Coro<looplab::WaitResult<long long>> waiting =
                looplab::wait(std::move(just_it), milliseconds(child.value),
                              looplab::ReturnWhen::kFirstCompleted);
            looplab::WaitResult<long long> result = co_await std::move(waiting);
            line(t + " " + what + " t=" + now() + " -> " +
                 (result.done.empty() ? "pending" : "done"));
            continue;
          }
          if (child.kind == "await_future") {
            value = co_await future;
          } else if (child.kind == "shield") {
            Future outer = looplab::shield(future);
            value = co_await outer;
          } else {
            looplab::Coro<long long> waiting = looplab::wait_for(future, milliseconds(child.value));
            value = co_await std::move(waiting);
          }
          text = "value " + std::to_string(value);
        }
      } catch (const looplab::CancelledError&) {
        text = error_text(std::current_exception());
        if (!*catching) cancelled = std::current_exception();
      } catch (const Watchdog&) {
        throw;
      } catch (...) {
        text = error_text(std::current_exception());
      }
      line(t + " " + what + " t=" + now() + " -> " + text);
      if (cancelled) std::rethrow_exception(cancelled);
    }
  }

  // gather T F E: task T, future F if the program has one, T again if E & 2
  // (none at all without a task T).
  std::vector<Future> gather_children(const Op& op) const {
    auto task = tasks_.find(op.id);
    if (task == tasks_.end()) return {};
    std::vector<Future> children{task->second};
    if (auto future = futures_.find(op.value); future != futures_.end()) {
      children.push_back(future->second);
    }
    if ((op.extra & 2) != 0) children.push_back(task->second);
    return children;
  }
  // "values [1, cancelled, 3]", as the Python interpreter prints a result list.
  static std::string values_text(const std::vector<long long>& values) {
    std::string text = "values [";
    for (long long value : values) {
      if (text.back() != '[') text += ", ";
      text += std::to_string(value);
    }
    return text + "]";
  }
  static std::string values_text(const std::vector<looplab::Outcome<long long>>& outcomes) {
    std::string text = "values [";
    for (const looplab::Outcome<long long>& outcome : outcomes) {
      if (text.back() != '[') text += ", ";
      text += outcome.exception ? error_text(outcome.exception) : std::to_string(*outcome.value);
    }
    return text + "]";
  }

  // The tasks still pending are cancelled, in the order they were made, and
  // get up to kCleanupTurns turns (no time passes) to finish.
  void cleanup() {
    std::vector<std::pair<long long, Task>> pending;
    for (const auto& [id, task] : every_task_) {
      if (!task.done()) pending.emplace_back(id, task);
    }
    for (const auto& [id, task] : pending) {
      line("cleanup " + std::to_string(id));
      task.cancel();
    }
    for (int turn = 0; turn < kCleanupTurns; ++turn) {
      if (std::all_of(pending.begin(), pending.end(),
                      [](const auto& entry) { return entry.second.done(); })) {
        break;
      }
      loop_.stop();
      loop_.run_forever();
    }
  }
  static constexpr int kCleanupTurns = 10;
#endif

  const std::vector<Op>& ops_;
  WatchdogClock clock_;
  looplab::EventLoop loop_{clock_};
  std::map<long long, looplab::Handle> handles_;
  bool done_ = false;
  bool trace_over_ = false;  // finish_futures() has run: the handler prints no more
#if LOOPLAB_STAGE >= 3
  std::map<long long, std::array<int, 2>> pairs_;  // pair P: {left end, right end}
#endif
  // Declared after loop_, so destroyed before it: a future must not outlive its
  // loop.
#if LOOPLAB_STAGE >= 5
  std::map<long long, Future> futures_;  // future F: the latest one made
  std::vector<Future> every_future_;     // every future made, kept to the end
  std::map<long long, looplab::DoneCallbackId> done_callbacks_;  // done_cb ID: its latest add
#endif
#if LOOPLAB_STAGE >= 6
  std::map<long long, Task> tasks_;                     // task T: the latest one made
  std::vector<std::pair<long long, Task>> every_task_;  // every task made, in order
  std::map<const looplab::TaskBase*, long long> task_ids_;
  std::map<long long, Sync> syncs_;             // lock or semaphore S: the latest one made
  std::map<long long, looplab::Event> events_;  // event E: the latest one made
#endif
#if LOOPLAB_STAGE >= 7
  std::map<long long, Queue> queues_;  // queue Q: the latest one made
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
