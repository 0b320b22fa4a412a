/* libuv_threadsafe: stage 09's workloads on libuv, the floor the issue sets.
 *
 * libuv's one thread-safe call is uv_async_send(): it wakes the loop (at most
 * one callback per wake-up, however many sends), and carries nothing. A
 * program that hands the loop work from other threads therefore keeps its
 * own queue behind a mutex and sends after each push, as Node.js and every
 * libuv program that does this do. That is what is measured here, with the
 * same workloads as bench/threadsafe/threadsafe_bench.cpp:
 *
 *   threadsafe_flood            4 threads push 100,000 callbacks each; one op =
 *                               one callback pushed and run on the loop
 *   threadsafe_pingpong         one thread pushes a callback and waits (a
 *                               semaphore) until the loop has run it; one op =
 *                               one round trip
 *   threadsafe_pingpong_pinned  the same with every thread on CPU 0
 *
 *     libuv_threadsafe [--out FILE] [--quick] [--repetitions N] [--benchmark NAME]
 *
 * writes Google Benchmark JSON (see native_bench.h). */
#define _GNU_SOURCE

#include <sched.h>
#include <uv.h>

#include "native_bench.h"

enum { POSTERS = 4, FLOOD = 0, PINGPONG = 1, PINGPONG_PINNED = 2 };

struct state;
struct item {
  void (*fn)(struct state* state, long arg);
  long arg;
};

struct state {
  uv_loop_t loop;
  uv_async_t async;
  uv_mutex_t mutex;
  struct item* posted; /* guarded by mutex */
  long posted_count, posted_capacity;
  struct item* running; /* the loop's: swapped with posted */
  long running_capacity;
  uv_sem_t answered;
  int workload;
  long remaining; /* the loop's */
  long per_poster;
};

/* Any thread: queue a callback and wake the loop. */
static int post(struct state* state, void (*fn)(struct state*, long), long arg) {
  uv_mutex_lock(&state->mutex);
  if (state->posted_count == state->posted_capacity) {
    long capacity = state->posted_capacity ? state->posted_capacity * 2 : 1024;
    struct item* grown = realloc(state->posted, sizeof *grown * (size_t)capacity);
    if (grown == NULL) {
      uv_mutex_unlock(&state->mutex);
      return -1;
    }
    state->posted = grown;
    state->posted_capacity = capacity;
  }
  state->posted[state->posted_count++] = (struct item){fn, arg};
  uv_mutex_unlock(&state->mutex);
  return uv_async_send(&state->async);
}

/* The loop: run everything posted so far. */
static void on_async(uv_async_t* async) {
  struct state* state = async->data;
  uv_mutex_lock(&state->mutex);
  struct item* items = state->posted;
  long count = state->posted_count;
  long capacity = state->posted_capacity;
  state->posted = state->running;
  state->posted_capacity = state->running_capacity;
  state->posted_count = 0;
  state->running = items;
  state->running_capacity = capacity;
  uv_mutex_unlock(&state->mutex);
  for (long i = 0; i < count; ++i) items[i].fn(state, items[i].arg);
}

static void tick(struct state* state, long arg) {
  (void)arg;
  if (--state->remaining == 0) uv_stop(&state->loop);
}

static void answer(struct state* state, long last) {
  uv_sem_post(&state->answered);
  if (last) uv_stop(&state->loop);
}

static void poster(void* opaque) {
  struct state* state = opaque;
  for (long i = 0; i < state->per_poster; ++i) {
    if (post(state, tick, 0) != 0) abort();
  }
}

static void pinger(void* opaque) {
  struct state* state = opaque;
  for (long i = 1; i <= state->remaining; ++i) {
    if (post(state, answer, i == state->remaining) != 0) abort();
    uv_sem_wait(&state->answered);
  }
}

static void teardown(void* opaque) {
  struct state* state = opaque;
  uv_close((uv_handle_t*)&state->async, NULL);
  uv_run(&state->loop, UV_RUN_DEFAULT);
  uv_loop_close(&state->loop);
  uv_mutex_destroy(&state->mutex);
  uv_sem_destroy(&state->answered);
  free(state->posted);
  free(state->running);
  free(state);
}

static void* setup(int workload) {
  struct state* state = calloc(1, sizeof *state);
  if (state == NULL) return NULL;
  state->workload = workload;
  if (uv_loop_init(&state->loop) != 0 ||
      uv_async_init(&state->loop, &state->async, on_async) != 0 ||
      uv_mutex_init(&state->mutex) != 0 || uv_sem_init(&state->answered, 0) != 0) {
    fprintf(stderr, "libuv_threadsafe: setting up libuv failed\n");
    free(state);
    return NULL;
  }
  state->async.data = state;
  return state;
}

static int run_batch(void* opaque, long ops) {
  struct state* state = opaque;
  cpu_set_t saved, one;
  if (state->workload == PINGPONG_PINNED) {
    sched_getaffinity(0, sizeof saved, &saved);
    CPU_ZERO(&one);
    CPU_SET(0, &one);
    sched_setaffinity(0, sizeof one, &one); /* the pinger inherits it */
  }
  uv_thread_t threads[POSTERS];
  int started = state->workload == FLOOD ? POSTERS : 1;
  state->remaining = state->workload == FLOOD ? ops / POSTERS * POSTERS : ops;
  state->per_poster = ops / POSTERS;
  for (int t = 0; t < started; ++t) {
    if (uv_thread_create(&threads[t], state->workload == FLOOD ? poster : pinger, state) != 0) {
      fprintf(stderr, "libuv_threadsafe: uv_thread_create failed\n");
      return -1;
    }
  }
  uv_run(&state->loop, UV_RUN_DEFAULT); /* until the last callback's uv_stop() */
  for (int t = 0; t < started; ++t) uv_thread_join(&threads[t]);
  if (state->workload == PINGPONG_PINNED) sched_setaffinity(0, sizeof saved, &saved);
  return 0;
}

int main(int argc, char** argv) {
  static const struct nb_workload workloads[] = {
      {"threadsafe_flood", FLOOD, 400000},
      {"threadsafe_pingpong", PINGPONG, 20000},
      {"threadsafe_pingpong_pinned", PINGPONG_PINNED, 20000},
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
