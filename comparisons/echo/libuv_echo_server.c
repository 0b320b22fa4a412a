/* libuv_echo_server.c: the TCP echo server on plain libuv, the floor under uvloop.
 *
 * One of the servers of the TCP echo benchmark (README.md here):
 *
 *   libuv_echo_server [--port 0]
 *
 * Prints "PORT <n>" on stdout once listening on 127.0.0.1 (port 0, the
 * default, lets the kernel choose), serves until SIGTERM or SIGINT, then
 * closes every handle and exits 0.
 *
 * Writing: uv_try_write() sends at once when nothing is queued (as asyncio's
 * transport.write() and uvloop do); only what the kernel did not take is
 * copied into a heap-allocated write request, freed when it completes. So an
 * echo normally allocates nothing, and each connection reads into one buffer
 * of its own, reused for every read (the bytes are sent or copied before the
 * next read).
 *
 *   cc -O2 -Wall -Wextra -Werror libuv_echo_server.c $(pkg-config --cflags --libs libuv)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <uv.h>

typedef struct {
  uv_tcp_t tcp; /* first member, so a handle pointer is a connection pointer */
  char buffer[64 * 1024];
} connection_t;

/* What the kernel did not take at once: a write request and its bytes. */
typedef struct {
  uv_write_t request;
  uv_buf_t buf;
  char data[];
} pending_write_t;

static uv_tcp_t server;
static uv_signal_t sigterm_watcher;
static uv_signal_t sigint_watcher;

static void free_connection(uv_handle_t* handle) { free(handle); }

static void close_connection(uv_stream_t* stream) {
  if (!uv_is_closing((uv_handle_t*)stream)) uv_close((uv_handle_t*)stream, free_connection);
}

static void on_alloc(uv_handle_t* handle, size_t suggested_size, uv_buf_t* buf) {
  (void)suggested_size;
  connection_t* connection = (connection_t*)handle;
  *buf = uv_buf_init(connection->buffer, sizeof connection->buffer);
}

static void on_write(uv_write_t* request, int status) {
  /* UV_ECANCELED: the connection was closed with this write still queued. */
  if (status < 0 && status != UV_ECANCELED) close_connection(request->handle);
  free(request);
}

static void on_shutdown(uv_shutdown_t* request, int status) {
  (void)status;
  close_connection(request->handle);
  free(request);
}

static void echo(uv_stream_t* stream, char* data, size_t size) {
  uv_buf_t buf = uv_buf_init(data, (unsigned int)size);
  int sent = uv_try_write(stream, &buf, 1); /* UV_EAGAIN if writes are already queued */
  if (sent >= 0 && (size_t)sent == size) return;
  if (sent < 0 && sent != UV_EAGAIN) {
    close_connection(stream);
    return;
  }
  size_t offset = sent > 0 ? (size_t)sent : 0;
  pending_write_t* pending = malloc(sizeof *pending + (size - offset));
  if (pending == NULL) {
    close_connection(stream);
    return;
  }
  memcpy(pending->data, data + offset, size - offset);
  pending->buf = uv_buf_init(pending->data, (unsigned int)(size - offset));
  if (uv_write(&pending->request, stream, &pending->buf, 1, on_write) != 0) {
    free(pending);
    close_connection(stream);
  }
}

static void on_read(uv_stream_t* stream, ssize_t nread, const uv_buf_t* buf) {
  if (nread > 0) {
    echo(stream, buf->base, (size_t)nread);
  } else if (nread == UV_EOF) {
    /* The client has finished: send what is still queued, then close. */
    uv_shutdown_t* request = malloc(sizeof *request);
    if (request == NULL || uv_shutdown(request, stream, on_shutdown) != 0) {
      free(request);
      close_connection(stream);
    }
  } else if (nread < 0) {
    close_connection(stream);
  }
  /* nread == 0: nothing to read after all (EAGAIN); libuv lends the buffer back. */
}

static void on_connection(uv_stream_t* listener, int status) {
  if (status < 0) {
    fprintf(stderr, "libuv_echo_server: accept: %s\n", uv_strerror(status));
    return;
  }
  connection_t* connection = malloc(sizeof *connection);
  if (connection == NULL) return;
  uv_tcp_init(listener->loop, &connection->tcp);
  connection->tcp.data = connection; /* marks it as a connection for close_everything() */
  if (uv_accept(listener, (uv_stream_t*)&connection->tcp) != 0) {
    uv_close((uv_handle_t*)&connection->tcp, free_connection);
    return;
  }
  uv_tcp_nodelay(&connection->tcp, 1);
  uv_read_start((uv_stream_t*)&connection->tcp, on_alloc, on_read);
}

static void close_everything(uv_handle_t* handle, void* arg) {
  (void)arg;
  if (uv_is_closing(handle)) return;
  uv_close(handle, handle->data != NULL ? free_connection : NULL);
}

/* SIGTERM or SIGINT: close every handle; uv_run() returns once none is left. */
static void on_signal(uv_signal_t* watcher, int signum) {
  (void)signum;
  uv_walk(watcher->loop, close_everything, NULL);
}

static int check(int status, const char* what) {
  if (status < 0) {
    fprintf(stderr, "libuv_echo_server: %s: %s\n", what, uv_strerror(status));
    exit(1);
  }
  return status;
}

int main(int argc, char** argv) {
  int port = 0;
  for (int i = 1; i < argc; ++i) {
    if (strcmp(argv[i], "--port") == 0 && i + 1 < argc) {
      char* end = NULL;
      long value = strtol(argv[++i], &end, 10);
      if (*end != '\0' || value < 0 || value > 65535) {
        fprintf(stderr, "libuv_echo_server: bad --port '%s'\n", argv[i]);
        return 2;
      }
      port = (int)value;
    } else {
      fprintf(stderr, "usage: libuv_echo_server [--port N]\n");
      return 2;
    }
  }

  uv_loop_t* loop = uv_default_loop();
  struct sockaddr_in address;
  check(uv_ip4_addr("127.0.0.1", port, &address), "uv_ip4_addr");
  check(uv_tcp_init(loop, &server), "uv_tcp_init");
  check(uv_tcp_bind(&server, (const struct sockaddr*)&address, 0), "bind");
  check(uv_listen((uv_stream_t*)&server, SOMAXCONN, on_connection), "listen");
  check(uv_signal_init(loop, &sigterm_watcher), "uv_signal_init");
  check(uv_signal_start(&sigterm_watcher, on_signal, SIGTERM), "uv_signal_start");
  check(uv_signal_init(loop, &sigint_watcher), "uv_signal_init");
  check(uv_signal_start(&sigint_watcher, on_signal, SIGINT), "uv_signal_start");

  struct sockaddr_storage bound;
  int length = sizeof bound;
  check(uv_tcp_getsockname(&server, (struct sockaddr*)&bound, &length), "getsockname");
  printf("PORT %d\n", ntohs(((struct sockaddr_in*)&bound)->sin_port));
  fflush(stdout);
  fprintf(stderr, "libuv_echo_server: libuv %s\n", uv_version_string());

  uv_run(loop, UV_RUN_DEFAULT);
  return uv_loop_close(loop) == 0 ? 0 : 1;
}
