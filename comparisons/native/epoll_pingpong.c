/* epoll_pingpong: the raw epoll floor for reader_pingpong and reader_pingpong_idle1000.
 *
 * The same reads and writes as bench/io/io_bench.cpp, with nothing but a
 * level-triggered epoll around them: no loop, no callbacks, no queue. Two ends
 * of an AF_UNIX socket pair bounce one byte; one op = one round trip (end B
 * writes, end A reads and writes back, end B reads). Each wait is
 * epoll_wait(timeout -1, maxevents 64); on each ready descriptor: read the
 * byte, write it back; end A counts the round trips and stops at the batch's
 * count without writing. The idle variant also registers both ends of 500
 * socket pairs that never become readable (the active pair is made first).
 *
 * This is the floor that stage 04's epoll loop is compared with: whatever a
 * loop costs above it is the loop's own work.
 *
 *     epoll_pingpong [--out FILE] [--quick] [--repetitions N] [--benchmark NAME]
 *
 * writes Google Benchmark JSON (see native_bench.h). */
#define _GNU_SOURCE

#include <sys/epoll.h>

#include "native_bench.h"

enum { MAX_EVENTS = 64 };

struct pingpong {
  int epoll;
  int a, b;
  int idle_count;
  int* idle; /* both ends of every idle pair */
};

static void teardown(void* opaque) {
  struct pingpong* state = opaque;
  if (state->epoll >= 0) close(state->epoll);
  if (state->a >= 0) close(state->a);
  if (state->b >= 0) close(state->b);
  for (int i = 0; i < state->idle_count; ++i) close(state->idle[i]);
  free(state->idle);
  free(state);
}

static int watch(int epoll, int fd) {
  struct epoll_event event = {.events = EPOLLIN, .data.fd = fd}; /* level-triggered */
  if (epoll_ctl(epoll, EPOLL_CTL_ADD, fd, &event) != 0) {
    perror("epoll_ctl");
    return -1;
  }
  return 0;
}

static void* setup(int idle) {
  struct pingpong* state = calloc(1, sizeof *state);
  if (state == NULL) return NULL;
  state->epoll = state->a = state->b = -1;
  state->idle = calloc((size_t)idle + 1, sizeof *state->idle);
  int ends[2];
  if (state->idle == NULL || nb_socket_pair(ends) != 0) goto fail;
  state->a = ends[0];
  state->b = ends[1];
  state->epoll = epoll_create1(EPOLL_CLOEXEC);
  if (state->epoll < 0) {
    perror("epoll_create1");
    goto fail;
  }
  /* The idle pairs are registered before the active pair, as in io_bench.cpp,
   * where add_reader is called for them first. */
  for (int i = 0; i < idle / 2; ++i) {
    if (nb_socket_pair(ends) != 0) goto fail;
    state->idle[state->idle_count++] = ends[0];
    state->idle[state->idle_count++] = ends[1];
    if (watch(state->epoll, ends[0]) != 0 || watch(state->epoll, ends[1]) != 0) goto fail;
  }
  if (watch(state->epoll, state->a) != 0 || watch(state->epoll, state->b) != 0) goto fail;
  return state;
fail:
  teardown(state);
  return NULL;
}

static int run_batch(void* opaque, long round_trips) {
  struct pingpong* state = opaque;
  struct epoll_event events[MAX_EVENTS];
  long remaining = round_trips;
  char byte = 'x';
  if (write(state->b, &byte, 1) != 1) {
    perror("write");
    return -1;
  }
  for (;;) {
    int ready = epoll_wait(state->epoll, events, MAX_EVENTS, -1);
    if (ready < 0) {
      if (errno == EINTR) continue;
      perror("epoll_wait");
      return -1;
    }
    int done = 0;
    for (int i = 0; i < ready; ++i) {
      int fd = events[i].data.fd;
      if (fd != state->a && fd != state->b) {
        fprintf(stderr, "epoll_pingpong: idle descriptor %d became ready\n", fd);
        return -1;
      }
      if (read(fd, &byte, 1) != 1) {
        perror("read");
        return -1;
      }
      if (fd == state->a && --remaining == 0) {
        done = 1; /* the last round trip: stop after this wait, as loop.stop() does */
      } else if (write(fd, &byte, 1) != 1) {
        perror("write");
        return -1;
      }
    }
    if (done) return 0;
  }
}

int main(int argc, char** argv) {
  static const struct nb_program program = {
      .implementation = "raw epoll (C)",
      .selector = "epoll",
      .setup = setup,
      .run_batch = run_batch,
      .teardown = teardown,
  };
  return nb_main(argc, argv, &program);
}
