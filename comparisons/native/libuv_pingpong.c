/* libuv_pingpong: reader_pingpong and reader_pingpong_idle1000 on libuv.
 *
 * The same reads and writes as bench/io/io_bench.cpp and epoll_pingpong.c,
 * in libuv's readiness style: one uv_poll_t watching UV_READABLE per end of
 * the active socket pair (and per end of each of the 500 idle pairs in the
 * idle variant), read(2) and write(2) in the poll callback, uv_stop() when
 * end A has counted the batch's round trips. One op = one round trip. The
 * active pair is made first, as in io_bench.cpp.
 *
 * This is what "libuv" means in the report: the C event loop under uvloop and
 * Node.js, without a Python interpreter on top.
 *
 *     libuv_pingpong [--out FILE] [--quick] [--repetitions N] [--benchmark NAME]
 *
 * writes Google Benchmark JSON (see native_bench.h); its context carries
 * "libuv_version" (uv_version_string()). */
#define _GNU_SOURCE

#include <uv.h>

#include "native_bench.h"

struct pingpong {
  uv_loop_t loop;
  int loop_ready;
  int a, b;
  uv_poll_t poll_a, poll_b;
  int active_polls; /* 0: neither poll_a nor poll_b started, 1: poll_a, 2: both */
  int idle_count;   /* descriptors in idle, each with its uv_poll_t */
  int* idle;
  uv_poll_t* idle_polls;
  long remaining;
  int failed;
};

static void fail(struct pingpong* state, const char* what, int error) {
  fprintf(stderr, "libuv_pingpong: %s: %s\n", what, error ? uv_strerror(error) : strerror(errno));
  state->failed = 1;
  uv_stop(&state->loop);
}

static void on_a(uv_poll_t* poll, int status, int events) {
  struct pingpong* state = poll->data;
  char byte;
  (void)events;
  if (status < 0) {
    fail(state, "poll a", status);
  } else if (read(state->a, &byte, 1) != 1) {
    fail(state, "read a", 0);
  } else if (--state->remaining == 0) {
    uv_stop(&state->loop);
  } else if (write(state->a, &byte, 1) != 1) {
    fail(state, "write a", 0);
  }
}

static void on_b(uv_poll_t* poll, int status, int events) {
  struct pingpong* state = poll->data;
  char byte;
  (void)events;
  if (status < 0) {
    fail(state, "poll b", status);
  } else if (read(state->b, &byte, 1) != 1) {
    fail(state, "read b", 0);
  } else if (write(state->b, &byte, 1) != 1) {
    fail(state, "write b", 0);
  }
}

static void on_idle(uv_poll_t* poll, int status, int events) {
  (void)status;
  (void)events;
  fprintf(stderr, "libuv_pingpong: an idle descriptor became ready\n");
  struct pingpong* state = poll->data;
  state->failed = 1;
  uv_stop(&state->loop);
}

/* Watch fd for UV_READABLE; on failure nothing is left for teardown() to close
 * but the loop's pending uv_close. */
static int start(struct pingpong* state, uv_poll_t* poll, int fd, uv_poll_cb callback) {
  int error = uv_poll_init(&state->loop, poll, fd);
  if (error == 0) {
    poll->data = state;
    error = uv_poll_start(poll, UV_READABLE, callback);
    if (error != 0) uv_close((uv_handle_t*)poll, NULL);
  }
  if (error != 0) fprintf(stderr, "libuv_pingpong: uv_poll: %s\n", uv_strerror(error));
  return error;
}

static void teardown(void* opaque) {
  struct pingpong* state = opaque;
  if (state->loop_ready) {
    if (state->active_polls > 0) uv_close((uv_handle_t*)&state->poll_a, NULL);
    if (state->active_polls > 1) uv_close((uv_handle_t*)&state->poll_b, NULL);
    for (int i = 0; i < state->idle_count; ++i) uv_close((uv_handle_t*)&state->idle_polls[i], NULL);
    uv_run(&state->loop, UV_RUN_DEFAULT); /* runs the close callbacks */
    uv_loop_close(&state->loop);
  }
  if (state->a >= 0) close(state->a);
  if (state->b >= 0) close(state->b);
  for (int i = 0; i < state->idle_count; ++i) close(state->idle[i]);
  free(state->idle);
  free(state->idle_polls);
  free(state);
}

static void* setup(int idle) {
  struct pingpong* state = calloc(1, sizeof *state);
  if (state == NULL) return NULL;
  state->a = state->b = -1;
  state->idle = calloc((size_t)idle + 1, sizeof *state->idle);
  state->idle_polls = calloc((size_t)idle + 1, sizeof *state->idle_polls);
  int ends[2];
  if (state->idle == NULL || state->idle_polls == NULL || nb_socket_pair(ends) != 0) goto fail;
  state->a = ends[0];
  state->b = ends[1];
  int error = uv_loop_init(&state->loop);
  if (error != 0) {
    fprintf(stderr, "libuv_pingpong: uv_loop_init: %s\n", uv_strerror(error));
    goto fail;
  }
  state->loop_ready = 1;
  for (int i = 0; i < idle / 2; ++i) {
    if (nb_socket_pair(ends) != 0) goto fail;
    for (int end = 0; end < 2; ++end) {
      state->idle[state->idle_count] = ends[end];
      if (start(state, &state->idle_polls[state->idle_count], ends[end], on_idle) != 0) {
        close(ends[end]);
        if (end == 0) close(ends[1]);
        goto fail;
      }
      state->idle_count++;
    }
  }
  if (start(state, &state->poll_a, state->a, on_a) != 0) goto fail;
  state->active_polls = 1;
  if (start(state, &state->poll_b, state->b, on_b) != 0) goto fail;
  state->active_polls = 2;
  return state;
fail:
  teardown(state);
  return NULL;
}

static int run_batch(void* opaque, long round_trips) {
  struct pingpong* state = opaque;
  char byte = 'x';
  state->remaining = round_trips;
  if (write(state->b, &byte, 1) != 1) {
    perror("write");
    return -1;
  }
  uv_run(&state->loop, UV_RUN_DEFAULT); /* until uv_stop() in on_a */
  return state->failed ? -1 : 0;
}

int main(int argc, char** argv) {
  static struct nb_program program = {
      .implementation = "libuv (C)",
      .selector = "libuv",
      .extra_key = "libuv_version",
      .setup = setup,
      .run_batch = run_batch,
      .teardown = teardown,
  };
  program.extra_value = uv_version_string();
  return nb_main(argc, argv, &program);
}
