/* libuv_executor: stage 10's round trip on libuv, the floor the goal sets.
 *
 * libuv's thread pool (the one under Node.js's fs and dns, and under uvloop's
 * getaddrinfo) takes work with uv_queue_work(): work_cb runs on a pool
 * thread, after_work_cb back on the loop's thread. That is run_in_executor()
 * without the futures: here the after_work_cb queues the next item, so the
 * items go one at a time, as bench/executor/executor_bench.cpp awaits each
 * call before it submits the next:
 *
 *   executor_roundtrip         one item handed to the pool and its completion
 *                              back on the loop; one op = one round trip
 *   executor_roundtrip_pinned  the same with every thread on CPU 0
 *
 * The pool's threads (4, UV_THREADPOOL_SIZE) start with the first
 * uv_queue_work() and live as long as the process, so pinning cannot rely on
 * threads inheriting the loop thread's CPU set, as the C++ benchmark's and
 * the Python twin's fresh executors do: it pins every thread of the process
 * (/proc/self/task) for the batch, and restores each one's CPU set after it.
 *
 *     libuv_executor [--out FILE] [--quick] [--repetitions N] [--benchmark NAME]
 *
 * writes Google Benchmark JSON (see native_bench.h). */
#define _GNU_SOURCE

#include <dirent.h>
#include <sched.h>
#include <sys/types.h>
#include <uv.h>

#include "native_bench.h"

enum { ROUNDTRIP = 0, ROUNDTRIP_PINNED = 1, MAX_THREADS = 256 };

struct state {
  uv_loop_t loop;
  uv_work_t work;
  int workload;
  long remaining; /* the loop's: items still to queue */
  long input;     /* the loop's, read by the pool thread after uv_queue_work() */
  long output;    /* written by the pool thread, read in after_work_cb */
  long sum;       /* so the work cannot be optimised away */
  int failed;
};

/* A pool thread: the call. */
static void work_cb(uv_work_t* work) {
  struct state* state = work->data;
  state->output = state->input + 1;
}

static int queue_next(struct state* state);

/* The loop: the result is back; queue the next item, if any. */
static void after_work_cb(uv_work_t* work, int status) {
  struct state* state = work->data;
  if (status != 0) {
    fprintf(stderr, "libuv_executor: work: %s\n", uv_strerror(status));
    state->failed = 1;
    return;
  }
  state->sum += state->output;
  if (state->remaining > 0 && queue_next(state) != 0) state->failed = 1;
}

static int queue_next(struct state* state) {
  --state->remaining;
  ++state->input;
  int error = uv_queue_work(&state->loop, &state->work, work_cb, after_work_cb);
  if (error != 0) fprintf(stderr, "libuv_executor: uv_queue_work: %s\n", uv_strerror(error));
  return error;
}

/* The CPU sets of the process's threads (the pool's too), saved while pinned. */
struct pinning {
  int count;
  pid_t tids[MAX_THREADS];
  cpu_set_t saved[MAX_THREADS];
  cpu_set_t caller; /* for a thread started while pinned */
};

/* Calls fn(tid, pinning) for every thread of the process. */
static void for_each_thread(void (*fn)(pid_t, struct pinning*), struct pinning* pinning) {
  DIR* tasks = opendir("/proc/self/task");
  if (tasks == NULL) {
    perror("libuv_executor: /proc/self/task");
    return;
  }
  for (struct dirent* entry = readdir(tasks); entry != NULL; entry = readdir(tasks)) {
    pid_t tid = (pid_t)atoi(entry->d_name);
    if (tid > 0) fn(tid, pinning);
  }
  closedir(tasks);
}

static void pin_one(pid_t tid, struct pinning* pinning) {
  if (pinning->count == MAX_THREADS) return;
  pinning->tids[pinning->count] = tid;
  sched_getaffinity(tid, sizeof pinning->saved[0], &pinning->saved[pinning->count++]);
  cpu_set_t one;
  CPU_ZERO(&one);
  CPU_SET(0, &one);
  sched_setaffinity(tid, sizeof one, &one);
}

static void restore_one(pid_t tid, struct pinning* pinning) {
  const cpu_set_t* set = &pinning->caller;
  for (int i = 0; i < pinning->count; ++i) {
    if (pinning->tids[i] == tid) set = &pinning->saved[i];
  }
  sched_setaffinity(tid, sizeof *set, set);
}

static void teardown(void* opaque) {
  struct state* state = opaque;
  uv_run(&state->loop, UV_RUN_DEFAULT);
  uv_loop_close(&state->loop);
  free(state);
}

static void* setup(int workload) {
  struct state* state = calloc(1, sizeof *state);
  if (state == NULL) return NULL;
  state->workload = workload;
  if (uv_loop_init(&state->loop) != 0) {
    fprintf(stderr, "libuv_executor: uv_loop_init failed\n");
    free(state);
    return NULL;
  }
  state->work.data = state;
  return state;
}

static int run_batch(void* opaque, long ops) {
  struct state* state = opaque;
  static struct pinning pinning;
  if (state->workload == ROUNDTRIP_PINNED) {
    pinning.count = 0;
    sched_getaffinity(0, sizeof pinning.caller, &pinning.caller);
    for_each_thread(pin_one, &pinning);
  }
  state->remaining = ops;
  state->failed = 0;
  int error = queue_next(state);
  if (error == 0) uv_run(&state->loop, UV_RUN_DEFAULT); /* until no item is left */
  if (state->workload == ROUNDTRIP_PINNED) for_each_thread(restore_one, &pinning);
  return error != 0 || state->failed ? -1 : 0;
}

int main(int argc, char** argv) {
  static const struct nb_workload workloads[] = {
      {"executor_roundtrip", ROUNDTRIP, 10000},
      {"executor_roundtrip_pinned", ROUNDTRIP_PINNED, 10000},
  };
  static struct nb_program program = {
      .implementation = "libuv (C)",
      .selector = "libuv",
      .extra_key = "libuv_version",
      .setup = setup,
      .run_batch = run_batch,
      .teardown = teardown,
      .workloads = workloads,
      .workload_count = sizeof workloads / sizeof workloads[0],
  };
  program.extra_value = uv_version_string();
  return nb_main(argc, argv, &program);
}
